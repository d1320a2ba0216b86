import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { addDays, dayInSaoPaulo, daysOfWeek, saoPauloInstant, weekStartOf, weekTitle } from "../app/lib/work-weeks";
import { fundMilestone } from "../app/services/payments/escrow.server";
import { insertContract, insertWeek } from "./contracts";
import { demoHourlyJob } from "./demo-catalog";
import { createApplication } from "./factories";
import type { ContractRow, ContractWeekRow, Database, UserRow } from "./schema";
import { charge } from "./seed-payments";

// The demo's hourly contract (docs/payments.md, "Contratos por hora"): Ana hired Júlia by the hour,
// so both demo logins (and the accessibility crawl, whose merchant and freelancer they are) find a
// week waiting for the merchant's review and a timesheet with entries. The weeks are placed
// relative to now in São Paulo, and nothing in them is due for the schedule when the demo starts:
// a week in review was sent less than WEEK_REVIEW_DAYS ago and no open week is past its Monday
// 12:00. Until Saturday 10:00 the last week is in review (sent on Monday at 11:00, before the
// schedule's 12:00; its review is due on Saturday at 11:00) and this week is open with entries;
// from then on this week was sent early (two hours ago) and the next waits for its money.

const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();

/** R$ 90,00 an hour, up to 10 hours a week: each week's money is R$ 900,00. */
const RATE_CENTS = 9_000;
const CAP_HOURS = 10;
const REVIEWED = [
  { minutes: 120, description: "Correção do formulário de encomendas no celular." },
  { minutes: 90, description: "Fotos novas do cardápio, otimizadas para carregar rápido." },
  { minutes: 150, description: "Página de bolos por encomenda com preços e prazos." },
  { minutes: 60, description: "Reunião com a Ana sobre os pedidos de Natal." },
  { minutes: 90, description: "Testes de acessibilidade e ajustes de contraste." },
];
const CURRENT = [
  { minutes: 90, description: "Banner da campanha de fim de ano na página inicial." },
  { minutes: 120, description: "Integração do botão de WhatsApp com a mensagem pronta do pedido." },
  { minutes: 60, description: "Revisão dos textos da página de contato." },
];

async function insertEntries(
  db: Kysely<Database>,
  week: ContractWeekRow,
  entries: { minutes: number; description: string }[],
  days: string[],
  latest: number,
) {
  const rows = entries.slice(0, days.length).map((entry, i) => {
    const at = iso(Math.min(saoPauloInstant(days[i]!, 18).getTime(), latest));
    return {
      id: randomUUID(),
      week_id: week.id,
      contract_id: week.contract_id,
      day: days[i]!,
      ...entry,
      question: null,
      answer: null,
      answered_at: null,
      created_at: at,
      updated_at: at,
    };
  });
  if (rows.length) await db.insertInto("time_entries").values(rows).execute();
  const minutes = rows.reduce((sum, r) => sum + r.minutes, 0);
  await db.updateTable("contract_weeks").set({ minutes_total: minutes }).where("id", "=", week.id).execute();
  return minutes;
}

/** With payments on, the week's money was paid by Pix at `at` and is held (the week opens). */
async function fundWeek(db: Kysely<Database>, contract: ContractRow, week: ContractWeekRow, at: number) {
  if (contract.payments !== "escrow") return;
  const milestone = await db
    .selectFrom("milestones")
    .selectAll()
    .where("id", "=", week.milestone_id)
    .executeTakeFirstOrThrow();
  const chargeId = await charge(db, contract, milestone, at - HOUR, true);
  await fundMilestone(db, contract, milestone, chargeId, iso(at));
}

/**
 * When the demo's hourly contract happened, from `now`: the week in review (this one once it is
 * Saturday 10:00, the last one before), when it was sent, the hire (that week's Monday 9:00) and
 * the job's posting (three days before; seedMarketplace posts it in its place among the others).
 */
export function hourlyDates(now: number) {
  const today = dayInSaoPaulo(new Date(now));
  const monday = weekStartOf(today);
  const early = now >= saoPauloInstant(addDays(monday, 5), 10).getTime();
  const reviewWeek = early ? monday : addDays(monday, -7);
  const submittedAt = early ? now - 2 * HOUR : Math.min(now - 2 * HOUR, saoPauloInstant(monday, 11).getTime());
  const hiredAt = saoPauloInstant(reviewWeek, 9).getTime();
  return { today, early, reviewWeek, submittedAt, hiredAt, postedAt: hiredAt - 3 * 24 * HOUR };
}

/** Júlia applies to the demo's hourly job and Ana hires her; the weeks as above. */
export async function seedHourly(db: Kysely<Database>, users: Map<string, UserRow>, now = Date.now()) {
  const ana = users.get("ana@freela.dev")!;
  const julia = users.get("julia@freela.dev")!;
  const { today, early, reviewWeek, submittedAt, hiredAt } = hourlyDates(now);
  const opportunity = await db
    .selectFrom("opportunities")
    .selectAll()
    .where("merchant_id", "=", ana.id)
    .where("title", "=", demoHourlyJob.title)
    .executeTakeFirstOrThrow();
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: julia.id,
    status: "pending",
    cover_letter:
      "Cuido de sites de pequenos negócios por hora: lanço cada tarefa no dia em que faço, e você vê tudo antes de aprovar a semana.",
    created_at: iso(hiredAt - 2 * 24 * HOUR),
    updated_at: iso(hiredAt - 2 * 24 * HOUR),
    offers: [
      {
        author: "freelancer",
        price_cents: RATE_CENTS,
        delivery_days: 30,
        weekly_cap_hours: CAP_HOURS,
        created_at: iso(hiredAt - 2 * 24 * HOUR),
      },
    ],
  });
  // Ana accepted it (as acceptOffer does): the opportunity is filled and the contract is hourly.
  await db
    .updateTable("applications")
    .set({ status: "accepted", awaiting: null, updated_at: iso(hiredAt) })
    .where("id", "=", application.id)
    .execute();
  await db
    .updateTable("opportunities")
    .set({ status: "filled", accepted_count: 1, updated_at: iso(hiredAt) })
    .where("id", "=", opportunity.id)
    .execute();
  await insertContract(
    db,
    {
      id: application.id,
      opportunity_id: opportunity.id,
      merchant_id: ana.id,
      freelancer_id: julia.id,
      price_cents: RATE_CENTS,
      delivery_days: 30,
      weekly_cap_hours: CAP_HOURS,
    },
    iso(hiredAt),
  );
  const contract = await db
    .selectFrom("contracts")
    .selectAll()
    .where("id", "=", application.id)
    .executeTakeFirstOrThrow();

  // The first week: paid, worked on five days, and sent for Ana's review.
  const first = await db
    .selectFrom("contract_weeks")
    .selectAll()
    .where("contract_id", "=", contract.id)
    .executeTakeFirstOrThrow();
  await fundWeek(db, contract, first, hiredAt + HOUR);
  const workDays = daysOfWeek(reviewWeek).slice(0, 5);
  await insertEntries(db, first, REVIEWED, workDays, submittedAt - HOUR);
  await db
    .updateTable("contract_weeks")
    .set({
      status: "submitted",
      submitted_at: iso(submittedAt),
      submitted_by: "freelancer",
      review_due_at: iso(submittedAt + 5 * 24 * HOUR),
      updated_at: iso(submittedAt),
    })
    .where("id", "=", first.id)
    .execute();
  await db
    .insertInto("contract_events")
    .values({
      id: randomUUID(),
      contract_id: contract.id,
      seq: contract.events_count + 1,
      kind: "week_submitted",
      author: "freelancer",
      message: weekTitle(reviewWeek),
      created_at: iso(submittedAt),
    })
    .execute();
  await db
    .insertInto("notifications")
    .values({
      id: randomUUID(),
      user_id: ana.id,
      kind: "contract_week_submitted",
      application_id: contract.id,
      opportunity_id: opportunity.id,
      detail: JSON.stringify({ milestone: weekTitle(reviewWeek) }),
      created_at: iso(submittedAt),
      read_at: null,
    })
    .execute();

  // The next week, opened by the sending: this one, paid and with entries up to today; or, when
  // this week was the one sent, the next one, waiting for its money.
  const nextStart = addDays(reviewWeek, 7);
  const next = await insertWeek(db, contract, nextStart, 2, iso(submittedAt));
  await db
    .updateTable("contracts")
    .set({ milestones_count: 2, events_count: contract.events_count + 1, updated_at: iso(submittedAt) })
    .where("id", "=", contract.id)
    .execute();
  if (!early) {
    await fundWeek(db, contract, next, submittedAt + HOUR);
    const days = daysOfWeek(nextStart).filter((d) => d <= today);
    await insertEntries(db, next, CURRENT, days, now - 10 * 60_000);
  }
}
