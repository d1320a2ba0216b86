import { randomUUID } from "node:crypto";
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  type UpdateObject,
  type Updateable,
} from "kysely";
import {
  MAX_DELIVERY_FILES,
  REMINDER_DAYS_LEFT,
  REVIEW_DAYS,
  cancelInputSchema,
  changeRequestInputSchema,
  contractListQuerySchema,
  deliveryInputSchema,
} from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import type {
  ContractEventKind,
  ContractEventRow,
  ContractFileRow,
  ContractParty,
  ContractRow,
  ContractsTable,
  Database,
  MilestoneRow,
  NotificationKind,
  OpportunityRow,
  UserRow,
} from "../../../db/schema";
import {
  closeMilestones,
  currentMilestone,
  hasLaterMilestone,
  moveMilestone,
  refundMilestone,
  releaseMilestone,
} from "../payments/escrow.server";
import { milestonesOf, type MilestoneJson } from "../payments/milestones.server";
import { AppError, parseInput } from "../platform/errors.server";
import { asParty, partyOf, personJson, PEOPLE_COLUMNS } from "../platform/participants.server";
import { stateMachine } from "../platform/state-machine.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { insertFiles } from "../platform/storage.server";
import { orderOfContract, spendRevision, type OrderJson } from "../catalog/orders.server";
import { notify, notifyOtherSide } from "../messaging/notifications.server";
import { every } from "../platform/jobs.server";
import { publishDueReviews } from "../reputation/reviews.server";
import {
  attachmentProblems,
  deleteAttachment,
  readAttachment,
  saveAttachment,
  type SavedAttachment,
} from "../platform/uploads.server";
import { checkFields } from "~/lib/schemas";
import { toDisputeJson, type DisputeJson } from "./dispute-json";
import { runDisputeReminders } from "./disputes.server";
import { runHourlySchedule } from "./hourly.server";
import { insertEvent, type NewContractEvent } from "./timeline.server";
import { runMonthlySchedule } from "./monthly.server";
import { runRecurringSchedule } from "../payments/recurring.server";
import { publishContractMove } from "../platform/events.server";
import type { ModerationDetail } from "~/lib/moderation";

// The contract of an accepted application (README, "Contracts"):
//
//   in_progress ──deliver──▶ delivered ──approve──▶ completed
//        ▲                      │  └──14 days without an answer──▶ completed (automatically)
//        └───request changes────┘
//   before any delivery: the merchant cancels, the freelancer withdraws (a reason each) ▶ cancelled
//   after a delivery: either side asks to cancel; the other accepts (▶ cancelled) or declines
//
// The work and its payment go milestone by milestone (docs/payments.md): the moves act on the
// current milestone (the first not settled). Approving it releases its money; the contract is
// completed with its last milestone, and goes back to in progress for the next one before that.
// Cancelling refunds the current milestone's escrow. With payments (escrow), nothing can be
// delivered before the milestone is funded; without (off), a milestone needs no funding.
//
// Every move is one transaction whose UPDATE repeats in its WHERE the state the decision was
// taken on (status, deliveries, pending cancellation request): of two requests racing for one
// contract the second updates nothing and answers 409, on SQLite (one writer at a time) as on
// PostgreSQL (which checks the WHERE again once the winner's row lock is released). Only the
// contract's row is locked, so no two moves wait for each other in opposite orders. The
// timeline's events are numbered by the UPDATE itself (events_count + 1, read back).

export type ContractAction =
  | "deliver"
  | "approve"
  | "request_changes"
  | "cancel"
  | "request_cancellation"
  | "accept_cancellation"
  | "decline_cancellation"
  | "fund"
  | "open_dispute"
  | "add_dispute_statement";

const ACTIVE = ["in_progress", "delivered"] as const;
const DAY_MS = 86_400_000;

type ContractState = Pick<ContractRow, "status" | "deliveries_count" | "cancel_requested_by" | "disputed_at"> & {
  payments: ContractRow["payments"];
  kind: ContractRow["kind"];
  /** The milestone being worked on (none once the contract has ended). */
  milestone?: Pick<MilestoneRow, "status" | "deliveries_count"> | null;
};

/**
 * Deliveries of the work in hand: with payments, the current milestone's; without, the
 * contract's (it has a single milestone, and the rules stay as they were before milestones).
 */
const deliveriesNow = (c: ContractState) =>
  c.payments === "escrow" ? (c.milestone?.deliveries_count ?? 0) : c.deliveries_count;
/** Work may be delivered: without payments always, with payments once the milestone is funded. */
const workFunded = (c: ContractState) => c.payments !== "escrow" || c.milestone?.status === "funded";

const isActive = (c: Pick<ContractState, "status">) => (ACTIVE as readonly string[]).includes(c.status);
const answersRequest = (c: ContractState, party: ContractParty) =>
  c.cancel_requested_by !== null && c.cancel_requested_by !== party;

/** No move while a dispute is open: an operator decides (disputes.server.ts). */
const notDisputed = [(c: ContractState) => c.disputed_at === null, 409, "contract_disputed"] as const;

/**
 * An hourly contract moves week by week (hourly.server.ts): deliveries, approvals, cancellations
 * and disputes of milestones are not its moves. A monthly contract's months are milestones worked
 * with these moves (monthly.server.ts).
 */
const fixedOnly = [(c: ContractState) => c.kind !== "hourly", 409, "contract_hourly"] as const;

/** A move open in this state (a fixed contract, no dispute open), or 409. */
const when = (test: (c: ContractState, party: ContractParty) => boolean) =>
  ({ checks: [notDisputed, fixedOnly, [test, 409, "contract_action_unavailable"]] }) as const;

/** Who may do what, and when (docs/product.md §3); a move by the wrong side is 403. */
const CONTRACT = stateMachine<ContractAction, ContractState, ContractParty>(
  {
    deliver: { by: "freelancer", ...when((c) => c.status === "in_progress" && workFunded(c)) },
    approve: { by: "merchant", ...when((c) => c.status === "delivered") },
    request_changes: { by: "merchant", ...when((c) => c.status === "delivered") },
    // Before any delivery either side ends the contract alone (the freelancer "withdraws").
    cancel: when((c) => c.status === "in_progress" && deliveriesNow(c) === 0),
    // After a delivery it takes both: one asks, the other answers.
    request_cancellation: when((c) => isActive(c) && deliveriesNow(c) > 0 && c.cancel_requested_by === null),
    accept_cancellation: when((c, party) => isActive(c) && answersRequest(c, party)),
    decline_cancellation: when((c, party) => isActive(c) && answersRequest(c, party)),
    // With payments, the merchant funds the milestone by Pix before the work on it starts (an
    // hourly or monthly contract's: the week or month waiting for its money, milestoneToFund).
    fund: {
      by: "merchant",
      checks: [
        notDisputed,
        [
          // A monthly contract funds its next month while the last one is delivered (isActive).
          (c) => c.payments === "escrow" && isActive(c) && c.milestone?.status === "awaiting_funding",
          409,
          "contract_action_unavailable",
        ],
      ],
    },
    // Either side, while the work is in progress or delivered (a refused cancellation included).
    // An hourly contract's dispute is of a questioned week: the week's moves allow it (hourly.server.ts).
    open_dispute: when((c) => isActive(c)),
    // While it is open, both sides add statements and files (an hourly contract's too).
    add_dispute_statement: {
      checks: [[(c) => isActive(c) && c.disputed_at !== null, 409, "dispute_not_open"]],
    },
  },
  { wrongSide: [403, "forbidden_role"] },
);

/** Refuses a move the rules do not allow the party now (403 wrong side, 409 wrong state). */
export function assertContractMove(action: ContractAction, row: ContractState, party: ContractParty) {
  CONTRACT.assert(action, row, party);
}

/** The moves open to the user on the contract right now; pages show only these. */
export function allowedContractActions(
  user: Pick<UserRow, "id">,
  contract: ContractState & { merchant: { id: string }; freelancer: { id: string } },
): ContractAction[] {
  const party = partyOf(user, { merchant_id: contract.merchant.id, freelancer_id: contract.freelancer.id });
  return CONTRACT.allowed(contract, party);
}

/** Refuses the move unless the rules let `party` make it in this state (403 or 409). */
export function assertAllowed(action: ContractAction, row: ContractState, party: ContractParty) {
  CONTRACT.assert(action, row, party);
}

// ---------------------------------------------------------------------------------------------
// JSON

export type ContractFileJson = { id: string; name: string; content_type: string; size_bytes: number; url: string };

export type ContractEventJson = {
  id: string;
  seq: number;
  kind: ContractEventKind;
  author: ContractParty | "system";
  message: string | null;
  /** The amount the line names, as it was at its moment (null: none). */
  amount_cents: number | null;
  created_at: string;
  files: ContractFileJson[];
};

type Person = { id: string; display_name: string | null; photo_url: string | null };

export type ContractJson = {
  id: string;
  /** The application the contract came from (the same id). */
  application_id: string;
  /** budget_type says how price_cents counts: a total (fixed) or per hour (hourly). */
  opportunity: { uuid: string; title: string; budget_type: OpportunityRow["budget_type"] };
  merchant: Person;
  freelancer: Person;
  price_cents: number;
  delivery_days: number;
  status: ContractRow["status"];
  /**
   * With payments: in progress, but the milestone in hand is not paid yet, so no work is under way
   * and no deadline runs (due_at counts from the milestone's funding).
   */
  awaiting_funding: boolean;
  due_at: string;
  /** Still in progress past its due date (marked by the schedule, or seen so now). */
  overdue: boolean;
  overdue_at: string | null;
  delivered_at: string | null;
  /** When a delivery left unanswered is completed automatically. */
  review_due_at: string | null;
  deliveries_count: number;
  cancel_request: { by: ContractParty; reason: string } | null;
  ended_at: string | null;
  ended_by: ContractRow["ended_by"];
  end_reason: string | null;
  /** A dispute is open: the contract waits for an operator's decision. */
  disputed: boolean;
  created_at: string;
  updated_at: string;
  /** How it is paid: 'escrow' (funded milestones held by the platform) or 'off' (agreed between the two). */
  payments: ContractRow["payments"];
  /** The platform's fee in basis points, frozen at the hire (0 without payments). */
  fee_bps: number;
  /** 'fixed' (milestones) or 'hourly' (weeks: hourly.server.ts). */
  kind: ContractRow["kind"];
  /** Hourly: the rate per hour and the weekly cap in minutes, frozen at the hire (null: fixed). */
  rate_cents: number | null;
  weekly_cap_minutes: number | null;
  /**
   * Hourly (monthly), once ended: the first week (month) that will not open (the contract
   * completes after its last).
   */
  paused_from: string | null;
  /** Hourly, while paused: the first week that does not open until it is resumed (null: running). */
  hourly_paused_from: string | null;
  /** Hourly: an approved week's unused money is kept for the next week (true) or refunded (false). */
  hourly_keep_unused: boolean;
  /** Monthly: the day of the month each month starts on, and what a month includes (null: not monthly). */
  monthly_day: number | null;
  month_includes: string | null;
};

export type ContractDetailJson = ContractJson & {
  events: ContractEventJson[];
  allowed_actions: ContractAction[];
  /** The contract's dispute, open or decided (null: none). */
  dispute: DisputeJson | null;
  milestones: MilestoneJson[];
  /** The order of a ready-made service it came from (package, answers, revisions); null: a hire. */
  order: OrderJson | null;
};

function baseSelect(database: Kysely<Database>) {
  return database
    .selectFrom("contracts")
    .innerJoin("opportunities as o", "o.id", "contracts.opportunity_id")
    .innerJoin("users as m", "m.id", "contracts.merchant_id")
    .innerJoin("users as f", "f.id", "contracts.freelancer_id")
    .selectAll("contracts")
    .select([
      "o.uuid as opportunity_uuid",
      "o.title as opportunity_title",
      "o.budget_type as opportunity_budget_type",
      ...PEOPLE_COLUMNS,
      // Money held for the work in hand (with payments, nothing is under way before it).
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("milestones as wm")
              .select("wm.id")
              .whereRef("wm.contract_id", "=", "contracts.id")
              .where("wm.status", "in", ["funded", "delivered"]),
          )
          .as("work_funded"),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>["executeTakeFirstOrThrow"]>>;

function toContractJson(row: Row, at = now()): ContractJson {
  const awaitingFunding = row.payments === "escrow" && row.status === "in_progress" && !row.work_funded;
  return {
    id: row.id,
    application_id: row.id,
    opportunity: { uuid: row.opportunity_uuid, title: row.opportunity_title, budget_type: row.opportunity_budget_type },
    merchant: personJson(row, "merchant"),
    freelancer: personJson(row, "freelancer"),
    price_cents: row.price_cents,
    delivery_days: row.delivery_days,
    status: row.status,
    due_at: row.due_at,
    awaiting_funding: awaitingFunding,
    overdue: row.status === "in_progress" && !awaitingFunding && (row.overdue_at !== null || row.due_at < at),
    overdue_at: row.overdue_at,
    delivered_at: row.delivered_at,
    review_due_at: row.review_due_at,
    deliveries_count: row.deliveries_count,
    cancel_request:
      row.cancel_requested_by && row.cancel_request_reason !== null
        ? { by: row.cancel_requested_by, reason: row.cancel_request_reason }
        : null,
    ended_at: row.ended_at,
    ended_by: row.ended_by,
    end_reason: row.end_reason,
    disputed: row.disputed_at !== null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    payments: row.payments,
    fee_bps: row.fee_bps,
    kind: row.kind,
    rate_cents: row.rate_cents,
    weekly_cap_minutes: row.weekly_cap_minutes,
    paused_from: row.paused_from,
    hourly_paused_from: row.hourly_paused_from,
    hourly_keep_unused: row.hourly_keep_unused === 1,
    monthly_day: row.monthly_day,
    month_includes: row.month_includes,
  };
}

const fileUrl = (contractId: string, fileId: string) => `/api/contracts/${contractId}/files/${fileId}`;

function toFileJson(file: ContractFileRow): ContractFileJson {
  return {
    id: file.id,
    name: file.original_name,
    content_type: file.content_type,
    size_bytes: file.size_bytes,
    url: fileUrl(file.contract_id, file.id),
  };
}

export function toEventJson(event: ContractEventRow, files: ContractFileRow[]): ContractEventJson {
  return {
    id: event.id,
    seq: event.seq,
    kind: event.kind,
    author: event.author,
    message: event.message,
    amount_cents: event.amount_cents,
    created_at: event.created_at,
    files: files.filter((f) => f.event_id === event.id).map(toFileJson),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The contract as one of its two sides sees it; anyone else gets 404, never its contents. */
function findForParticipant(user: Pick<UserRow, "id">, id: string) {
  return asParty(user, id, (id) => baseSelect(db).where("contracts.id", "=", id).executeTakeFirst());
}

/** The contract's timeline (oldest first, files included), its dispute if any, and its milestones. */
async function timelineOf(row: Row) {
  const id = row.id;
  const [events, files, dispute, milestones, order] = await Promise.all([
    db.selectFrom("contract_events").selectAll().where("contract_id", "=", id).orderBy("seq", "asc").execute(),
    db
      .selectFrom("contract_files")
      .selectAll()
      .where("contract_id", "=", id)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    // The latest: a contract may have had one dispute per milestone, one open at a time.
    db
      .selectFrom("disputes")
      .selectAll()
      .where("contract_id", "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    milestonesOf(row),
    orderOfContract(id),
  ]);
  return {
    events: events.map((e) => toEventJson(e, files)),
    dispute: dispute ? toDisputeJson(dispute) : null,
    milestones,
    order,
  };
}

/** The contract with its timeline (oldest first, files included) and the moves open now. */
export async function getContract(user: UserRow, id: string): Promise<ContractDetailJson> {
  const { row } = await findForParticipant(user, id);
  const contract = toContractJson(row);
  const timeline = await timelineOf(row);
  // An hourly contract funds its weeks ahead: the milestone in hand is the one waiting for money.
  const working = row.kind === "hourly" ? ["awaiting_funding"] : ["awaiting_funding", "funded", "delivered"];
  const current = timeline.milestones.find((m) => working.includes(m.status)) ?? null;
  const actionsWith = (milestone: typeof current) =>
    allowedContractActions(user, { ...row, milestone, merchant: contract.merchant, freelancer: contract.freelancer });
  const allowed = actionsWith(current);
  // A monthly contract works one month and funds the next ahead: funding is the next month's move.
  if (row.kind === "monthly" && !allowed.includes("fund")) {
    const ahead = timeline.milestones.find((m) => m.status === "awaiting_funding") ?? null;
    if (ahead && actionsWith(ahead).includes("fund")) allowed.push("fund");
  }
  return { ...contract, ...timeline, allowed_actions: allowed };
}

export type ContractRecordJson = Omit<ContractDetailJson, "allowed_actions">;

/** The whole contract for the operator (a dispute's record): terms, timeline, files, dispute. */
export async function getContractRecord(id: string): Promise<ContractRecordJson> {
  const row = await baseSelect(db).where("contracts.id", "=", id).executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  return { ...toContractJson(row), ...(await timelineOf(row)) };
}

export type ContractListJson = { data: ContractJson[]; meta: PageMeta; counts: Record<ContractRow["status"], number> };

/** The user's contracts (as merchant or freelancer), most recently changed first, with counts by status. */
export async function listContracts(user: UserRow, query: unknown): Promise<ContractListJson> {
  const { status, page, per_page } = parseInput(contractListQuerySchema, query);
  const side = user.account_type === "merchant" ? "contracts.merchant_id" : "contracts.freelancer_id";
  const [byStatus, rows] = await Promise.all([
    db
      .selectFrom("contracts")
      .select(["contracts.status", (eb) => eb.fn.countAll<number>().as("n")])
      .where(side, "=", user.id)
      .groupBy("contracts.status")
      .execute(),
    baseSelect(db)
      .where(side, "=", user.id)
      .$if(status !== undefined, (qb) => qb.where("contracts.status", "=", status!))
      .orderBy("contracts.updated_at", "desc")
      .orderBy("contracts.id", "desc")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute(),
  ]);
  const counts = { in_progress: 0, delivered: 0, completed: 0, cancelled: 0 };
  for (const r of byStatus) counts[r.status] = Number(r.n);
  const total = status ? counts[status] : Object.values(counts).reduce((a, b) => a + b, 0);
  const at = now();
  return { data: rows.map((r) => toContractJson(r, at)), meta: pageMeta(page, per_page, total), counts };
}

/** A file of a contract, for its two sides only (404 for anyone else and for unknown files). */
export async function getContractFile(user: UserRow, contractId: string, fileId: string) {
  await findForParticipant(user, contractId);
  return readContractFile(contractId, fileId);
}

/** A file of a contract, whoever asks: callers check who may read it (its sides, an operator). */
export async function readContractFile(contractId: string, fileId: string) {
  assertId(fileId);
  const file = await db
    .selectFrom("contract_files")
    .selectAll()
    .where("id", "=", fileId)
    .where("contract_id", "=", contractId)
    .executeTakeFirst();
  const stored = file ? await readAttachment(file.stored_name) : null;
  if (!file || !stored) throw new AppError(404, "not_found");
  return { name: file.original_name, contentType: file.content_type, body: stored.body };
}

// ---------------------------------------------------------------------------------------------
// Moves

type Step = {
  set: Updateable<ContractsTable>;
  kind: ContractEventKind;
  message: string | null;
  notice: NotificationKind;
  /** What the notice names besides the contract (a milestone released: its title and amount). */
  detail?: ModerationDetail;
  /** What the move does to the current milestone (and its money), in the same transaction. */
  milestone?: (trx: Kysely<Database>, milestone: MilestoneRow) => Promise<unknown>;
};

/** The milestone being worked on and whether another one follows it. */
type Work = { milestone: MilestoneRow | undefined; last: boolean };

async function workOf(trx: Kysely<Database>, row: ContractRow): Promise<Work> {
  const milestone = await currentMilestone(trx, row.id);
  if (!milestone) return { milestone, last: true };
  return { milestone, last: !(await hasLaterMilestone(trx, row, milestone.seq)) };
}

const stateOf = (row: ContractRow, work: Work): ContractState => ({ ...row, milestone: work.milestone ?? null });

/** Adds the next event to the contract's timeline; `events_count` is the contract's new count. */
export async function addEvent(
  trx: Kysely<Database>,
  contractId: string,
  seq: number,
  event: NewContractEvent,
): Promise<ContractEventRow> {
  const row = await insertEvent(trx, contractId, seq, event);
  await publishContractMove(trx, contractId);
  return row;
}

/**
 * One move by one side: checks the rules on the row read, then updates it only while it is still
 * in that state (else 409), records the event (and its files) and tells the other side.
 */
async function move(
  user: UserRow,
  id: string,
  action: ContractAction,
  step: (row: ContractRow, party: ContractParty, at: string, work: Work) => Step,
  files: SavedAttachment[] = [],
): Promise<ContractEventJson> {
  return transaction(async (trx) => {
    const { row, party } = await asParty(user, id, (id) =>
      trx.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst(),
    );
    const work = await workOf(trx, row);
    CONTRACT.assert(action, stateOf(row, work), party);
    const at = now();
    const { set, kind, message, notice, detail, milestone } = step(row, party, at, work);
    const updated = await trx
      .updateTable("contracts")
      .set({ ...set, events_count: sql<number>`events_count + 1`, updated_at: at })
      .where("id", "=", id)
      .where("status", "=", row.status)
      .where("deliveries_count", "=", row.deliveries_count)
      .where("cancel_requested_by", row.cancel_requested_by === null ? "is" : "=", row.cancel_requested_by)
      .where("disputed_at", "is", null)
      .returning("events_count")
      .executeTakeFirst();
    if (!updated) throw new AppError(409, "contract_changed");
    if (milestone && work.milestone) await milestone(trx, work.milestone);
    const event = await addEvent(trx, id, updated.events_count, { kind, author: party, message, created_at: at });
    const fileRows: ContractFileRow[] = files.map((f) => ({
      id: randomUUID(),
      contract_id: id,
      event_id: event.id,
      ...f,
      created_at: at,
    }));
    await insertFiles(trx, user.id, "contract_files", fileRows);
    await notifyOtherSide(trx, party, row, notice, detail);
    return toEventJson(event, fileRows);
  });
}

export const ended = (by: ContractRow["ended_by"], at: string, reason: string | null = null) => ({
  ended_at: at,
  ended_by: by,
  end_reason: reason,
  delivered_at: null,
  review_due_at: null,
  cancel_requested_by: null,
  cancel_request_reason: null,
});

/**
 * The freelancer delivers: a message and up to 10 files (checked by content, 10 MB each). The
 * files are stored first and removed again if the delivery is refused.
 */
export async function deliverContract(
  freelancer: UserRow,
  id: string,
  input: unknown,
  files: Blob[] = [],
): Promise<ContractEventJson> {
  await consumeWrite(freelancer.id);
  const checked = checkFields(deliveryInputSchema, input);
  if (checked.data === null || files.length > MAX_DELIVERY_FILES) {
    // The message's problems and the files' in one answer.
    const fileErrors = await attachmentProblems(files, "files", MAX_DELIVERY_FILES, "files_too_many");
    throw new AppError(422, "validation_failed", { ...checked.errors, ...fileErrors }, { max: MAX_DELIVERY_FILES });
  }
  const { message } = checked.data;
  // Who may deliver is known before any file is stored.
  const { row, party } = await findForParticipant(freelancer, id);
  CONTRACT.assert("deliver", stateOf(row, await workOf(db, row)), party);
  const saved: SavedAttachment[] = [];
  try {
    for (const file of files) saved.push(await saveAttachment(file, "files"));
    return await move(
      freelancer,
      id,
      "deliver",
      (current, _party, at) => ({
        set: {
          status: "delivered",
          delivered_at: at,
          review_due_at: new Date(Date.parse(at) + REVIEW_DAYS * DAY_MS).toISOString(),
          reminded_at: null,
          // The WHERE holds deliveries_count at the value read.
          deliveries_count: current.deliveries_count + 1,
        },
        kind: "delivered",
        message,
        notice: "contract_delivered",
        milestone: (trx, m) =>
          moveMilestone(trx, m, { status: "delivered", deliveries_count: m.deliveries_count + 1 }, at),
      }),
      saved,
    );
  } catch (error) {
    await Promise.all(saved.map((f) => deleteAttachment(f.stored_name)));
    throw error;
  }
}

/**
 * The merchant approves the delivery: its milestone is released (with payments, its money goes
 * to the freelancer less the fee); the contract is completed with its last milestone, and is in
 * progress again for the next one otherwise.
 */
export async function approveContract(merchant: UserRow, id: string): Promise<ContractEventJson> {
  await consumeWrite(merchant.id);
  return move(merchant, id, "approve", (row, _party, at, work) => approval(row, "merchant", at, work));
}

/** Approval of the current milestone, by the merchant or by time. */
function approval(row: ContractRow, by: "merchant" | "system", at: string, work: Work): Step {
  const release = (trx: Kysely<Database>, m: MilestoneRow) => releaseMilestone(trx, row, m, at);
  if (work.last) {
    return {
      set: { status: "completed", ...ended(by, at) },
      kind: by === "system" ? "auto_completed" : "completed",
      message: null,
      notice: by === "system" ? "contract_auto_completed" : "contract_completed",
      // A milestone still proposed ends with the contract (cancelled), as with every other end.
      milestone: async (trx, m) => {
        await release(trx, m);
        await closeMilestones(trx, row, at);
      },
    };
  }
  return {
    set: { status: "in_progress", delivered_at: null, review_due_at: null, reminded_at: null },
    kind: "milestone_released",
    message: work.milestone?.title ?? null,
    // Not the end of the contract: the notice names the milestone and the amount it released.
    notice: "milestone_released",
    detail: work.milestone ? { milestone: work.milestone.title, amount_cents: work.milestone.amount_cents } : undefined,
    milestone: release,
  };
}

/** The merchant asks for changes with a message: the work is in progress again. */
export async function requestChanges(merchant: UserRow, id: string, input: unknown): Promise<ContractEventJson> {
  await consumeWrite(merchant.id);
  const { message } = parseInput(changeRequestInputSchema, input);
  return move(merchant, id, "request_changes", (_row, _party, at) => ({
    set: { status: "in_progress", delivered_at: null, review_due_at: null, reminded_at: null },
    kind: "changes_requested",
    message,
    notice: "contract_changes_requested",
    // An order's contract spends one of the package's revisions (409 past them).
    milestone: async (trx, m) => {
      await spendRevision(trx, id);
      await moveMilestone(trx, m, { status: "funded" }, at);
    },
  }));
}

/** Before any delivery: the merchant cancels, or the freelancer withdraws, with a reason. */
export async function cancelContract(user: UserRow, id: string, input: unknown): Promise<ContractEventJson> {
  await consumeWrite(user.id);
  const { reason } = parseInput(cancelInputSchema, input);
  return move(user, id, "cancel", (row, party, at) => ({
    set: { status: "cancelled", ...ended(party, at, reason) },
    kind: "cancelled",
    message: reason,
    notice: "contract_cancelled",
    milestone: refundAndClose(row, at),
  }));
}

/** A cancelled contract: the current milestone's escrow is owed back, the milestones after it are dropped. */
function refundAndClose(row: ContractRow, at: string) {
  return async (trx: Kysely<Database>, m: MilestoneRow) => {
    await refundMilestone(trx, row, m, at);
    await closeMilestones(trx, row, at);
  };
}

/** After a delivery: one side asks to cancel, with a reason; the other side answers. */
export async function requestCancellation(user: UserRow, id: string, input: unknown): Promise<ContractEventJson> {
  await consumeWrite(user.id);
  const { reason } = parseInput(cancelInputSchema, input);
  return move(user, id, "request_cancellation", (_row, party) => ({
    set: { cancel_requested_by: party, cancel_request_reason: reason },
    kind: "cancel_requested",
    message: reason,
    notice: "contract_cancel_requested",
  }));
}

/** The other side agrees: the contract is cancelled for the reason given in the request. */
export async function acceptCancellation(user: UserRow, id: string): Promise<ContractEventJson> {
  await consumeWrite(user.id);
  return move(user, id, "accept_cancellation", (row, _party, at) => ({
    set: { status: "cancelled", ...ended(row.cancel_requested_by, at, row.cancel_request_reason) },
    kind: "cancel_accepted",
    message: null,
    notice: "contract_cancelled",
    milestone: refundAndClose(row, at),
  }));
}

/** The other side refuses: the request is dropped and the contract goes on as it was. */
export async function declineCancellation(user: UserRow, id: string): Promise<ContractEventJson> {
  await consumeWrite(user.id);
  return move(user, id, "decline_cancellation", () => ({
    set: { cancel_requested_by: null, cancel_request_reason: null },
    kind: "cancel_declined",
    message: null,
    notice: "contract_cancel_declined",
  }));
}

// ---------------------------------------------------------------------------------------------
// The schedule: moves made by time, whoever opens the page

const SCHEDULE_BATCH = 200;

export type ScheduleResult = { completed: number; reminded: number; overdue: number };

/**
 * Completes the deliveries left unanswered for REVIEW_DAYS, reminds the merchant when
 * REMINDER_DAYS_LEFT are left, and marks the work past its due date. Every server process runs
 * it (startContractSchedule): each change is a conditional UPDATE of one row in its own
 * transaction, so when two processes reach the same contract one makes the change and the other
 * updates nothing (and notifies nobody). A delivery with a cancellation request waiting for an
 * answer is not completed: the merchant has answered it with that request.
 */
export async function runContractSchedule(at = new Date()): Promise<ScheduleResult> {
  const stamp = at.toISOString();
  // A contract under dispute waits for the operator: no automatic completion, reminder or overdue mark.
  const delivered = (eb: ContractsWhere) => [
    eb("status", "=", "delivered"),
    eb("cancel_requested_by", "is", null),
    eb("disputed_at", "is", null),
  ];

  const completed = await autoApprove((eb) => eb.and([...delivered(eb), eb("review_due_at", "<=", stamp)]), stamp);

  const remindBefore = new Date(at.getTime() + REMINDER_DAYS_LEFT * DAY_MS).toISOString();
  const reminded = await eachOnce(
    (eb) => eb.and([...delivered(eb), eb("review_due_at", "<=", remindBefore), eb("reminded_at", "is", null)]),
    { reminded_at: stamp },
    (trx, row) =>
      notify(trx, {
        user_id: row.merchant_id,
        kind: "contract_review_reminder",
        application_id: row.id,
        opportunity_id: row.opportunity_id,
      }),
  );

  const overdue = await eachOnce(
    (eb) =>
      eb.and([
        eb("status", "=", "in_progress"),
        eb("due_at", "<", stamp),
        eb("overdue_at", "is", null),
        eb("disputed_at", "is", null),
        // An hourly contract has weeks, not a due date.
        eb("kind", "=", "fixed"),
        // With payments the deadline runs only while the milestone in hand is paid for.
        eb.or([
          eb("payments", "=", "off"),
          eb.exists(
            eb
              .selectFrom("milestones as wm")
              .select("wm.id")
              .whereRef("wm.contract_id", "=", "contracts.id")
              .where("wm.status", "=", "funded"),
          ),
        ]),
      ]),
    { overdue_at: stamp, events_count: sql<number>`events_count + 1` },
    async (trx, row) => {
      await addEvent(trx, row.id, row.events_count, {
        kind: "overdue",
        author: "system",
        message: null,
        created_at: stamp,
      });
      await notifyBoth(trx, row, "contract_overdue");
    },
  );
  return { completed, reminded, overdue };
}

type ContractsWhere = ExpressionBuilder<Database, "contracts">;

/**
 * Approves, as the merchant would, the deliveries `which` selects, each in a transaction of its
 * own whose UPDATE repeats `which`: the current milestone is released, and the contract is
 * completed with its last one (in progress again for the next one before that).
 */
async function autoApprove(which: (eb: ContractsWhere) => Expression<SqlBool>, stamp: string): Promise<number> {
  const found = await db.selectFrom("contracts").select("id").where(which).limit(SCHEDULE_BATCH).execute();
  let changed = 0;
  for (const { id } of found) {
    const done = await transaction(async (trx) => {
      const row = await trx.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) return false;
      const work = await workOf(trx, row);
      const step = approval(row, "system", stamp, work);
      const updated = await trx
        .updateTable("contracts")
        .set({ ...step.set, events_count: sql<number>`events_count + 1`, updated_at: stamp })
        .where("id", "=", id)
        .where(which)
        .returning(["id", "events_count", "merchant_id", "freelancer_id", "opportunity_id"])
        .executeTakeFirst();
      if (!updated) return false;
      if (step.milestone && work.milestone) await step.milestone(trx, work.milestone);
      await addEvent(trx, id, updated.events_count, {
        kind: step.kind,
        author: "system",
        message: step.message,
        created_at: stamp,
      });
      await notifyBoth(trx, updated, step.notice, step.detail);
      return true;
    });
    if (done) changed++;
  }
  return changed;
}
type Changed = Pick<ContractRow, "id" | "events_count" | "merchant_id" | "freelancer_id" | "opportunity_id">;

/**
 * Finds the contracts `which` selects and changes each in a transaction of its own, with `which`
 * repeated in the UPDATE's WHERE: a contract another process changed first is left alone, and
 * `then` (the event, the notifications) runs only for the rows this run changed. Returns how many.
 */
async function eachOnce(
  which: (eb: ContractsWhere) => Expression<SqlBool>,
  set: UpdateObject<Database, "contracts">,
  then: (trx: Kysely<Database>, row: Changed) => Promise<unknown>,
): Promise<number> {
  const found = await db.selectFrom("contracts").select("id").where(which).limit(SCHEDULE_BATCH).execute();
  let changed = 0;
  for (const { id } of found) {
    const done = await transaction(async (trx) => {
      const row = await trx
        .updateTable("contracts")
        .set(set)
        .where("id", "=", id)
        .where(which)
        .returning(["id", "events_count", "merchant_id", "freelancer_id", "opportunity_id"])
        .executeTakeFirst();
      if (!row) return false;
      await then(trx, row);
      return true;
    });
    if (done) changed++;
  }
  return changed;
}

function notifyBoth(trx: Kysely<Database>, row: Changed, kind: NotificationKind, detail?: ModerationDetail) {
  return notify(
    trx,
    [row.merchant_id, row.freelancer_id].map((user_id) => ({
      user_id,
      kind,
      application_id: row.id,
      opportunity_id: row.opportunity_id,
      detail,
    })),
  );
}

/**
 * Runs the schedule every `interval` ms (CONTRACT_SCHEDULE_SECONDS) in this server process; each
 * process of `npm start` runs its own (see runContractSchedule for why that is safe). The timer
 * does not keep a stopping server alive.
 */
export function startContractSchedule(interval: number) {
  return every(
    interval,
    "[contracts] schedule failed",
    async () => {
      await runContractSchedule();
      await runHourlySchedule();
      await runMonthlySchedule();
      await runRecurringSchedule();
      await runDisputeReminders();
      await publishDueReviews();
    },
    { firstAfter: Math.min(interval, 5_000) },
  );
}
