import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { config } from "../app/config.server";
import { DEFAULT_MILESTONE_TITLE } from "../app/lib/approval";
import { dayInSaoPaulo, weekStartOf, weekTitle } from "../app/lib/work-weeks";
import { firstMonth, monthDays, monthlyDayOf, monthStart, monthTitle } from "../app/lib/work-months";
import type { ContractMonthRow, ContractRow, ContractWeekRow, Database, MilestoneRow } from "./schema";

const DAY_MS = 86_400_000;

export type NewContract = Pick<
  ContractRow,
  "id" | "opportunity_id" | "merchant_id" | "freelancer_id" | "price_cents" | "delivery_days"
> & {
  /** An hourly proposal's weekly cap: the contract is hourly, price_cents its rate per hour. */
  weekly_cap_hours?: number | null;
  /** A monthly proposal's "what a month includes": the contract is monthly, price_cents per month. */
  month_includes?: string | null;
};

/** A new milestone of a contract, nothing delivered, funded or settled yet. */
export function newMilestone(
  contractId: string,
  fields: Pick<MilestoneRow, "seq" | "title" | "amount_cents" | "days" | "status" | "proposed_by">,
  at: string,
): MilestoneRow {
  return {
    id: randomUUID(),
    contract_id: contractId,
    ...fields,
    deliveries_count: 0,
    released_cents: 0,
    fee_cents: 0,
    refunded_cents: 0,
    carried_in_cents: 0,
    carried_out_cents: 0,
    funded_at: null,
    settled_at: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A week of an hourly contract and its milestone (rate × cap, frozen now): waiting for its funding
 * with escrow, open for entries without. `seq`: the milestone's number in the contract.
 */
export async function insertWeek(
  trx: Kysely<Database>,
  contract: Pick<ContractRow, "id" | "payments" | "rate_cents" | "weekly_cap_minutes">,
  weekStart: string,
  seq: number,
  at: string,
): Promise<ContractWeekRow> {
  const rate = contract.rate_cents!;
  const cap = contract.weekly_cap_minutes!;
  const escrow = contract.payments === "escrow";
  const milestone = newMilestone(
    contract.id,
    {
      seq,
      title: weekTitle(weekStart),
      // The most the week can release: the cap is whole hours, so this is exact.
      amount_cents: Math.floor((rate * cap) / 60),
      days: 7,
      status: escrow ? "awaiting_funding" : "funded",
      proposed_by: null,
    },
    at,
  );
  await trx.insertInto("milestones").values(milestone).execute();
  const week: ContractWeekRow = {
    id: randomUUID(),
    contract_id: contract.id,
    week_start: weekStart,
    rate_cents: rate,
    cap_minutes: cap,
    milestone_id: milestone.id,
    status: escrow ? "awaiting_funding" : "open",
    minutes_total: 0,
    submitted_at: null,
    submitted_by: null,
    review_due_at: null,
    approved_at: null,
    approved_by: null,
    carried_from: null,
    created_at: at,
    updated_at: at,
  };
  await trx.insertInto("contract_weeks").values(week).execute();
  return week;
}

/**
 * A month of a monthly contract and its milestone (the monthly amount, the contract's price):
 * waiting for its funding with escrow, funded at once without. `seq`: the milestone's number.
 */
export async function insertMonth(
  trx: Kysely<Database>,
  contract: Pick<ContractRow, "id" | "payments" | "price_cents"> & { monthly_day: number },
  month: string,
  seq: number,
  at: string,
): Promise<ContractMonthRow> {
  const milestone = newMilestone(
    contract.id,
    {
      seq,
      title: monthTitle(month),
      amount_cents: contract.price_cents,
      days: monthDays(month, contract.monthly_day),
      status: contract.payments === "escrow" ? "awaiting_funding" : "funded",
      proposed_by: null,
    },
    at,
  );
  await trx.insertInto("milestones").values(milestone).execute();
  const row: ContractMonthRow = {
    id: randomUUID(),
    contract_id: contract.id,
    month,
    starts_on: monthStart(month, contract.monthly_day),
    milestone_id: milestone.id,
    created_at: at,
  };
  await trx.insertInto("contract_months").values(row).execute();
  return row;
}

/**
 * The contract of a hire made at `at` (the accept's transaction, or a seeded accepted
 * application): in progress, due delivery_days later, its history opened with a `created` event,
 * paid as PAYMENTS says now (with PLATFORM_FEE_BPS frozen) in one milestone with the whole price:
 * waiting for its funding with escrow, ready for the work without.
 */
export async function insertContract(
  trx: Kysely<Database>,
  input: NewContract,
  at: string,
  payments: { mode: "off" | "escrow"; fee_bps: number } = {
    mode: config.PAYMENTS,
    fee_bps: config.PAYMENTS === "escrow" ? config.PLATFORM_FEE_BPS : 0,
  },
) {
  const { weekly_cap_hours: capHours, month_includes: monthIncludes, ...terms } = input;
  const hourly = capHours !== undefined && capHours !== null;
  const monthly = !hourly && monthIncludes !== undefined && monthIncludes !== null;
  // Monthly: the hire's day of the month (the 1st after the 28th), its first month the one ahead.
  const today = dayInSaoPaulo(new Date(at));
  const monthlyDay = monthlyDayOf(today);
  await trx
    .insertInto("contracts")
    .values({
      ...terms,
      // Hourly: no lump milestone; the money goes week by week (the first, the hire's week, below).
      ...(hourly ? { kind: "hourly" as const, rate_cents: input.price_cents, weekly_cap_minutes: capHours * 60 } : {}),
      // Monthly: the price is each month's amount, one milestone per month (the first, below).
      ...(monthly ? { kind: "monthly" as const, monthly_day: monthlyDay, month_includes: monthIncludes } : {}),
      status: "in_progress",
      due_at: new Date(Date.parse(at) + input.delivery_days * DAY_MS).toISOString(),
      overdue_at: null,
      delivered_at: null,
      review_due_at: null,
      reminded_at: null,
      deliveries_count: 0,
      events_count: 1,
      cancel_requested_by: null,
      cancel_request_reason: null,
      ended_at: null,
      ended_by: null,
      end_reason: null,
      payments: payments.mode,
      fee_bps: payments.fee_bps,
      milestones_count: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  if (hourly) {
    const contract = { id: input.id, payments: payments.mode, rate_cents: input.price_cents };
    await insertWeek(
      trx,
      { ...contract, weekly_cap_minutes: capHours * 60 },
      weekStartOf(dayInSaoPaulo(new Date(at))),
      1,
      at,
    );
  } else if (monthly) {
    await insertMonth(
      trx,
      { id: input.id, payments: payments.mode, price_cents: input.price_cents, monthly_day: monthlyDay },
      firstMonth(today, monthlyDay),
      1,
      at,
    );
  } else {
    await trx
      .insertInto("milestones")
      .values(
        newMilestone(
          input.id,
          {
            seq: 1,
            title: DEFAULT_MILESTONE_TITLE,
            amount_cents: input.price_cents,
            days: input.delivery_days,
            status: payments.mode === "escrow" ? "awaiting_funding" : "funded",
            proposed_by: null,
          },
          at,
        ),
      )
      .execute();
  }
  await trx
    .insertInto("contract_events")
    .values({
      id: randomUUID(),
      contract_id: input.id,
      seq: 1,
      kind: "created",
      author: "system",
      message: null,
      // The price of the hire, kept on its line whatever the contract grows to later.
      amount_cents: input.price_cents,
      created_at: at,
    })
    .execute();
}
