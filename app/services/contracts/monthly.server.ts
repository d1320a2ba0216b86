import { sql, type Kysely } from "kysely";
import { db, transaction } from "../../../db";
import { insertMonth } from "../../../db/contracts";
import type { ContractMonthRow, ContractParty, ContractRow, Database, MilestoneRow, UserRow } from "../../../db/schema";
import { feeOf } from "~/lib/fees";
import { addDays, dayInSaoPaulo } from "~/lib/work-weeks";
import { monthEnd, monthOn, nextMonth, monthStart } from "~/lib/work-months";
import { AppError } from "../platform/errors.server";
import { completeEndedContract, endHourlyContract } from "./hourly.server";
import { publishContractMove } from "../platform/events.server";
import { asParty } from "../platform/participants.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { endContractRecurrence } from "../payments/recurring.server";
import { notify } from "../messaging/notifications.server";
import { parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { monthlyAmountInputSchema } from "~/lib/market-schemas";

// Monthly contracts (docs/payments.md, "Contratos mensais"): the work goes month by month, each
// month starting on the contract's day (1–28). A month's money is a milestone of the monthly
// amount (the contract's price), funded by the same Pix charges as any milestone, and worked with
// the contract's moves (deliver, approve, 14-day automatic approval: contracts.server.ts). The
// month's state is its milestone's:
//
//   awaiting_funding ──Pix received──▶ open (funded) ──deliver──▶ delivered ──approve (or 14 days)──▶ approved
//          └──its start day + 3 passes unfunded──▶ cancelled (the month does not start)
//
// The schedule opens the next month 5 days before it starts, waiting for its money, so the
// merchant funds it while the last month is worked or reviewed. Either side ends the contract
// from the next month: the month funded runs to its end, one waiting for money is dropped, and the
// contract is completed when its last month is approved. Every change is a conditional UPDATE:
// of two servers (or requests) making it at once one wins, the other changes nothing (or 409).

/** Days before a month starts that the schedule opens it for its funding. */
export const OPEN_AHEAD_DAYS = 5;
/** Days after its start a month still waiting for its money lapses. */
export const LAPSE_DAYS = 3;
const SCHEDULE_BATCH = 200;

export type MonthStatus = "awaiting_funding" | "open" | "delivered" | "approved" | "refunded" | "cancelled";

const STATUS_OF: Record<MilestoneRow["status"], MonthStatus> = {
  awaiting_funding: "awaiting_funding",
  funded: "open",
  delivered: "delivered",
  released: "approved",
  refunded: "refunded",
  cancelled: "cancelled",
  proposed: "cancelled",
};

export type MonthJson = {
  /** 'YYYY-MM': the month it starts in. */
  month: string;
  /** Its first and last days (São Paulo dates). */
  starts_on: string;
  ends_on: string;
  status: MonthStatus;
  milestone_id: string;
  title: string;
  amount_cents: number;
  /** Released to the freelancer (less the fee), and refunded to the merchant, once settled. */
  released_cents: number;
  fee_cents: number;
  refunded_cents: number;
  /** When a month still waiting for its money lapses (its start day + 3). */
  lapses_on: string | null;
};

/** A change of the month's amount waiting for the other side's answer. */
export type AmountChangeJson = {
  amount_cents: number;
  /** The fee on it and what the freelancer would receive of it. */
  fee_cents: number;
  net_cents: number;
  /** The side that proposed it. */
  by: ContractParty;
  /** The first month that would take it (the next to open), 'YYYY-MM'. */
  from_month: string;
};

export type MonthsJson = {
  monthly_day: number;
  month_includes: string;
  amount_cents: number;
  /** The fee on a month's amount and what the freelancer receives of it. */
  fee_cents: number;
  net_cents: number;
  /** The contract's fee (basis points; 0 when paid outside the platform), for an amount typed. */
  fee_bps: number;
  /** The first month a change of the amount would take ('YYYY-MM': the next to open). */
  next_month: string;
  amount_change: AmountChangeJson | null;
  /** Whether the viewer may propose a new amount now, and answer (accept) the one proposed. */
  can_change_amount: boolean;
  can_accept_amount: boolean;
  /** The first month that will not open (the contract was ended); null while it goes on. */
  ends_from: string | null;
  /** Whether the viewer may end the contract now. */
  can_end: boolean;
  months: MonthJson[];
};

type MonthlyContract = ContractRow & { kind: "monthly"; monthly_day: number; month_includes: string };

function toMonthJson(month: ContractMonthRow, milestone: MilestoneRow, day: number): MonthJson {
  const status = STATUS_OF[milestone.status];
  return {
    month: month.month,
    starts_on: month.starts_on,
    ends_on: monthEnd(month.month, day),
    status,
    milestone_id: milestone.id,
    title: milestone.title,
    amount_cents: milestone.amount_cents,
    released_cents: milestone.released_cents,
    fee_cents: milestone.fee_cents,
    refunded_cents: milestone.refunded_cents,
    lapses_on: status === "awaiting_funding" ? addDays(month.starts_on, LAPSE_DAYS) : null,
  };
}

/** The monthly contract, for one of its two sides (404 for anyone else; 409 for another kind). */
async function monthlyFor(database: Kysely<Database>, user: Pick<UserRow, "id">, id: string) {
  const { row, party } = await asParty(user, id, (id) =>
    database.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst(),
  );
  if (row.kind !== "monthly" || row.monthly_day === null) throw new AppError(409, "contract_not_monthly");
  return { contract: row as MonthlyContract, party };
}

const mayEnd = (c: Pick<ContractRow, "status" | "paused_from" | "disputed_at">) =>
  (c.status === "in_progress" || c.status === "delivered") && c.paused_from === null && c.disputed_at === null;

/**
 * The next month to open after the latest one: the month after it, or the one running today when
 * that is later (months lapsed, or the schedule did not run). It opens with the contract's amount
 * as it is then.
 */
const nextToOpen = (latest: string | undefined, today: string, day: number) => {
  const running = monthOn(today, day);
  return latest ? [nextMonth(latest), running].sort().at(-1)! : running;
};

/** The contract's months, newest first, with their money; the terms of a month. */
export async function listMonths(user: UserRow, id: string): Promise<MonthsJson> {
  const { contract, party } = await monthlyFor(db, user, id);
  const rows = await db
    .selectFrom("contract_months")
    .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
    .selectAll("milestones")
    .select([
      "contract_months.id as month_id",
      "contract_months.month",
      "contract_months.starts_on",
      "contract_months.created_at as month_created_at",
    ])
    .where("contract_months.contract_id", "=", id)
    .orderBy("contract_months.month", "desc")
    .execute();
  const feeBps = contract.payments === "escrow" ? contract.fee_bps : 0;
  const fee = feeOf(contract.price_cents, feeBps);
  const nextOne = nextToOpen(rows[0]?.month, dayInSaoPaulo(new Date()), contract.monthly_day);
  const change = contract.amount_change_cents;
  return {
    monthly_day: contract.monthly_day,
    month_includes: contract.month_includes,
    amount_cents: contract.price_cents,
    fee_cents: fee,
    net_cents: contract.price_cents - fee,
    fee_bps: feeBps,
    next_month: nextOne,
    amount_change:
      change !== null && contract.amount_change_by !== null
        ? {
            amount_cents: change,
            fee_cents: feeOf(change, feeBps),
            net_cents: change - feeOf(change, feeBps),
            by: contract.amount_change_by,
            from_month: nextOne,
          }
        : null,
    can_change_amount: mayEnd(contract) && contract.amount_change_by === null,
    can_accept_amount: mayEnd(contract) && contract.amount_change_by !== null && contract.amount_change_by !== party,
    ends_from: contract.paused_from,
    can_end: mayEnd(contract),
    months: rows.map((r) =>
      toMonthJson(
        {
          id: r.month_id,
          contract_id: id,
          month: r.month,
          starts_on: r.starts_on,
          milestone_id: r.id,
          created_at: r.month_created_at,
        },
        r,
        contract.monthly_day,
      ),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Moves

/**
 * An ended contract (paused_from set) is completed once no month is left to fund, work or
 * review: at once, or when its last month lapses (its last approval completes it: contracts.server.ts).
 */
async function completeIfDone(trx: Kysely<Database>, contractId: string, by: ContractParty | "system", at: string) {
  const pending = await trx
    .selectFrom("milestones")
    .select("id")
    .where("contract_id", "=", contractId)
    .where("status", "in", ["awaiting_funding", "funded", "delivered"])
    .limit(1)
    .executeTakeFirst();
  if (pending) return;
  await completeEndedContract(trx, contractId, by, at);
}

/**
 * A month that will not start: its milestone, still waiting for its money, is cancelled and a
 * charge still pending withdrawn (a Pix arriving for it anyway becomes a refund due, as for any
 * cancelled milestone). The milestone's conditional UPDATE is where it meets its funding: one wins.
 */
async function dropMonth(trx: Kysely<Database>, milestoneId: string, stamp: string) {
  const cancelled = await trx
    .updateTable("milestones")
    .set({ status: "cancelled", settled_at: stamp, updated_at: stamp })
    .where("id", "=", milestoneId)
    .where("status", "=", "awaiting_funding")
    .executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) === 0) throw new AppError(409, "month_changed");
  await trx
    .updateTable("pix_charges")
    .set({ status: "superseded" })
    .where("milestone_id", "=", milestoneId)
    .where("status", "=", "pending")
    .execute();
}

/**
 * Either side ends the contract from the next month: no month opens after the latest one; a month
 * still waiting for its money is dropped; a funded month runs to its end and is delivered and
 * approved as any other. The contract is completed when no month is left (completeIfDone).
 */
export async function endMonthlyContract(user: UserRow, id: string): Promise<MonthsJson> {
  await consumeWrite(user.id);
  await transaction(async (trx) => {
    const { contract, party } = await monthlyFor(trx, user, id);
    if (!mayEnd(contract)) throw new AppError(409, "contract_action_unavailable");
    const stamp = new Date().toISOString();
    const months = await trx
      .selectFrom("contract_months")
      .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
      .select(["contract_months.month", "milestones.id", "milestones.status"])
      .where("contract_months.contract_id", "=", id)
      .orderBy("contract_months.month")
      .execute();
    const waiting = months.filter((m) => m.status === "awaiting_funding");
    // The first month not worked: the first still waiting for its money (dropped below), else the
    // one after the latest.
    const cut = waiting[0]?.month ?? nextMonth(months.at(-1)!.month);
    // The contract's row first (a month opened at the same moment holds it until it commits, and
    // fails this WHERE through milestones_count), then the months in hand.
    const held = await trx
      .updateTable("contracts")
      .set({ paused_from: cut, updated_at: stamp })
      .where("id", "=", id)
      .where("status", "in", ["in_progress", "delivered"])
      .where("paused_from", "is", null)
      .where("disputed_at", "is", null)
      .where("milestones_count", "=", contract.milestones_count)
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
    for (const m of waiting) await dropMonth(trx, m.id, stamp);
    await completeIfDone(trx, id, party, stamp);
    await publishContractMove(trx, id);
  });
  // No month opens any more: Pix Automático, if authorised, is cancelled at the provider.
  await endContractRecurrence(id);
  return listMonths(user, id);
}

// ---------------------------------------------------------------------------------------------
// The month's amount

/**
 * One side proposes a new monthly amount (a proposal's bounds; not the amount it is now): it
 * waits for the other side, one change at a time (409 `amount_change_pending`), on a contract
 * that goes on (in progress or delivered, not ended, not disputed). The other side is notified.
 */
export async function proposeAmount(user: UserRow, id: string, input: unknown): Promise<MonthsJson> {
  await consumeWrite(user.id);
  const { amount_cents } = parseInput(monthlyAmountInputSchema, input);
  await transaction(async (trx) => {
    const { contract, party } = await monthlyFor(trx, user, id);
    if (!mayEnd(contract)) throw new AppError(409, "contract_action_unavailable");
    if (contract.amount_change_by !== null) throw new AppError(409, "amount_change_pending");
    if (amount_cents === contract.price_cents) {
      throw new AppError(422, "validation_failed", { amount_cents: "amount_unchanged" });
    }
    const stamp = now();
    const proposed = await trx
      .updateTable("contracts")
      .set({ amount_change_cents: amount_cents, amount_change_by: party, updated_at: stamp })
      .where("id", "=", id)
      .where("status", "in", ["in_progress", "delivered"])
      .where("paused_from", "is", null)
      .where("disputed_at", "is", null)
      .where("amount_change_by", "is", null)
      .executeTakeFirst();
    if (Number(proposed.numUpdatedRows) === 0) throw new AppError(409, "amount_change_pending");
    await notify(trx, {
      user_id: party === "merchant" ? contract.freelancer_id : contract.merchant_id,
      kind: "contract_amount_proposed",
      application_id: id,
      opportunity_id: contract.opportunity_id,
    });
    await publishContractMove(trx, id);
  });
  return listMonths(user, id);
}

/**
 * The change proposed is answered: accepted by the other side, it becomes the contract's amount
 * (price_cents), which the next month to open takes (a month opened keeps its own: its charge was
 * issued); refused by the other side, or withdrawn by the side that proposed it, it is dropped.
 * A conditional UPDATE on the change read: of two answers at once one wins, the other is a 409.
 * The proposer is told of an answer. Pix Automático authorised for another amount is cancelled at
 * once (its amount is fixed at the payer's bank: the merchant authorises the new one).
 */
export async function answerAmount(user: UserRow, id: string, accept: boolean): Promise<MonthsJson> {
  await consumeWrite(user.id);
  const accepted = await transaction(async (trx) => {
    const { contract, party } = await monthlyFor(trx, user, id);
    const by = contract.amount_change_by;
    const cents = contract.amount_change_cents;
    if (by === null || cents === null) throw new AppError(409, "amount_change_none");
    if (accept && by === party) throw new AppError(403, "amount_change_own");
    if (accept && !mayEnd(contract)) throw new AppError(409, "contract_action_unavailable");
    const stamp = now();
    let change = trx
      .updateTable("contracts")
      .set({
        ...(accept ? { price_cents: cents } : {}),
        amount_change_cents: null,
        amount_change_by: null,
        updated_at: stamp,
      })
      .where("id", "=", id)
      .where("amount_change_by", "=", by)
      .where("amount_change_cents", "=", cents);
    if (accept) {
      change = change
        .where("status", "in", ["in_progress", "delivered"])
        .where("paused_from", "is", null)
        .where("disputed_at", "is", null);
    }
    const moved = await change.executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new AppError(409, "amount_change_none");
    // A withdrawal tells nobody: the other side's page no longer offers an answer.
    if (by !== party) {
      await notify(trx, {
        user_id: by === "merchant" ? contract.merchant_id : contract.freelancer_id,
        kind: accept ? "contract_amount_accepted" : "contract_amount_declined",
        application_id: id,
        opportunity_id: contract.opportunity_id,
      });
    }
    await publishContractMove(trx, id);
    return accept ? cents : null;
  });
  if (accepted !== null) await endContractRecurrence(id, accepted);
  return listMonths(user, id);
}

// ---------------------------------------------------------------------------------------------
// The schedule (run with the contracts' schedule by every server process)

export type MonthlyScheduleResult = { opened: number; lapsed: number };

/**
 * Opens the month after the contract's latest (or the one running today, if that is later) once
 * it is OPEN_AHEAD_DAYS from its start; none once the contract was ended before it, is disputed
 * or over. The contract's row decides, by a conditional UPDATE of milestones_count from the value
 * read: of two servers opening the same month one counts it and inserts it, the other updates
 * nothing (and the unique (contract, month) backs this up).
 */
async function openNextMonth(trx: Kysely<Database>, contractId: string, today: string, stamp: string) {
  const contract = (await trx
    .selectFrom("contracts")
    .selectAll()
    .where("id", "=", contractId)
    .executeTakeFirstOrThrow()) as MonthlyContract;
  const latest = await trx
    .selectFrom("contract_months")
    .select("month")
    .where("contract_id", "=", contractId)
    .orderBy("month", "desc")
    .limit(1)
    .executeTakeFirst();
  const next = nextToOpen(latest?.month, today, contract.monthly_day);
  if (addDays(monthStart(next, contract.monthly_day), -OPEN_AHEAD_DAYS) > today) return false;
  // The amount read is the month's: a change accepted meanwhile fails this WHERE (the month opens
  // on the next run, with the new amount), one accepted after it waits for this to commit.
  const counted = await trx
    .updateTable("contracts")
    .set({ milestones_count: sql<number>`milestones_count + 1`, updated_at: stamp })
    .where("id", "=", contractId)
    .where("milestones_count", "=", contract.milestones_count)
    .where("price_cents", "=", contract.price_cents)
    .where("status", "in", ["in_progress", "delivered"])
    .where("disputed_at", "is", null)
    .where((eb) => eb.or([eb("paused_from", "is", null), eb("paused_from", ">", next)]))
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) === 0) return false;
  const last = await trx
    .selectFrom("milestones")
    .select((eb) => eb.fn.max<number>("seq").as("seq"))
    .where("contract_id", "=", contractId)
    .executeTakeFirst();
  await insertMonth(trx, contract, next, Number(last?.seq ?? 0) + 1, stamp);
  await publishContractMove(trx, contractId);
  return true;
}

/**
 * Opens the months due to open (OPEN_AHEAD_DAYS before their start) and lapses the months still
 * waiting for their money LAPSE_DAYS after it. Each contract or month in a transaction of its own.
 */
export async function runMonthlySchedule(at = new Date()): Promise<MonthlyScheduleResult> {
  const today = dayInSaoPaulo(at);
  const stamp = at.toISOString();
  // A superset (a month lasts 28 days or more): the exact test is openNextMonth's.
  const candidates = await db
    .selectFrom("contracts")
    .select("contracts.id")
    .where("contracts.kind", "=", "monthly")
    .where("contracts.status", "in", ["in_progress", "delivered"])
    .where("contracts.paused_from", "is", null)
    .where("contracts.disputed_at", "is", null)
    .where((eb) =>
      eb(
        eb
          .selectFrom("contract_months")
          .select((m) => m.fn.max<string>("starts_on").as("s"))
          .whereRef("contract_months.contract_id", "=", "contracts.id"),
        "<=",
        addDays(today, OPEN_AHEAD_DAYS - 28),
      ),
    )
    .limit(SCHEDULE_BATCH)
    .execute();
  let opened = 0;
  for (const { id } of candidates) {
    if (await transaction((trx) => openNextMonth(trx, id, today, stamp))) opened++;
  }

  const due = await db
    .selectFrom("contract_months")
    .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
    .select(["contract_months.contract_id", "contract_months.milestone_id"])
    .where("milestones.status", "=", "awaiting_funding")
    .where("contract_months.starts_on", "<=", addDays(today, -LAPSE_DAYS))
    .limit(SCHEDULE_BATCH)
    .execute();
  let lapsed = 0;
  for (const month of due) {
    try {
      await transaction(async (trx) => {
        await dropMonth(trx, month.milestone_id, stamp);
        await completeIfDone(trx, month.contract_id, "system", stamp);
        await publishContractMove(trx, month.contract_id);
      });
      lapsed++;
    } catch (error) {
      if (!(error instanceof AppError && error.status === 409)) throw error;
    }
  }
  return { opened, lapsed };
}

/** Either side ends an hourly contract (the week in hand is the last) or a monthly one (from the next month). */
export async function endContract(user: UserRow, id: string) {
  const kind = await db.selectFrom("contracts").select("kind").where("id", "=", id).executeTakeFirst();
  if (kind?.kind === "monthly") return { data: await endMonthlyContract(user, id), message: "monthly_contract_ended" };
  return { data: await endHourlyContract(user, id), message: "hourly_contract_ended" };
}
