import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import { feeOf } from "~/lib/fees";
import {
  acceptCancellation,
  approveContract,
  cancelContract,
  requestCancellation,
  requestChanges,
} from "~/services/contracts/contracts.server";
import {
  answerEntry,
  approveWeek,
  editEntry,
  endHourlyContract,
  logEntry,
  questionEntries,
  setKeepUnused,
  submitWeek,
} from "~/services/contracts/hourly.server";
import {
  answerAmount,
  endMonthlyContract,
  proposeAmount,
  runMonthlySchedule,
} from "~/services/contracts/monthly.server";
import { config } from "~/config.server";
import {
  authoriseRecurrence,
  receivePixAutomaticoWebhook,
  runRecurringSchedule,
} from "~/services/payments/recurring.server";
import { startPixAutomatico, type PixAutomaticoMock } from "./pix-automatico-server";
import type { Notification } from "./mercadopago-server";
import { dayInSaoPaulo } from "~/lib/work-weeks";
import { AppError } from "~/services/platform/errors.server";
import { balancesOf, checkLedger, heldTotal } from "~/services/payments/ledger.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import {
  markPayoutFailed,
  markPayoutPaid,
  recordRefund,
  requestPayout,
  setPayoutAccount,
} from "~/services/payments/payouts.server";
import { deliver, e2eId, escrow, fund, hired, hiredHourly, hiredMonthly, operator, verifiedPayee } from "./support";

// Random sequences of everything that moves money — fund, deliver, ask for changes, approve,
// cancel, agreed cancellation, dispute decisions, payouts asked for, paid and failed, refunds
// paid — on a few contracts. Whatever the order (moves refused with 403/409 included), the
// ledger keeps every invariant: each transaction sums to zero, no balance below zero, the held
// total is the funded milestones not settled, the fees are exactly the frozen rate. A fourth
// contract is hourly: its weeks funded, time logged, submitted, approved (floor(minutes × rate /
// 60) released, the rest refunded, or kept for the next week when the merchant chose so, that
// week then paid for the rest) and the contract ended, in any order. A sixth is monthly: its
// months funded, delivered, approved, cancelled or disputed by the same moves as the first three,
// the schedule run a month later (the next month opens, an unfunded one lapses) and the contract
// ended from the next month, in any order; its months are also funded by Pix Automático (the
// merchant authorised it: the month charged by the schedule and debited through the provider's
// webhook), and its amount changed (proposed by the freelancer, accepted by the merchant: the
// next month opens with it, and the recurrence of the old amount is cancelled).

const FEES = [0, 1_000, 1_250, 333];

const contract = fc.constantFrom<number>(0, 1, 2, 5);
// Weighted so that sequences often get a milestone all the way through (fund, deliver, approve,
// payout), while refusals, cancellations and disputes still come at any point.
const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("fund" as const), c: contract }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("deliver" as const), c: contract }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("changes" as const), c: contract }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("approve" as const), c: contract }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("cancel" as const), c: contract, byMerchant: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("agreed_cancel" as const), c: contract }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("dispute" as const),
      c: contract,
      decision: fc.constantFrom("complete" as const, "cancel" as const, "split" as const),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("payout" as const), c: contract }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("payout_paid" as const), ok: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("refund_paid" as const) }) },
  // The hourly contract (world.contracts[HOURLY]).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("fund_week" as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("log_time" as const), minutes: fc.integer({ min: 1, max: 700 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("submit_week" as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("approve_week" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("end_hourly" as const) }) },
  // The merchant keeps an approved week's unused money for the next week (or has it refunded).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("keep_unused" as const), keep: fc.boolean() }) },
  // The merchant questions a submitted week's entry; the freelancer amends it (its minutes
  // change what approval releases) or answers it.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("question_week" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("settle_question" as const),
      minutes: fc.integer({ min: 1, max: 700 }),
      amend: fc.boolean(),
    }),
  },
  // The monthly contract (world.contracts[MONTHLY]): a month later, the schedule; ending it.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("next_month" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("end_monthly" as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("recurring_charge" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("change_amount" as const), cents: fc.integer({ min: 1, max: 400_000 }) }),
  },
);

const PSP_TOKEN = "ledger-pix-automatico-token";
const PSP_SECRET = "ledger-pix-automatico-secret-0123";
let psp: PixAutomaticoMock;
const notice = (n: Notification) =>
  receivePixAutomaticoWebhook({ signature: n.headers["x-signature"] ?? null, body: n.body });

const HOURLY = 3;
/** A fixed contract the random moves never pick (`contract` is 0–2 or MONTHLY): the tail's own. */
const SPARE = 4;
const MONTHLY = 5;

type Step = typeof op extends fc.Arbitrary<infer T> ? T : never;

const TAIL: Step[] = [
  { kind: "fund", c: 0 },
  { kind: "deliver", c: 0 },
  { kind: "approve", c: 0 },
  { kind: "payout", c: 0 },
  { kind: "payout_paid", ok: false },
  { kind: "payout", c: 0 },
  { kind: "payout_paid", ok: true },
  { kind: "fund", c: 2 },
  { kind: "deliver", c: 2 },
  { kind: "dispute", c: 2, decision: "split", share: 0.37 },
  { kind: "refund_paid" },
  { kind: "fund_week" },
  { kind: "log_time", minutes: 125 },
  { kind: "submit_week" },
  { kind: "question_week" },
  { kind: "settle_question", minutes: 47, amend: true },
  { kind: "keep_unused", keep: true },
  { kind: "approve_week" },
  // The next week, holding the unused money kept for it, is paid for the rest.
  { kind: "fund_week" },
  { kind: "recurring_charge" },
  { kind: "fund", c: MONTHLY },
  { kind: "deliver", c: MONTHLY },
  { kind: "approve", c: MONTHLY },
  // A new monthly amount, proposed and accepted (the random moves reach one in only a few runs).
  { kind: "change_amount", cents: 150_000 },
  // A fifth contract that no random move touches: a funded milestone cancelled by a decision is
  // refunded, whatever the random moves left of the others.
  { kind: "fund", c: SPARE },
  { kind: "dispute", c: SPARE, decision: "cancel", share: 0 },
];

type World = {
  contracts: { id: string; owner: UserRow; applicant: UserRow; price: number }[];
  /** How far ahead the monthly schedule has been run (ms): each "next_month" adds a month. */
  ahead: number;
};

async function tolerate(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    // A move the state does not allow is refused; anything else is a failure.
    if (!(error instanceof AppError) || ![403, 409, 422].includes(error.status)) throw error;
  }
}

/** The hourly contract's week in `status`, if it has one. */
async function weekIn(contractId: string, status: "open" | "submitted" | "questioned") {
  return db
    .selectFrom("contract_weeks")
    .select(["id", "week_start"])
    .where("contract_id", "=", contractId)
    .where("status", "=", status)
    .executeTakeFirst();
}

async function run(world: World, step: Step) {
  const contract = "c" in step ? world.contracts[step.c] : undefined;
  const hourly = world.contracts[HOURLY]!;
  switch (step.kind) {
    case "fund_week":
      return tolerate(fund(hourly.owner, hourly.id));
    case "log_time": {
      const week = await weekIn(hourly.id, "open");
      const day = dayInSaoPaulo(new Date());
      const input = { day, minutes: step.minutes, description: "Trabalho do dia no aplicativo." };
      return week && tolerate(logEntry(hourly.applicant, hourly.id, week.week_start, input));
    }
    case "submit_week": {
      const week = await weekIn(hourly.id, "open");
      return week && tolerate(submitWeek(hourly.applicant, hourly.id, week.week_start));
    }
    case "approve_week": {
      const week = await weekIn(hourly.id, "submitted");
      return week && tolerate(approveWeek(hourly.owner, hourly.id, week.week_start));
    }
    case "end_hourly":
      return tolerate(endHourlyContract(hourly.owner, hourly.id));
    case "keep_unused":
      return tolerate(setKeepUnused(hourly.owner, hourly.id, { keep: step.keep }));
    case "question_week": {
      const week = await weekIn(hourly.id, "submitted");
      if (!week) return;
      // Its first entry: one answer or amendment settles the week again.
      const entries = await db
        .selectFrom("time_entries")
        .select("id")
        .where("week_id", "=", week.id)
        .orderBy("id")
        .limit(1)
        .execute();
      const reason = "Quanto tempo isso levou de verdade?";
      return tolerate(
        questionEntries(hourly.owner, hourly.id, week.week_start, {
          entries: entries.map((e) => ({ id: e.id, reason })),
        }),
      );
    }
    case "settle_question": {
      const week = await weekIn(hourly.id, "questioned");
      const open =
        week &&
        (await db
          .selectFrom("time_entries")
          .selectAll()
          .where("week_id", "=", week.id)
          .where("answered_at", "is", null)
          .where("question", "is not", null)
          .executeTakeFirst());
      if (!open) return;
      if (!step.amend)
        return tolerate(answerEntry(hourly.applicant, hourly.id, open.id, { answer: "Foi isso mesmo." }));
      const input = { day: open.day, minutes: step.minutes, description: open.description };
      return tolerate(editEntry(hourly.applicant, hourly.id, open.id, input));
    }
    case "next_month":
      world.ahead += 31 * 86_400_000;
      return runMonthlySchedule(new Date(Date.now() + world.ahead));
    case "recurring_charge": {
      // The schedule charges the month waiting (when the recurrence's amount is the month's);
      // the payer's bank debits every charge sent, and the provider tells the webhook.
      await runRecurringSchedule(new Date(Date.now() + world.ahead));
      const sent = await db
        .selectFrom("pix_charges")
        .select("txid")
        .where("contract_id", "=", world.contracts[MONTHLY]!.id)
        .where("recurrence_id", "is not", null)
        .where("status", "=", "pending")
        .where("provider_payment_id", "is not", null)
        .execute();
      for (const { txid } of sent) await tolerate(notice(psp.settle(txid)));
      return;
    }
    case "change_amount": {
      const monthly = world.contracts[MONTHLY]!;
      await tolerate(proposeAmount(monthly.applicant, monthly.id, { amount_cents: step.cents }));
      return tolerate(answerAmount(monthly.owner, monthly.id, true));
    }
    case "end_monthly":
      return tolerate(endMonthlyContract(world.contracts[MONTHLY]!.owner, world.contracts[MONTHLY]!.id));
    case "fund":
      return tolerate(fund(contract!.owner, contract!.id));
    case "deliver":
      return tolerate(deliver(contract!.applicant, contract!.id));
    case "changes":
      return tolerate(requestChanges(contract!.owner, contract!.id, { message: "Ajustar o texto." }));
    case "approve":
      return tolerate(approveContract(contract!.owner, contract!.id));
    case "cancel":
      return tolerate(
        cancelContract(step.byMerchant ? contract!.owner : contract!.applicant, contract!.id, {
          reason: "Motivo suficiente.",
        }),
      );
    case "agreed_cancel":
      await tolerate(requestCancellation(contract!.owner, contract!.id, { reason: "Motivo suficiente." }));
      return tolerate(acceptCancellation(contract!.applicant, contract!.id));
    case "dispute": {
      const milestone = await db
        .selectFrom("milestones")
        .select("amount_cents")
        .where("contract_id", "=", contract!.id)
        .where("status", "in", ["funded", "delivered"])
        .executeTakeFirst();
      const share = Math.floor((milestone?.amount_cents ?? 0) * step.share);
      return tolerate(settleDispute(operator, contract!.id, step.decision, { freelancer_cents: share }));
    }
    case "payout":
      return tolerate(requestPayout(contract!.applicant));
    case "payout_paid": {
      const payout = await db.selectFrom("payouts").select("id").where("status", "=", "requested").executeTakeFirst();
      if (!payout) return;
      return step.ok
        ? markPayoutPaid(operator, payout.id, { e2e_id: e2eId() })
        : markPayoutFailed(operator, payout.id, { reason: "Chave encerrada no banco." });
    }
    case "refund_paid": {
      const refund = await db.selectFrom("refunds").select("id").where("status", "=", "due").executeTakeFirst();
      if (refund) await recordRefund(operator, refund.id, { e2e_id: e2eId() });
    }
  }
}

async function world(feeBps: number): Promise<World> {
  escrow(feeBps);
  const contracts: World["contracts"] = [];
  for (let i = 0; i < 3; i++) {
    const { owner, applicant, id } = await hired();
    const { price_cents: price } = await db
      .selectFrom("contracts")
      .select("price_cents")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    await setPayoutAccount(applicant, {
      key_type: "evp",
      pix_key: "123e4567-e12b-12d1-a456-426655440000",
      holder_name: "Pessoa Recebedora",
      holder_document: await verifiedPayee(applicant),
    });
    if (i === 1) {
      // One contract in three milestones of uneven amounts (the fee rounds on each).
      const third = Math.floor(price / 3) + 7;
      await splitMilestones(owner, id, {
        milestones: [
          { title: "Primeira parte", amount_cents: third, days: 3 },
          { title: "Segunda parte", amount_cents: third, days: 3 },
          { title: "Terceira parte", amount_cents: price - 2 * third, days: 3 },
        ],
      });
    }
    contracts.push({ id, owner, applicant, price });
  }
  // An odd rate, so that floor(minutes × rate / 60) and the fee round on most weeks.
  const { owner, applicant, id } = await hiredHourly({ rate_cents: 3_337, cap_hours: 10 });
  contracts.push({ id, owner, applicant, price: 3_337 });
  const spare = await hired();
  const { price_cents: sparePrice } = await db
    .selectFrom("contracts")
    .select("price_cents")
    .where("id", "=", spare.id)
    .executeTakeFirstOrThrow();
  contracts.push({ ...spare, price: sparePrice });
  // An odd monthly amount, so that the fee rounds.
  const monthly = await hiredMonthly({ amount_cents: 123_457 });
  await setPayoutAccount(monthly.applicant, {
    key_type: "evp",
    pix_key: "123e4567-e12b-12d1-a456-426655440000",
    holder_name: "Pessoa Recebedora",
    holder_document: await verifiedPayee(monthly.applicant),
  });
  contracts.push({ ...monthly, price: 123_457 });
  // Pix Automático authorised by the merchant and approved by their bank.
  await authoriseRecurrence(monthly.owner, monthly.id);
  const { provider_recurrence_id: idRec } = await db
    .selectFrom("pix_recurrences")
    .select("provider_recurrence_id")
    .where("contract_id", "=", monthly.id)
    .executeTakeFirstOrThrow();
  await notice(psp.approve(idRec));
  return { contracts, ahead: 0 };
}

describe("the ledger under random sequences of money moves", () => {
  beforeAll(async () => {
    escrow();
    psp = await startPixAutomatico({ token: PSP_TOKEN, secret: PSP_SECRET });
    Object.assign(config, {
      PIX_AUTOMATICO_API_URL: psp.url,
      PIX_AUTOMATICO_TOKEN: PSP_TOKEN,
      PIX_AUTOMATICO_WEBHOOK_SECRET: PSP_SECRET,
    });
  });
  afterAll(async () => {
    Object.assign(config, {
      PIX_AUTOMATICO_API_URL: undefined,
      PIX_AUTOMATICO_TOKEN: undefined,
      PIX_AUTOMATICO_WEBHOOK_SECRET: undefined,
    });
    await psp.close();
  });

  it("keeps every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FEES), fc.array(op, { minLength: 5, maxLength: 60 }), async (fee, steps) => {
        const w = await world(fee);
        // The random moves, then a fixed tail that takes money every way when the state lets it.
        for (const step of [...steps, ...TAIL]) await run(w, step);
        expect(await checkLedger()).toEqual([]);
        const held = await heldTotal();
        expect(held.ledger).toBe(held.milestones);
        // Money in (Pix received) = money out (payouts and refunds paid) + what the platform holds.
        const sums = await db
          .selectFrom("ledger_entries")
          .select([
            (eb) => eb.fn.sum<number>(sql`CASE WHEN account LIKE 'external:%' THEN amount_cents ELSE 0 END`).as("ext"),
            (eb) => eb.fn.sum<number>(sql`CASE WHEN account LIKE 'external:%' THEN 0 ELSE amount_cents END`).as("held"),
          ])
          .executeTakeFirstOrThrow();
        expect(-Number(sums.ext ?? 0)).toBe(Number(sums.held ?? 0));
        // Fees are exactly the frozen rate of what each settlement released.
        const settled = await db
          .selectFrom("milestones")
          .innerJoin("contracts", "contracts.id", "milestones.contract_id")
          .select(["milestones.released_cents", "milestones.fee_cents", "contracts.fee_bps"])
          .where(
            "milestones.contract_id",
            "in",
            w.contracts.map((c) => c.id),
          )
          .execute();
        for (const m of settled) expect(m.fee_cents).toBe(feeOf(m.released_cents, m.fee_bps));
        // An approved week released floor(minutes × rate / 60) of its milestone, the rest refunded.
        const weeks = await db
          .selectFrom("contract_weeks")
          .innerJoin("milestones", "milestones.id", "contract_weeks.milestone_id")
          .select([
            "contract_weeks.minutes_total",
            "contract_weeks.rate_cents",
            "milestones.amount_cents",
            "milestones.released_cents",
            "milestones.refunded_cents",
            "milestones.carried_out_cents",
          ])
          .where("contract_weeks.contract_id", "=", w.contracts[HOURLY]!.id)
          .where("contract_weeks.status", "=", "approved")
          .execute();
        for (const week of weeks) {
          const released = Math.floor((week.minutes_total * week.rate_cents) / 60);
          // …or kept for the next week, when the merchant chose so.
          expect([week.released_cents, week.refunded_cents + week.carried_out_cents]).toEqual([
            released,
            week.amount_cents - released,
          ]);
        }
        for (const c of w.contracts) {
          for (const user of [c.owner, c.applicant]) {
            const b = await balancesOf(user);
            for (const value of Object.values(b)) expect(value).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      { numRuns: 25 },
    );
    // The runs did move money every way, not only refuse moves (hourly weeks approved with time in them).
    const paidWeeks = await db
      .selectFrom("contract_weeks")
      .select("id")
      .where("status", "=", "approved")
      .where("minutes_total", ">", 0)
      .execute();
    expect(paidWeeks.length).toBeGreaterThan(0);
    // Unused money was kept for a next week on the way.
    const carried = await db.selectFrom("ledger_transactions").select("id").where("kind", "=", "carry").execute();
    expect(carried.length).toBeGreaterThan(0);
    // Questions were asked and settled (an amendment or an answer) on the way.
    const settled = await db.selectFrom("time_entries").select("id").where("answered_at", "is not", null).execute();
    expect(settled.length).toBeGreaterThan(0);
    // …and monthly contracts' months released.
    const paidMonths = await db
      .selectFrom("contract_months")
      .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
      .select("milestones.id")
      .where("milestones.status", "=", "released")
      .execute();
    expect(paidMonths.length).toBeGreaterThan(0);
    // …some of them funded by Pix Automático, and amounts changed on the way.
    const debited = await db
      .selectFrom("pix_charges")
      .select("id")
      .where("recurrence_id", "is not", null)
      .where("status", "=", "paid")
      .execute();
    expect(debited.length).toBeGreaterThan(0);
    const changed = await db
      .selectFrom("contracts")
      .select("id")
      .where("kind", "=", "monthly")
      .where("price_cents", "<>", 123_457)
      .execute();
    expect(changed.length).toBeGreaterThan(0);
    const kinds = await db.selectFrom("ledger_transactions").select("kind").distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(
      expect.arrayContaining([
        "charge_received",
        "release",
        "refund",
        "split",
        "payout_requested",
        "payout_paid",
        "payout_failed",
        "refund_paid",
      ]),
    );
  }, 240_000);
});
