import { randomUUID } from "node:crypto";
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { db, transaction } from "../../../db";
import { insertWeek } from "../../../db/contracts";
import { lockContract } from "../../../db/dialect";
import type {
  ContractEventKind,
  ContractParty,
  ContractRow,
  ContractWeekRow,
  Database,
  MilestoneRow,
  NotificationKind,
  TimeEntryRow,
  UserRow,
} from "../../../db/schema";
import { feeOf } from "~/lib/fees";
import {
  DAY_MINUTES,
  entryAnswerSchema,
  entryQuestionsSchema,
  timeEntryInputSchema,
  keepUnusedSchema,
  weeklyCapChangeSchema,
} from "~/lib/work-schemas";
import { addDays, autoSubmitAt, dayInSaoPaulo, daysOfWeek, saoPauloInstant, weekStartOf } from "~/lib/work-weeks";
import { notify } from "../messaging/notifications.server";
import { carryUnused, refundCarried, refundMilestone, releaseMilestone } from "../payments/escrow.server";
import { csvText, reais } from "../payments/finance.server";
import {
  entryFileJson,
  entryInput,
  fileColumns,
  releaseEntryFile,
  reserveEntryFile,
  withEntryFile,
  type EntryFileJson,
} from "./entry-files.server";
import { insertEvent } from "./timeline.server";
import { AppError, parseInput } from "../platform/errors.server";
import { publishContractMove } from "../platform/events.server";
import { asParty } from "../platform/participants.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId } from "../platform/records.server";
import type { SavedAttachment } from "../platform/uploads.server";
import { stateMachine } from "../platform/state-machine.server";

// Hourly contracts (docs/payments.md, "Contratos por hora"): the work goes week by week, Monday to
// Sunday in São Paulo. Each week's money is a milestone of rate × cap, funded by the same Pix
// charges as any milestone; once it is held the week is open and the freelancer logs time in it.
//
//   awaiting_funding ──Pix received──▶ open ──submit (or Monday 12:00)──▶ submitted ──approve (or 5 days)──▶ approved
//          └──its Monday 12:00 passes unfunded──▶ lapsed          question ▲│▼ every question answered or amended
//                                                                        questioned (never approved by the schedule)
//
// Submitting a week (or its lapse) opens the next one, waiting for its money, so the merchant
// funds a week while the last is reviewed. Approval releases floor(minutes × rate / 60), less the
// fee, to the freelancer and refunds the rest of the week's money (releaseMilestone, one rounding).
// Every move is a conditional UPDATE of the week's row, which every entry of the week also goes
// through (the cap is in its WHERE): of two racing requests one wins and the other answers 409
// (or 422 past the cap), on SQLite as on PostgreSQL.

/** Days a submitted week waits for the merchant before it is approved by the schedule. */
export const WEEK_REVIEW_DAYS = 5;
const DAY_MS = 86_400_000;
const SCHEDULE_BATCH = 200;
/**
 * A run of the schedule takes batch after batch while the last one was full and it has run for
 * less than this: 10 000 weeks due on a Monday go in one or two runs, and a run still ends well
 * before the next (every CONTRACT_SCHEDULE_SECONDS, 60 by default).
 */
const SCHEDULE_BUDGET_MS = 20_000;

export type WeekAction = "log_time" | "submit" | "approve" | "question" | "answer" | "dispute";

type WeekState = Pick<ContractWeekRow, "status"> & { contract_status: ContractRow["status"]; disputed: boolean };

/** No week moves while a dispute of the contract is open: an operator decides (disputes.server.ts). */
const notDisputed = [(w: WeekState) => !w.disputed, 409, "contract_disputed"] as const;
const inProgress = [(w: WeekState) => w.contract_status === "in_progress", 409, "contract_action_unavailable"] as const;
const funded = [(w: WeekState) => w.status !== "awaiting_funding", 409, "week_not_funded"] as const;
const open = [(w: WeekState) => w.status === "open", 409, "week_not_open"] as const;

/** Who may do what to a week, and when; a move by the wrong side is 403. */
const WEEK = stateMachine<WeekAction, WeekState, ContractParty>(
  {
    log_time: { by: "freelancer", checks: [notDisputed, inProgress, funded, open] },
    submit: { by: "freelancer", checks: [notDisputed, inProgress, funded, open] },
    approve: { by: "merchant", checks: [notDisputed, [(w) => w.status === "submitted", 409, "week_not_submitted"]] },
    // Questions while the week waits for review, more of them while it is questioned.
    question: {
      by: "merchant",
      checks: [notDisputed, [(w) => w.status === "submitted" || w.status === "questioned", 409, "week_not_submitted"]],
    },
    answer: { by: "freelancer", checks: [notDisputed, [(w) => w.status === "questioned", 409, "week_not_questioned"]] },
    // A questioned week that the two sides do not settle goes to an operator (either side).
    dispute: {
      checks: [notDisputed, inProgress, [(w) => w.status === "questioned", 409, "week_not_questioned"]],
    },
  },
  { wrongSide: [403, "forbidden_role"] },
);

// ---------------------------------------------------------------------------------------------
// JSON

export type TimeEntryJson = {
  id: string;
  day: string;
  minutes: number;
  description: string;
  /** The merchant's question on the entry, the freelancer's answer, and when it was settled. */
  question: string | null;
  answer: string | null;
  answered_at: string | null;
  /** The question waits for the freelancer (an answer or an amendment settles it). */
  question_open: boolean;
  /** The entry's optional file (entry-files.server.ts), served to both sides at its url. */
  file: EntryFileJson | null;
  created_at: string;
  updated_at: string;
};

export type WeekMoneyJson = {
  /** The week's money as funded: rate × cap (with payments held in escrow once paid). */
  amount_cents: number;
  /** What approval releases for the minutes logged: floor(minutes × rate / 60). */
  released_cents: number;
  /** The platform's fee on the released part, and what the freelancer receives. */
  fee_cents: number;
  net_cents: number;
  /** What goes back to the merchant (the funded money not used, less what was kept); 0 without payments. */
  refunded_cents: number;
  /** The unused money passed on to the next week (the merchant keeps it: hourly_keep_unused). */
  kept_cents: number;
  /** What the week holds kept from an earlier one (the Monday it came from), before its Pix. */
  carried_in_cents: number;
  carried_from: string | null;
  /** What the merchant still pays for it: amount_cents less carried_in_cents. */
  due_cents: number;
};

/** The money a week holds from an earlier one and passed on to a later one (migration 067). */
export type WeekCarry = { carried_in_cents: number; carried_out_cents: number; carried_from: string | null };

export type WeekJson = {
  id: string;
  /** Monday and Sunday, São Paulo dates. */
  week_start: string;
  week_end: string;
  days: string[];
  status: ContractWeekRow["status"];
  rate_cents: number;
  cap_minutes: number;
  minutes_total: number;
  milestone_id: string;
  money: WeekMoneyJson;
  submitted_at: string | null;
  submitted_by: ContractWeekRow["submitted_by"];
  /** When a submitted week left unanswered is approved by the schedule (none while questioned). */
  review_due_at: string | null;
  /** Entries whose question waits for the freelancer. */
  open_questions: number;
  /** When an open week is submitted by the schedule (the next Monday, 12:00 São Paulo). */
  auto_submit_at: string;
  approved_at: string | null;
  approved_by: ContractWeekRow["approved_by"];
  allowed_actions: WeekAction[];
};

export type WeekDetailJson = WeekJson & { entries: TimeEntryJson[] };

type HourlyContract = ContractRow & { kind: "hourly"; rate_cents: number; weekly_cap_minutes: number };

/** The money of `minutes` at the week's frozen rate, with the contract's frozen fee: one rounding, down. */
export function weekMoney(
  week: Pick<ContractWeekRow, "rate_cents" | "cap_minutes">,
  minutes: number,
  contract: Pick<ContractRow, "payments" | "fee_bps">,
  carry: WeekCarry = { carried_in_cents: 0, carried_out_cents: 0, carried_from: null },
): WeekMoneyJson {
  const amount = Math.floor((week.rate_cents * week.cap_minutes) / 60);
  const released = Math.floor((minutes * week.rate_cents) / 60);
  const fee = feeOf(released, contract.fee_bps);
  const escrow = contract.payments === "escrow";
  return {
    amount_cents: amount,
    released_cents: released,
    fee_cents: fee,
    net_cents: released - fee,
    refunded_cents: escrow ? amount - released - carry.carried_out_cents : 0,
    kept_cents: escrow ? carry.carried_out_cents : 0,
    carried_in_cents: escrow ? carry.carried_in_cents : 0,
    carried_from: escrow && carry.carried_in_cents > 0 ? carry.carried_from : null,
    due_cents: escrow ? amount - carry.carried_in_cents : amount,
  };
}

/** The week's milestone as settled (read with the week): what its approval or a decision moved. */
type Settled = {
  m_status: MilestoneRow["status"];
  m_released: number;
  m_fee: number;
  m_refunded: number;
  m_carried_in: number;
  m_carried_out: number;
};

/**
 * The money of the week: what its minutes say, or, once its milestone is settled with payments,
 * what was moved (the same for an approval; a dispute's decision may have refunded or split it).
 */
function moneyOf(week: ContractWeekRow, contract: HourlyContract, settled?: Settled): WeekMoneyJson {
  const carry = {
    carried_in_cents: settled?.m_carried_in ?? 0,
    carried_out_cents: settled?.m_carried_out ?? 0,
    carried_from: week.carried_from,
  };
  const money = weekMoney(week, week.minutes_total, contract, carry);
  if (contract.payments !== "escrow" || !settled || !["released", "refunded"].includes(settled.m_status)) return money;
  return {
    ...money,
    released_cents: settled.m_released,
    fee_cents: settled.m_fee,
    net_cents: settled.m_released - settled.m_fee,
    refunded_cents: settled.m_refunded,
  };
}

/** The milestone's settlement, selected with the week (one statement). */
const SETTLED = [
  "m.status as m_status",
  "m.released_cents as m_released",
  "m.fee_cents as m_fee",
  "m.refunded_cents as m_refunded",
  "m.carried_in_cents as m_carried_in",
  "m.carried_out_cents as m_carried_out",
] as const;

function toWeekJson(
  week: ContractWeekRow & Partial<Settled>,
  contract: HourlyContract,
  party: ContractParty | null,
  openQuestions = 0,
): WeekJson {
  return {
    id: week.id,
    week_start: week.week_start,
    week_end: addDays(week.week_start, 6),
    days: daysOfWeek(week.week_start),
    status: week.status,
    rate_cents: week.rate_cents,
    cap_minutes: week.cap_minutes,
    minutes_total: week.minutes_total,
    milestone_id: week.milestone_id,
    money: moneyOf(week, contract, week.m_status === undefined ? undefined : (week as Settled)),
    submitted_at: week.submitted_at,
    submitted_by: week.submitted_by,
    review_due_at: week.review_due_at,
    open_questions: openQuestions,
    auto_submit_at: autoSubmitAt(week.week_start).toISOString(),
    approved_at: week.approved_at,
    approved_by: week.approved_by,
    allowed_actions: WEEK.allowed(stateOf(contract, week), party),
  };
}

const toEntryJson = (e: TimeEntryRow): TimeEntryJson => ({
  id: e.id,
  day: e.day,
  minutes: e.minutes,
  description: e.description,
  question: e.question,
  answer: e.answer,
  answered_at: e.answered_at,
  question_open: isOpen(e),
  file: entryFileJson(e),
  created_at: e.created_at,
  updated_at: e.updated_at,
});

/** An entry's question waits for the freelancer. */
const isOpen = (e: Pick<TimeEntryRow, "question" | "answered_at">) => e.question !== null && e.answered_at === null;

const stateOf = (
  contract: Pick<ContractRow, "status" | "disputed_at">,
  week: Pick<ContractWeekRow, "status">,
): WeekState => ({
  status: week.status,
  contract_status: contract.status,
  disputed: contract.disputed_at !== null,
});

// ---------------------------------------------------------------------------------------------
// Reading

/** The hourly contract, for one of its two sides (404 for anyone else; 409 for a fixed contract). */
async function hourlyFor(database: Kysely<Database>, user: Pick<UserRow, "id">, id: string) {
  const { row, party } = await asParty(user, id, (id) =>
    database.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst(),
  );
  if (row.kind !== "hourly" || row.rate_cents === null || row.weekly_cap_minutes === null) {
    throw new AppError(409, "contract_not_hourly");
  }
  return { contract: row as HourlyContract, party };
}

/** A week named by its Monday; anything else names no week (404). */
function assertWeekStart(weekStart: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(weekStart) || weekStartOf(weekStart) !== weekStart) {
    throw new AppError(404, "not_found");
  }
}

async function weekFor(database: Kysely<Database>, user: Pick<UserRow, "id">, id: string, weekStart: string) {
  const { contract, party } = await hourlyFor(database, user, id);
  assertWeekStart(weekStart);
  const week = await database
    .selectFrom("contract_weeks")
    .innerJoin("milestones as m", "m.id", "contract_weeks.milestone_id")
    .selectAll("contract_weeks")
    .select(SETTLED)
    .where("contract_weeks.contract_id", "=", id)
    .where("week_start", "=", weekStart)
    .executeTakeFirst();
  if (!week) throw new AppError(404, "not_found");
  return { contract, party, week };
}

/** The contract's weeks, newest first, each with its money and the moves open to the user. */
export async function listWeeks(user: UserRow, id: string): Promise<WeekJson[]> {
  const { contract, party } = await hourlyFor(db, user, id);
  // Each week with the count of its open questions, in the same statement.
  const weeks = await db
    .selectFrom("contract_weeks")
    .innerJoin("milestones as m", "m.id", "contract_weeks.milestone_id")
    .selectAll("contract_weeks")
    .select(SETTLED)
    .select((eb) =>
      eb
        .selectFrom("time_entries")
        .select((sub) => sub.fn.countAll<number>().as("n"))
        .whereRef("time_entries.week_id", "=", "contract_weeks.id")
        .where("time_entries.question", "is not", null)
        .where("time_entries.answered_at", "is", null)
        .as("open_questions"),
    )
    .where("contract_weeks.contract_id", "=", id)
    .orderBy("week_start", "desc")
    .execute();
  return weeks.map(({ open_questions, ...w }) => toWeekJson(w, contract, party, Number(open_questions ?? 0)));
}

/** One week with its entries (by day, oldest first). */
export async function getWeek(user: UserRow, id: string, weekStart: string): Promise<WeekDetailJson> {
  const { contract, party, week } = await weekFor(db, user, id, weekStart);
  const entries = await db
    .selectFrom("time_entries")
    .selectAll()
    .where("week_id", "=", week.id)
    .orderBy("day")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const open = entries.filter(isOpen).length;
  return { ...toWeekJson(week, contract, party, open), entries: entries.map(toEntryJson) };
}

/**
 * A week's entries as CSV (semicolons, UTF-8 with a BOM, as the statement's): day, minutes, hours
 * (decimal comma), description; then the week's total and its money.
 */
export async function weekCsv(user: UserRow, id: string, weekStart: string): Promise<string> {
  const week = await getWeek(user, id, weekStart);
  const hours = (minutes: number) => (minutes / 60).toFixed(2).replace(".", ",");
  return csvText([
    ["dia", "minutos", "horas", "descrição"],
    ...week.entries.map((e) => [e.day, e.minutes, hours(e.minutes), e.description]),
    ["total", week.minutes_total, hours(week.minutes_total), ""],
    ["valor da hora", "", reais(week.rate_cents), ""],
    ["liberado ao aprovar", "", reais(week.money.released_cents), ""],
    ["taxa", "", reais(week.money.fee_cents), ""],
    ["freelancer recebe", "", reais(week.money.net_cents), ""],
    ["devolvido ao contratante", "", reais(week.money.refunded_cents), ""],
    ...(week.money.kept_cents > 0 ? [["guardado para a semana seguinte", "", reais(week.money.kept_cents), ""]] : []),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Time entries (the freelancer, in an open week)

/** A day of the week and not after today in São Paulo (422 on the field otherwise). */
function assertDay(week: Pick<ContractWeekRow, "week_start">, day: string, at: Date) {
  if (!daysOfWeek(week.week_start).includes(day)) {
    throw new AppError(422, "validation_failed", { day: "entry_day_outside_week" });
  }
  if (day > dayInSaoPaulo(at)) throw new AppError(422, "validation_failed", { day: "entry_day_future" });
}

/**
 * Adds `delta` minutes to the week's total while it is open and stays within the cap: one
 * conditional UPDATE, which also holds the week's row until the entry is written, so entries
 * written at once are counted one after the other and never pass the cap together.
 */
async function addMinutes(
  trx: Kysely<Database>,
  week: Pick<ContractWeekRow, "id">,
  delta: number,
  at: string,
  status: "open" | "questioned" = "open",
) {
  const updated = await trx
    .updateTable("contract_weeks")
    .set({ minutes_total: sql<number>`minutes_total + ${delta}`, updated_at: at })
    .where("id", "=", week.id)
    .where("status", "=", status)
    .where(sql<boolean>`minutes_total + ${delta} <= cap_minutes`)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  const now = await trx
    .selectFrom("contract_weeks")
    .select(["status", "minutes_total", "cap_minutes"])
    .where("id", "=", week.id)
    .executeTakeFirstOrThrow();
  if (now.status !== status) throw new AppError(409, "week_changed");
  throw new AppError(
    422,
    "validation_failed",
    { minutes: "entry_over_cap" },
    { left: Math.max(0, now.cap_minutes - now.minutes_total) },
  );
}

/** No day holds more than 24 hours: its entries (but `except`, being replaced) plus `minutes`. */
async function assertDayTotal(trx: Kysely<Database>, weekId: string, day: string, minutes: number, except?: string) {
  const row = await trx
    .selectFrom("time_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("minutes"), eb.lit(0)).as("total"))
    .where("week_id", "=", weekId)
    .where("day", "=", day)
    .$if(except !== undefined, (qb) => qb.where("id", "!=", except!))
    .executeTakeFirstOrThrow();
  if (Number(row.total) + minutes > DAY_MINUTES) {
    throw new AppError(422, "validation_failed", { minutes: "entry_over_day" });
  }
}

/**
 * The freelancer logs time in an open week, with an optional file (entry-files.server.ts): 201
 * with the entry. Who may log is known before the file is stored.
 */
export async function logEntry(
  user: UserRow,
  id: string,
  weekStart: string,
  input: unknown,
  file: Blob | null = null,
): Promise<TimeEntryJson> {
  await consumeWrite(user.id);
  const data = await entryInput(input, file);
  return withEntryFile(
    file,
    () => mayLog(db, user, id, weekStart),
    (saved) => writeEntry(user, id, weekStart, data, saved),
  );
}

async function mayLog(database: Kysely<Database>, user: UserRow, id: string, weekStart: string) {
  const { contract, party, week } = await weekFor(database, user, id, weekStart);
  WEEK.assert("log_time", stateOf(contract, week), party);
  return week;
}

async function writeEntry(
  user: UserRow,
  id: string,
  weekStart: string,
  data: Awaited<ReturnType<typeof entryInput>>,
  saved: SavedAttachment | null,
) {
  return transaction(async (trx) => {
    const week = await mayLog(trx, user, id, weekStart);
    const at = new Date();
    assertDay(week, data.day, at);
    const stamp = at.toISOString();
    await addMinutes(trx, week, data.minutes, stamp);
    await assertDayTotal(trx, week.id, data.day, data.minutes);
    const entry: TimeEntryRow = {
      id: randomUUID(),
      week_id: week.id,
      contract_id: id,
      day: data.day,
      minutes: data.minutes,
      description: data.description,
      question: null,
      answer: null,
      answered_at: null,
      ...fileColumns(saved),
      created_at: stamp,
      updated_at: stamp,
    };
    await reserveEntryFile(trx, user.id, saved);
    await trx.insertInto("time_entries").values(entry).execute();
    await publishContractMove(trx, id);
    return toEntryJson(entry);
  });
}

/** An entry of the contract and its week, for one of its sides (404 for anything else). */
async function entryFor(trx: Kysely<Database>, user: UserRow, id: string, entryId: string) {
  const { contract, party } = await hourlyFor(trx, user, id);
  assertId(entryId);
  const entry = await trx
    .selectFrom("time_entries")
    .selectAll()
    .where("id", "=", entryId)
    .where("contract_id", "=", id)
    .executeTakeFirst();
  if (!entry) throw new AppError(404, "not_found");
  const week = await trx
    .selectFrom("contract_weeks")
    .selectAll()
    .where("id", "=", entry.week_id)
    .executeTakeFirstOrThrow();
  return { contract, party, entry, week };
}

/** The entry is still as read (else 409): the WHERE of its change. */
const unchanged = (entry: TimeEntryRow) => (eb: ExpressionBuilder<Database, "time_entries">) =>
  eb.and([eb("id", "=", entry.id), eb("minutes", "=", entry.minutes), eb("updated_at", "=", entry.updated_at)]);

/**
 * The freelancer changes an entry (day, minutes, description) while its week is open; in a
 * questioned week, amends a questioned entry instead (amendEntry).
 */
export async function editEntry(user: UserRow, id: string, entryId: string, input: unknown): Promise<TimeEntryJson> {
  await consumeWrite(user.id);
  const data = parseInput(timeEntryInputSchema, input);
  return transaction(async (trx) => {
    const { contract, party, entry, week } = await entryFor(trx, user, id, entryId);
    if (week.status === "questioned") return amendEntry(trx, contract, party, entry, week, data);
    WEEK.assert("log_time", stateOf(contract, week), party);
    const at = new Date();
    assertDay(week, data.day, at);
    const stamp = at.toISOString();
    await addMinutes(trx, week, data.minutes - entry.minutes, stamp);
    await assertDayTotal(trx, week.id, data.day, data.minutes, entry.id);
    const changed = await trx
      .updateTable("time_entries")
      .set({ day: data.day, minutes: data.minutes, description: data.description, updated_at: stamp })
      .where(unchanged(entry))
      .returningAll()
      .executeTakeFirst();
    if (!changed) throw new AppError(409, "entry_changed");
    await publishContractMove(trx, id);
    return toEntryJson(changed);
  });
}

/** The freelancer removes an entry while its week is open, with its file (its bytes back to the quota). */
export async function deleteEntry(user: UserRow, id: string, entryId: string): Promise<void> {
  await consumeWrite(user.id);
  await transaction(async (trx) => {
    const { contract, party, entry, week } = await entryFor(trx, user, id, entryId);
    WEEK.assert("log_time", stateOf(contract, week), party);
    await addMinutes(trx, week, -entry.minutes, new Date().toISOString());
    const removed = await trx.deleteFrom("time_entries").where(unchanged(entry)).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new AppError(409, "entry_changed");
    await releaseEntryFile(trx, user.id, entry);
    await publishContractMove(trx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// Questions on a submitted week's entries (the merchant asks, the freelancer answers or amends)
//
// Questioning moves the week to `questioned` and stops its review clock (review_due_at is
// cleared): the schedule approves only submitted weeks. Each answer or amendment settles its
// entry's question; the one that settles the last moves the week back to `submitted` with a new
// review of 5 days (the clock restarts). The merchant approves only a week with every question
// settled, and may question again meanwhile. Every change first updates the week's row in a
// conditional UPDATE (its status in the WHERE), which holds the row until the transaction ends:
// of two racing moves one wins and the other answers 409, and the count of questions left is
// read after the last answer that came before it.

/** The merchant questions entries of a submitted (or questioned) week, each with its reason: the week detail. */
export async function questionEntries(
  user: UserRow,
  id: string,
  weekStart: string,
  input: unknown,
): Promise<WeekDetailJson> {
  await consumeWrite(user.id);
  const data = parseInput(entryQuestionsSchema, input);
  await transaction(async (trx) => {
    const { contract, party, week } = await weekFor(trx, user, id, weekStart);
    WEEK.assert("question", stateOf(contract, week), party);
    const stamp = new Date().toISOString();
    const moved = await trx
      .updateTable("contract_weeks")
      .set({ status: "questioned", review_due_at: null, updated_at: stamp })
      .where("id", "=", week.id)
      .where("status", "in", ["submitted", "questioned"])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new AppError(409, "week_changed");
    await assertUndisputed(trx, id);
    const ids = data.entries.map((e) => e.id);
    const found = await trx
      .selectFrom("time_entries")
      .select("id")
      .where("week_id", "=", week.id)
      .where("id", "in", ids)
      .execute();
    if (found.length !== ids.length) {
      throw new AppError(422, "validation_failed", { entries: "entry_question_entry" });
    }
    for (const e of data.entries) {
      await trx
        .updateTable("time_entries")
        .set({ question: e.reason, answer: null, answered_at: null, updated_at: stamp })
        .where("id", "=", e.id)
        .execute();
    }
    await tell(trx, contract, party, stamp, {
      event: "week_questioned",
      notice: "contract_week_questioned",
      to: ["freelancer"],
      message: await titleOf(trx, week),
    });
    await publishContractMove(trx, id);
  });
  return getWeek(user, id, weekStart);
}

/** The Monday of the contract's newest week, or null before its first. */
async function newestWeek(trx: Kysely<Database>, id: string): Promise<string | null> {
  const row = await trx
    .selectFrom("contract_weeks")
    .select((eb) => eb.fn.max("week_start").as("week_start"))
    .where("contract_id", "=", id)
    .executeTakeFirst();
  return row?.week_start ? String(row.week_start) : null;
}

/** The first week not opened yet: the one after the newest, or the current one if that is later. */
function firstUnopened(newest: string | null, at: Date): string {
  const current = weekStartOf(dayInSaoPaulo(at));
  return newest ? [addDays(newest, 7), current].sort().at(-1)! : current;
}

/**
 * Holds the contract's row for this transaction while it runs (in progress, not ended, no dispute
 * open; `unpaused`: not paused either), else 409: the precondition of ending and pausing.
 */
async function holdRunning(trx: Kysely<Database>, id: string, stamp: string, { unpaused = false } = {}) {
  const held = await trx
    .updateTable("contracts")
    .set({ updated_at: stamp })
    .where("id", "=", id)
    .where("status", "=", "in_progress")
    .where("paused_from", "is", null)
    .$if(unpaused, (qb) => qb.where("hourly_paused_from", "is", null))
    .where("disputed_at", "is", null)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
}

/**
 * The week's row, held for this transaction while it is questioned (else 409: it moved); then no
 * dispute of the contract may be open (else 409): a dispute holds the week's row before it marks
 * the contract (openDispute), so either it came first and is seen here, or it waits for this move.
 */
async function holdQuestioned(trx: Kysely<Database>, week: Pick<ContractWeekRow, "id" | "contract_id">, stamp: string) {
  await lockQuestioned(trx, week, stamp);
  await assertUndisputed(trx, week.contract_id);
}

async function lockQuestioned(trx: Kysely<Database>, week: Pick<ContractWeekRow, "id">, stamp: string) {
  const held = await trx
    .updateTable("contract_weeks")
    .set({ updated_at: stamp })
    .where("id", "=", week.id)
    .where("status", "=", "questioned")
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) === 0) throw new AppError(409, "week_changed");
}

/** No dispute of the contract is open (read after the week's row is held), else 409. */
async function assertUndisputed(trx: Kysely<Database>, contractId: string) {
  const row = await trx
    .selectFrom("contracts")
    .select("disputed_at")
    .where("id", "=", contractId)
    .executeTakeFirstOrThrow();
  if (row.disputed_at !== null) throw new AppError(409, "contract_disputed");
}

/** An entry of a questioned week whose question is open, for the freelancer (403, 409 otherwise). */
function assertQuestioned(contract: HourlyContract, party: ContractParty, entry: TimeEntryRow, week: ContractWeekRow) {
  WEEK.assert("answer", stateOf(contract, week), party);
  if (!isOpen(entry)) throw new AppError(409, "entry_not_questioned");
}

/**
 * Once no question of the week is open, it goes back to the merchant's review, for 5 days again
 * (the merchant is told then, once, not at each answer).
 */
async function settleIfAnswered(trx: Kysely<Database>, contract: HourlyContract, week: ContractWeekRow, at: Date) {
  const contractId = contract.id;
  const left = await trx
    .selectFrom("time_entries")
    .select("id")
    .where("week_id", "=", week.id)
    .where("question", "is not", null)
    .where("answered_at", "is", null)
    .limit(1)
    .executeTakeFirst();
  if (!left) {
    const stamp = at.toISOString();
    const due = new Date(at.getTime() + WEEK_REVIEW_DAYS * DAY_MS).toISOString();
    await moveWeek(trx, week, "questioned", { status: "submitted", review_due_at: due }, stamp);
    await tell(trx, contract, "freelancer", stamp, {
      event: "week_answered",
      notice: "contract_week_answered",
      to: ["merchant"],
      message: await titleOf(trx, week),
    });
  }
  await publishContractMove(trx, contractId);
}

/** The freelancer answers an entry's question (a text): the entry. */
export async function answerEntry(user: UserRow, id: string, entryId: string, input: unknown): Promise<TimeEntryJson> {
  await consumeWrite(user.id);
  const data = parseInput(entryAnswerSchema, input);
  return transaction(async (trx) => {
    const { contract, party, entry, week } = await entryFor(trx, user, id, entryId);
    assertQuestioned(contract, party, entry, week);
    const at = new Date();
    const stamp = at.toISOString();
    await holdQuestioned(trx, week, stamp);
    const answered = await trx
      .updateTable("time_entries")
      .set({ answer: data.answer, answered_at: stamp, updated_at: stamp })
      .where("id", "=", entry.id)
      .where("question", "is not", null)
      .where("answered_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!answered) throw new AppError(409, "entry_not_questioned");
    await settleIfAnswered(trx, contract, week, at);
    return toEntryJson(answered);
  });
}

/**
 * The freelancer amends a questioned entry (PATCH in a questioned week): its minutes and
 * description, within the cap and the day's 24 h; its day stays. The amendment settles the question.
 */
async function amendEntry(
  trx: Kysely<Database>,
  contract: HourlyContract,
  party: ContractParty,
  entry: TimeEntryRow,
  week: ContractWeekRow,
  data: { day: string; minutes: number; description: string },
): Promise<TimeEntryJson> {
  assertQuestioned(contract, party, entry, week);
  if (data.day !== entry.day) throw new AppError(422, "validation_failed", { day: "entry_day_fixed" });
  const at = new Date();
  const stamp = at.toISOString();
  // The week's total moves in the conditional UPDATE that holds its row (status questioned, cap).
  await addMinutes(trx, week, data.minutes - entry.minutes, stamp, "questioned");
  await assertUndisputed(trx, contract.id);
  await assertDayTotal(trx, week.id, entry.day, data.minutes, entry.id);
  const amended = await trx
    .updateTable("time_entries")
    .set({ minutes: data.minutes, description: data.description, answer: null, answered_at: stamp, updated_at: stamp })
    .where(unchanged(entry))
    .where("answered_at", "is", null)
    .returningAll()
    .executeTakeFirst();
  if (!amended) throw new AppError(409, "entry_changed");
  await settleIfAnswered(trx, contract, week, at);
  return toEntryJson(amended);
}

// ---------------------------------------------------------------------------------------------
// The timeline and the notices of the weeks' moves

type Notice = {
  event: ContractEventKind;
  notice: NotificationKind;
  /** Who is told: the other side of who moved, the one the move is for, or both. */
  to: ContractParty[];
  /** The line's text (the week's title) and amount on the timeline; the week named in the notice. */
  message?: string | null;
  amount_cents?: number | null;
};

/**
 * Records a move on the contract's timeline and tells `to` (notifications, and their e-mails for
 * who has the kind on), in the move's transaction: the contract's event count, the event, the
 * notices. Three statements and the notices' own, whatever the week holds, so the schedule's
 * cost per week stays fixed.
 */
async function tell(
  trx: Kysely<Database>,
  contract: Pick<ContractRow, "id" | "merchant_id" | "freelancer_id" | "opportunity_id">,
  by: ContractParty | "system",
  at: string,
  n: Notice,
) {
  const counted = await trx
    .updateTable("contracts")
    .set({ events_count: sql<number>`events_count + 1` })
    .where("id", "=", contract.id)
    .returning("events_count")
    .executeTakeFirstOrThrow();
  await insertEvent(trx, contract.id, counted.events_count, {
    kind: n.event,
    author: by,
    message: n.message ?? null,
    amount_cents: n.amount_cents ?? null,
    created_at: at,
  });
  await notify(
    trx,
    n.to.map((side) => ({
      user_id: side === "merchant" ? contract.merchant_id : contract.freelancer_id,
      kind: n.notice,
      application_id: contract.id,
      opportunity_id: contract.opportunity_id,
      detail: n.message ? { milestone: n.message } : null,
    })),
  );
}

/** The other side of `party`. */
const otherSide = (party: ContractParty): ContractParty => (party === "merchant" ? "freelancer" : "merchant");

/** The week's title, as its milestone carries it ("Semana de dd/mm/aaaa"). */
async function titleOf(trx: Kysely<Database>, week: Pick<ContractWeekRow, "milestone_id">) {
  const row = await trx.selectFrom("milestones").select("title").where("id", "=", week.milestone_id).executeTakeFirst();
  return row?.title ?? null;
}

// ---------------------------------------------------------------------------------------------
// The week's moves

/**
 * Opens the contract's next week (the one after `after`, or the current one if that is later),
 * waiting for its money; none once the contract has ended, nor while it is paused.
 */
async function openNextWeek(trx: Kysely<Database>, contract: HourlyContract, after: string, at: Date) {
  const next = [addDays(after, 7), weekStartOf(dayInSaoPaulo(at))].sort().at(-1)!;
  const stamp = at.toISOString();
  // The contract's row decides, in one conditional UPDATE (not the row read earlier): an end
  // committed meanwhile (endHourlyContract) holds the week back, and one racing this waits for it.
  // The cap is the row's as updated (changeWeeklyCap, committed before, or waiting for this week).
  const counted = await trx
    .updateTable("contracts")
    .set({ milestones_count: sql<number>`milestones_count + 1`, updated_at: stamp })
    .where("id", "=", contract.id)
    .where("status", "=", "in_progress")
    .where((eb) => eb.or([eb("paused_from", "is", null), eb("paused_from", ">", next)]))
    .where("hourly_paused_from", "is", null)
    .returning(["rate_cents", "weekly_cap_minutes"])
    .executeTakeFirst();
  if (!counted) return null;
  const last = await trx
    .selectFrom("milestones")
    .select((eb) => eb.fn.max<number>("seq").as("seq"))
    .where("contract_id", "=", contract.id)
    .executeTakeFirst();
  await insertWeek(trx, { ...contract, ...counted }, next, Number(last?.seq ?? 0) + 1, stamp);
  return next;
}

/** Moves the week from `from` (else 409: another request moved it first). */
async function moveWeek(
  trx: Kysely<Database>,
  week: Pick<ContractWeekRow, "id">,
  from: ContractWeekRow["status"],
  set: Partial<ContractWeekRow>,
  at: string,
) {
  const moved = await trx
    .updateTable("contract_weeks")
    .set({ ...set, updated_at: at })
    .where("id", "=", week.id)
    .where("status", "=", from)
    .returningAll()
    .executeTakeFirst();
  if (!moved) throw new AppError(409, "week_changed");
  return moved;
}

/**
 * The week goes to the merchant's review (5 days), and the next week opens for its funding. The
 * contract's row first, then the week's, as resuming and a lapse take them (lockContract).
 */
async function submit(
  trx: Kysely<Database>,
  contract: HourlyContract,
  week: ContractWeekRow,
  by: ContractParty | "system",
  at: Date,
) {
  await lockContract(trx, contract.id);
  const stamp = at.toISOString();
  const moved = await moveWeek(
    trx,
    week,
    "open",
    {
      status: "submitted",
      submitted_at: stamp,
      submitted_by: by,
      review_due_at: new Date(at.getTime() + WEEK_REVIEW_DAYS * DAY_MS).toISOString(),
    },
    stamp,
  );
  await openNextWeek(trx, contract, week.week_start, at);
  await tell(trx, contract, by, stamp, {
    event: "week_submitted",
    notice: "contract_week_submitted",
    to: ["merchant"],
    message: await titleOf(trx, week),
  });
  await publishContractMove(trx, contract.id);
  return moved;
}

/**
 * The week is approved: its milestone releases floor(minutes × rate / 60), less the fee, to the
 * freelancer and the rest of its money goes back to the merchant, in the approval's transaction;
 * or, when the merchant keeps it (keepUnused), as much of it as the next week takes is passed on
 * to that week and only what is left goes back.
 */
async function approve(
  trx: Kysely<Database>,
  contract: HourlyContract,
  week: ContractWeekRow,
  by: ContractParty | "system",
  at: string,
) {
  const moved = await moveWeek(trx, week, "submitted", { status: "approved", approved_at: at, approved_by: by }, at);
  const milestone = await trx
    .selectFrom("milestones")
    .selectAll()
    .where("id", "=", week.milestone_id)
    .executeTakeFirstOrThrow();
  const { released_cents, amount_cents } = weekMoney(moved, moved.minutes_total, contract);
  const kept = await keepUnused(trx, contract, moved, milestone, amount_cents - released_cents, at);
  await releaseMilestone(trx, contract, milestone, at, released_cents, kept);
  await tell(trx, contract, by, at, {
    event: "week_approved",
    notice: "contract_week_approved",
    to: ["freelancer"],
    message: milestone.title,
    amount_cents: released_cents,
  });
  // The last week of an ended contract: the contract is completed with it.
  if (contract.paused_from !== null) await completeIfDone(trx, contract.id, by, at);
  await publishContractMove(trx, contract.id);
  const settled: Settled = {
    m_status: released_cents === 0 && contract.payments === "escrow" ? "refunded" : "released",
    m_released: contract.payments === "escrow" ? released_cents : milestone.amount_cents,
    m_fee: contract.payments === "escrow" ? feeOf(released_cents, contract.fee_bps) : 0,
    m_refunded: contract.payments === "escrow" ? amount_cents - released_cents - kept : 0,
    m_carried_in: milestone.carried_in_cents,
    m_carried_out: kept,
  };
  return { ...moved, ...settled };
}

/**
 * The approved week's unused money (`unused` centavos, still in its escrow) kept for the next
 * week when the merchant chose so (contracts.hourly_keep_unused): the centavos passed on, 0 when
 * it is all refunded as before. The next week is the contract's first after this one still
 * waiting for its money, holding nothing kept yet; it takes up to its own amount (the rest is
 * refunded) and, holding all of it, is funded now (open for entries) without a Pix. With none
 * (the contract ended or paused before one opened, or the next week already paid by Pix) the
 * money goes back. The contract's row is held first, in a conditional UPDATE that reads the
 * choice (a change of it waits for this approval, or came first and is seen), and before the
 * next week's milestone, as a Pix paid for that week holds them (settleCharge): of the two one
 * comes first and the other sees it (a payment first: no carry; a carry first: the Pix pays the
 * rest, and one for the whole week is funded with the difference refunded).
 */
async function keepUnused(
  trx: Kysely<Database>,
  contract: HourlyContract,
  week: ContractWeekRow,
  milestone: MilestoneRow,
  unused: number,
  at: string,
): Promise<number> {
  if (contract.payments !== "escrow" || unused <= 0) return 0;
  const keeps = await trx
    .updateTable("contracts")
    .set({ updated_at: at })
    .where("id", "=", contract.id)
    .where("hourly_keep_unused", "=", 1)
    .where("status", "=", "in_progress")
    .where("paused_from", "is", null)
    .executeTakeFirst();
  if (Number(keeps.numUpdatedRows) === 0) return 0;
  const next = await trx
    .selectFrom("contract_weeks as w")
    .innerJoin("milestones as m", "m.id", "w.milestone_id")
    .select(["w.id", "m.id as milestone_id", "m.amount_cents"])
    .where("w.contract_id", "=", contract.id)
    .where("w.status", "=", "awaiting_funding")
    .where("w.week_start", ">", week.week_start)
    .orderBy("w.week_start")
    .limit(1)
    .executeTakeFirst();
  if (!next) return 0;
  const cents = Math.min(unused, next.amount_cents);
  const to = { id: next.milestone_id, amount_cents: next.amount_cents };
  const carried = await carryUnused(trx, contract, milestone, to, cents, at);
  if (carried === null) return 0;
  await trx
    .updateTable("contract_weeks")
    .set({ carried_from: week.week_start, updated_at: at, ...(carried === "funded" ? { status: "open" } : {}) })
    .where("id", "=", next.id)
    .where("status", "=", "awaiting_funding")
    .execute();
  return cents;
}

/**
 * A week that will not be worked: its milestone is cancelled and a charge still pending withdrawn
 * (a Pix that arrives for it anyway becomes a refund due, as for any cancelled milestone). The
 * milestone first, as funding moves it (fundMilestone), so the two meet on the same row.
 */
async function dropWeek(trx: Kysely<Database>, week: ContractWeekRow, stamp: string) {
  const cancelled = await trx
    .updateTable("milestones")
    .set({ status: "cancelled", settled_at: stamp, updated_at: stamp })
    .where("id", "=", week.milestone_id)
    .where("status", "=", "awaiting_funding")
    .returning(["id", "carried_in_cents"])
    .executeTakeFirst();
  if (!cancelled) throw new AppError(409, "week_changed");
  // Money kept for it from the week before goes back to the merchant.
  if (cancelled.carried_in_cents > 0) {
    const contract = await trx
      .selectFrom("contracts")
      .selectAll()
      .where("id", "=", week.contract_id)
      .executeTakeFirstOrThrow();
    await refundCarried(trx, contract, cancelled, stamp);
  }
  await moveWeek(trx, week, "awaiting_funding", { status: "lapsed" }, stamp);
  await trx
    .updateTable("pix_charges")
    .set({ status: "superseded" })
    .where("milestone_id", "=", week.milestone_id)
    .where("status", "=", "pending")
    .execute();
}

/**
 * A week whose time passed without its money lapses (nothing can be logged in it); the current
 * week opens instead. The contract's row first, then the week's milestone and row (dropWeek), as
 * ending the contract and its Pix arriving take them: a lapse racing either waits for it instead
 * of deadlocking with it on PostgreSQL (tests/contracts/hourly-lock-order.test.ts).
 */
async function lapse(trx: Kysely<Database>, contract: HourlyContract, week: ContractWeekRow, at: Date) {
  await lockContract(trx, contract.id);
  await dropWeek(trx, week, at.toISOString());
  await openNextWeek(trx, contract, week.week_start, at);
  await tell(trx, contract, "system", at.toISOString(), {
    event: "week_lapsed",
    notice: "contract_week_lapsed",
    to: ["merchant", "freelancer"],
    message: await titleOf(trx, week),
  });
  await completeIfDone(trx, contract.id, "system", at.toISOString());
  await publishContractMove(trx, contract.id);
}

/**
 * An ended contract (paused_from set by endHourlyContract) is completed once no week is left to
 * fund, work or review: at once, or when its last week is approved.
 */
async function completeIfDone(trx: Kysely<Database>, contractId: string, by: ContractParty | "system", at: string) {
  if (await hasPendingWeek(trx, contractId)) return;
  await completeEndedContract(trx, contractId, by, at);
}

/** A week of the contract is still to fund, work or review. */
async function hasPendingWeek(trx: Kysely<Database>, contractId: string) {
  const pending = await trx
    .selectFrom("contract_weeks")
    .select("id")
    .where("contract_id", "=", contractId)
    .where("status", "in", ["awaiting_funding", "open", "submitted", "questioned"])
    .limit(1)
    .executeTakeFirst();
  return pending !== undefined;
}

/**
 * An hourly or monthly contract ended from a later period (paused_from set), none of whose
 * periods is pending any more, is completed; never while a dispute is open.
 */
export async function completeEndedContract(
  trx: Kysely<Database>,
  contractId: string,
  by: ContractParty | "system",
  at: string,
) {
  await trx
    .updateTable("contracts")
    .set({ status: "completed", ended_at: at, ended_by: by, updated_at: at })
    .where("id", "=", contractId)
    .where("status", "=", "in_progress")
    .where("paused_from", "is not", null)
    .where("disputed_at", "is", null)
    .execute();
}

/**
 * Either side ends the contract: no week opens after the one in hand. A week being worked
 * (open) is the last, and is submitted and approved as any other; a week still waiting for its
 * money is dropped. The contract is completed when no week is left (completeIfDone).
 */
export async function endHourlyContract(user: UserRow, id: string): Promise<WeekJson[]> {
  await consumeWrite(user.id);
  await transaction(async (trx) => {
    const { contract, party } = await hourlyFor(trx, user, id);
    if (contract.disputed_at !== null) throw new AppError(409, "contract_disputed");
    if (contract.status !== "in_progress" || contract.paused_from !== null) {
      throw new AppError(409, "contract_action_unavailable");
    }
    const at = new Date();
    const stamp = at.toISOString();
    // The contract's row first (a week opened at the same moment holds it until it commits, and
    // is then seen below), then the week in hand decides where the contract stops.
    await holdRunning(trx, id, stamp);
    const live = await trx
      .selectFrom("contract_weeks")
      .selectAll()
      .where("contract_id", "=", id)
      .where("status", "in", ["awaiting_funding", "open"])
      .executeTakeFirst();
    const cut =
      live?.status === "open" ? addDays(live.week_start, 7) : (live?.week_start ?? weekStartOf(dayInSaoPaulo(at)));
    await trx.updateTable("contracts").set({ paused_from: cut }).where("id", "=", id).execute();
    if (live?.status === "awaiting_funding") await dropWeek(trx, live, stamp);
    await completeIfDone(trx, id, party, stamp);
    await publishContractMove(trx, id);
  });
  return listWeeks(user, id);
}

export type PauseJson = {
  /** The first week that does not open while paused (a Monday); null once resumed. */
  hourly_paused_from: string | null;
  /** Resuming: the week it opened, waiting for its money (null: a week in hand goes on). */
  opened_week: string | null;
};

/** The contract runs (in progress, not ended, no dispute open), as read: else 409. */
function assertRunning(contract: HourlyContract) {
  if (contract.disputed_at !== null) throw new AppError(409, "contract_disputed");
  if (contract.status !== "in_progress" || contract.paused_from !== null) {
    throw new AppError(409, "contract_action_unavailable");
  }
}

/**
 * Either side pauses the contract from the next week: the week in hand (being worked, or waiting
 * for its money, which may still be paid) goes on to its end as any other, and no week opens
 * after it until the contract is resumed. As ending it: the contract's row first, in a
 * conditional UPDATE (running and not paused: of two pauses one wins, the other is 409), which a
 * week being opened at the same moment also goes through (openNextWeek); then the latest week,
 * read after it, sets where the pause starts.
 */
export async function pauseHourlyContract(user: UserRow, id: string): Promise<PauseJson> {
  await consumeWrite(user.id);
  return transaction(async (trx) => {
    const { contract, party } = await hourlyFor(trx, user, id);
    assertRunning(contract);
    if (contract.hourly_paused_from !== null) throw new AppError(409, "contract_paused");
    const at = new Date();
    const stamp = at.toISOString();
    await holdRunning(trx, id, stamp, { unpaused: true });
    const cut = firstUnopened(await newestWeek(trx, id), at);
    await trx.updateTable("contracts").set({ hourly_paused_from: cut }).where("id", "=", id).execute();
    await tell(trx, contract, party, stamp, { event: "paused", notice: "contract_paused", to: [otherSide(party)] });
    await publishContractMove(trx, id);
    return { hourly_paused_from: cut, opened_week: null };
  });
}

/**
 * Either side resumes a paused contract: the weeks open again as before. With no week in hand
 * any more (the last one was sent or lapsed while paused) the next one opens now, waiting for
 * its money (the current week, or the one after the last if that is later). The contract's row
 * is held before the weeks in hand are counted, and a submission takes it before its week, so a
 * week sent at the same moment is seen as sent (and this opens the next) or waits and opens it
 * itself: one week either way. Of two
 * resumes at once one wins (the pause in the WHERE of the contract's UPDATE), the other is 409.
 */
export async function resumeHourlyContract(user: UserRow, id: string): Promise<PauseJson> {
  await consumeWrite(user.id);
  return transaction(async (trx) => {
    const { contract, party } = await hourlyFor(trx, user, id);
    assertRunning(contract);
    if (contract.hourly_paused_from === null) throw new AppError(409, "contract_not_paused");
    const at = new Date();
    const stamp = at.toISOString();
    // The contract's row first, as a week's submission and lapse take it (before the week's), so
    // a submission at the same moment has committed or waits for this; then the weeks in hand.
    await lockContract(trx, id);
    const inHand = await trx
      .updateTable("contract_weeks")
      .set({ updated_at: stamp })
      .where("contract_id", "=", id)
      .where("status", "in", ["awaiting_funding", "open"])
      .executeTakeFirst();
    const resumed = await trx
      .updateTable("contracts")
      .set({ hourly_paused_from: null, updated_at: stamp })
      .where("id", "=", id)
      .where("status", "=", "in_progress")
      .where("paused_from", "is", null)
      .where("hourly_paused_from", "is not", null)
      .where("disputed_at", "is", null)
      .executeTakeFirst();
    if (Number(resumed.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
    let opened: string | null = null;
    if (Number(inHand.numUpdatedRows) === 0) {
      const newest = await newestWeek(trx, id);
      // openNextWeek opens the week after `after`, or the current one if that is later.
      opened = await openNextWeek(trx, contract, newest ?? addDays(weekStartOf(dayInSaoPaulo(at)), -7), at);
    }
    await tell(trx, contract, party, stamp, { event: "resumed", notice: "contract_resumed", to: [otherSide(party)] });
    await publishContractMove(trx, id);
    return { hourly_paused_from: null, opened_week: opened };
  });
}

export type CapChangeJson = { weekly_cap_minutes: number; from_week: string };

/**
 * The merchant changes the weekly cap (whole hours, 1 to 60, as the proposal's): from the next
 * week not opened yet (`from_week`). A week already opened keeps its cap and its money, also one
 * still waiting for it (its charge stands). One conditional UPDATE of the contract's row (in
 * progress, not ended, no dispute), which opening a week also goes through and reads the cap
 * from (openNextWeek): a week opened first keeps the old cap, and the reply names the one after.
 */
export async function changeWeeklyCap(user: UserRow, id: string, input: unknown): Promise<CapChangeJson> {
  await consumeWrite(user.id);
  const { weekly_cap_hours } = parseInput(weeklyCapChangeSchema, input);
  return transaction(async (trx) => {
    const { contract, party } = await hourlyFor(trx, user, id);
    if (party !== "merchant") throw new AppError(403, "forbidden_role");
    if (contract.disputed_at !== null) throw new AppError(409, "contract_disputed");
    if (contract.status !== "in_progress" || contract.paused_from !== null) {
      throw new AppError(409, "contract_action_unavailable");
    }
    const at = new Date();
    const minutes = weekly_cap_hours! * 60;
    const changed = await trx
      .updateTable("contracts")
      .set({ weekly_cap_minutes: minutes, updated_at: at.toISOString() })
      .where("id", "=", id)
      .where("status", "=", "in_progress")
      .where("paused_from", "is", null)
      .where("disputed_at", "is", null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
    const from = firstUnopened(await newestWeek(trx, id), at);
    await tell(trx, contract, party, at.toISOString(), {
      event: "cap_changed",
      notice: "contract_cap_changed",
      to: ["freelancer"],
      message: `${weekly_cap_hours} h`,
    });
    await publishContractMove(trx, id);
    return { weekly_cap_minutes: minutes, from_week: from };
  });
}

export type KeepUnusedJson = { hourly_keep_unused: boolean };

/**
 * The merchant chooses what an approved week's unused money does: kept for the next week
 * (`keep: true`, keepUnused) or refunded (false, the default). While the contract runs (in
 * progress, not ended, no dispute open): the contract's row held first (holdRunning), which an
 * approval also goes through to read the choice, so an approval uses the choice as it was before
 * or after this, never half of it. Setting it as it already is answers the same.
 */
export async function setKeepUnused(user: UserRow, id: string, input: unknown): Promise<KeepUnusedJson> {
  await consumeWrite(user.id);
  const { keep } = parseInput(keepUnusedSchema, input);
  return transaction(async (trx) => {
    const { contract, party } = await hourlyFor(trx, user, id);
    if (party !== "merchant") throw new AppError(403, "forbidden_role");
    assertRunning(contract);
    await holdRunning(trx, id, new Date().toISOString());
    await trx
      .updateTable("contracts")
      .set({ hourly_keep_unused: keep ? 1 : 0 })
      .where("id", "=", id)
      .execute();
    await publishContractMove(trx, id);
    return { hourly_keep_unused: keep };
  });
}

/** The freelancer sends the week to the merchant (before the Monday 12:00 that would). */
export async function submitWeek(user: UserRow, id: string, weekStart: string): Promise<WeekJson> {
  await consumeWrite(user.id);
  return transaction(async (trx) => {
    const { contract, party, week } = await weekFor(trx, user, id, weekStart);
    WEEK.assert("submit", stateOf(contract, week), party);
    return toWeekJson(await submit(trx, contract, week, party, new Date()), contract, party);
  });
}

/** The merchant approves a submitted week: its money is released and refunded as its minutes say. */
export async function approveWeek(user: UserRow, id: string, weekStart: string): Promise<WeekJson> {
  await consumeWrite(user.id);
  return transaction(async (trx) => {
    const { contract, party, week } = await weekFor(trx, user, id, weekStart);
    WEEK.assert("approve", stateOf(contract, week), party);
    return toWeekJson(await approve(trx, contract, week, party, new Date().toISOString()), contract, party);
  });
}

// ---------------------------------------------------------------------------------------------
// The schedule (run with the contracts' schedule by every server process)

export type HourlyScheduleResult = { submitted: number; lapsed: number; approved: number };

type WeeksWhere = ExpressionBuilder<Database, "contract_weeks">;

/**
 * Monday 12:00 São Paulo: last week's open weeks are submitted and its unfunded weeks lapse;
 * submitted weeks left unanswered for 5 days are approved. Each week is changed in a transaction
 * of its own by a conditional UPDATE (moveWeek), so of two servers reaching it one makes the
 * change and the other changes nothing. A contract with a dispute open is left as it is, all its
 * weeks (as a fixed contract stops): the schedule catches up once the operator decides.
 */
export async function runHourlySchedule(at = new Date()): Promise<HourlyScheduleResult> {
  const monday = weekStartOf(dayInSaoPaulo(at));
  // The latest week whose following Monday 12:00 has passed.
  const due = addDays(monday, at >= saoPauloInstant(monday, 12) ? -7 : -14);
  const stamp = at.toISOString();
  // The budget is measured on the monotonic clock (the run's `at` may be any time).
  const deadline = performance.now() + SCHEDULE_BUDGET_MS;
  const submitted = await eachWeek(
    (eb) => eb.and([eb("status", "=", "open"), eb("week_start", "<=", due)]),
    (trx, contract, week) => submit(trx, contract, week, "system", at),
    deadline,
  );
  const lapsed = await eachWeek(
    (eb) => eb.and([eb("status", "=", "awaiting_funding"), eb("week_start", "<=", due)]),
    (trx, contract, week) => lapse(trx, contract, week, at),
    deadline,
  );
  const approved = await eachWeek(
    (eb) => eb.and([eb("status", "=", "submitted"), eb("review_due_at", "<=", stamp)]),
    (trx, contract, week) => approve(trx, contract, week, "system", stamp),
    deadline,
  );
  return { submitted, lapsed, approved };
}

/**
 * Runs `change` on each week `which` selects, each in its own transaction; a 409 (lost race)
 * counts none. Batches of SCHEDULE_BATCH in the order of the weeks' ids, each after the last id
 * of the one before (a week left as it was, by a 409, is not taken again), while the last batch
 * was full and the run is before its `deadline`.
 */
async function eachWeek(
  which: (eb: WeeksWhere) => Expression<SqlBool>,
  change: (trx: Kysely<Database>, contract: HourlyContract, week: ContractWeekRow) => Promise<unknown>,
  deadline: number,
): Promise<number> {
  let changed = 0;
  let after: string | null = null;
  for (;;) {
    const found = await dueWeeks(which, after);
    changed += await changeEach(found, change);
    if (found.length < SCHEDULE_BATCH || performance.now() >= deadline) return changed;
    after = found.at(-1)!.id;
  }
}

/** The next batch of the weeks `which` selects (after the id `after`), of contracts with no dispute open. */
function dueWeeks(which: (eb: WeeksWhere) => Expression<SqlBool>, after: string | null) {
  return db
    .selectFrom("contract_weeks")
    .select("id")
    .where(which)
    .$if(after !== null, (qb) => qb.where("id", ">", after!))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("contracts")
            .select("contracts.id")
            .whereRef("contracts.id", "=", "contract_weeks.contract_id")
            .where("contracts.disputed_at", "is not", null),
        ),
      ),
    )
    .orderBy("id")
    .limit(SCHEDULE_BATCH)
    .execute();
}

async function changeEach(
  found: { id: string }[],
  change: (trx: Kysely<Database>, contract: HourlyContract, week: ContractWeekRow) => Promise<unknown>,
) {
  let changed = 0;
  for (const { id } of found) {
    try {
      await transaction(async (trx) => {
        const week = await trx.selectFrom("contract_weeks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        const contract = await trx
          .selectFrom("contracts")
          .selectAll()
          .where("id", "=", week.contract_id)
          .executeTakeFirstOrThrow();
        if (contract.disputed_at !== null) throw new AppError(409, "contract_disputed");
        await change(trx, contract as HourlyContract, week);
      });
      changed++;
    } catch (error) {
      if (!(error instanceof AppError && error.status === 409)) throw error;
    }
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// A dispute of a week (contracts/disputes.server.ts opens it; the operator's decision settles it)
//
// Only a questioned week goes to a dispute: the merchant questioned entries and the two sides did
// not settle them. While it is open the contract is frozen, all its weeks (no move, nothing done by
// the schedule); the operator's decision acts on the disputed week's milestone alone and the
// contract goes on (either side may end it).

/** The disputed week's Monday, before any file is stored: 422 on the field without one. */
export function weekToDispute(week: string | undefined): string {
  if (!week) throw new AppError(422, "validation_failed", { week: "dispute_week_required" });
  assertWeekStart(week);
  return week;
}

/**
 * Holds the week a dispute names, for the dispute's transaction: it must be questioned (409
 * otherwise, also when an answer that settled it came first), and its row is held before the
 * contract's, as every move of a questioned week holds it (holdQuestioned). Its milestone is the
 * dispute's.
 */
export async function holdWeekToDispute(
  trx: Kysely<Database>,
  contract: ContractRow,
  party: ContractParty,
  weekStart: string,
  stamp: string,
): Promise<string> {
  const week = await trx
    .selectFrom("contract_weeks")
    .selectAll()
    .where("contract_id", "=", contract.id)
    .where("week_start", "=", weekStart)
    .executeTakeFirst();
  if (!week) throw new AppError(404, "not_found");
  WEEK.assert("dispute", stateOf(contract, week), party);
  await lockQuestioned(trx, week, stamp);
  return week.milestone_id;
}

/** What a decision on a disputed week moved (as DisputeMoney, services/payments/disputes.server.ts). */
export type DisputedWeekMoney = {
  status: "in_progress" | "completed";
  milestone_id: string;
  released_cents: number;
  fee_cents: number;
  refunded_cents: number;
};

/**
 * The operator's decision on a disputed week, in the decision's transaction: the week is settled
 * (approved by the system) and its milestone's money moves once: `complete` releases
 * floor(minutes × rate / 60) as an approval would, `cancel` refunds the week's money, `split`
 * releases `split` centavos (0 to the week's money; 422 above it) and refunds the rest. The
 * contract goes on; an ended one with no week left is completed. 409 when the week is not
 * questioned any more.
 */
export async function settleDisputedWeek(
  trx: Kysely<Database>,
  contract: ContractRow,
  milestoneId: string | null,
  decision: "complete" | "cancel" | "split",
  split: number | null,
  at: string,
): Promise<DisputedWeekMoney> {
  const week = milestoneId
    ? await trx.selectFrom("contract_weeks").selectAll().where("milestone_id", "=", milestoneId).executeTakeFirst()
    : undefined;
  if (!week) throw new AppError(409, "dispute_nothing_held");
  const milestone = await trx
    .selectFrom("milestones")
    .selectAll()
    .where("id", "=", week.milestone_id)
    .executeTakeFirstOrThrow();
  if (decision === "split" && (split === null || split > milestone.amount_cents)) {
    throw new AppError(422, "split_amount_invalid", { freelancer_cents: "split_amount_too_large" });
  }
  const moved = await moveWeek(
    trx,
    week,
    "questioned",
    { status: "approved", approved_at: at, approved_by: "system" },
    at,
  );
  const hourly = contract as HourlyContract;
  const released =
    decision === "complete"
      ? weekMoney(moved, moved.minutes_total, hourly).released_cents
      : decision === "split"
        ? split!
        : 0;
  if (decision === "cancel") await refundMilestone(trx, contract, milestone, at);
  else await releaseMilestone(trx, contract, milestone, at, released);
  const done = contract.paused_from !== null && !(await hasPendingWeek(trx, contract.id));
  const held = contract.payments === "escrow";
  return {
    status: done ? "completed" : "in_progress",
    milestone_id: milestone.id,
    released_cents: held ? released : 0,
    fee_cents: held && released > 0 ? feeOf(released, contract.fee_bps) : 0,
    refunded_cents: held ? milestone.amount_cents - released : 0,
  };
}
