import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { disputeOpenInputSchema, disputeStatementInputSchema } from "~/lib/dispute-schemas";
import { DISPUTE_REMINDER_DAYS_LEFT, DISPUTE_RESPONSE_DAYS, MAX_DISPUTE_FILES } from "~/lib/disputes";
import { db, transaction } from "../../../db";
import type { ContractFileRow, ContractParty, ContractRow, Database, DisputeRow, UserRow } from "../../../db/schema";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import { currentMilestone } from "../payments/escrow.server";
import { asParty } from "../platform/participants.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { deleteAttachment, saveAttachment, type SavedAttachment } from "../platform/uploads.server";
import { notify } from "../messaging/notifications.server";
import { addEvent, assertContractMove, toEventJson, type ContractEventJson } from "./contracts.server";
import { holdWeekToDispute, weekToDispute } from "./hourly.server";
import { toDisputeJson, type DisputeJson } from "./dispute-json";

// A dispute, seen from the contract's two sides (docs/product.md, "Disputas"): either side opens
// one on a contract in progress or delivered, with a reason and a statement; the contract is
// frozen (contracts.disputed_at: no move, no automatic completion, no overdue mark) until an
// operator decides (services/operator/disputes.server.ts). Both sides add statements and files
// while it is open; the other side has DISPUTE_RESPONSE_DAYS to answer and is reminded once.
// Statements are events of the contract's timeline, so the contract's record stays in one place.

const DAY_MS = 86_400_000;
const ACTIVE = ["in_progress", "delivered"] as const;

const other = (party: ContractParty): ContractParty => (party === "merchant" ? "freelancer" : "merchant");

function readContract(database: Kysely<Database>) {
  return (id: string) => database.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Stores the files first (checked by content) and removes them again if `then` fails. */
async function withFiles<T>(files: Blob[], then: (saved: SavedAttachment[]) => Promise<T>): Promise<T> {
  if (files.length > MAX_DISPUTE_FILES) {
    throw new AppError(422, "validation_failed", { files: "files_too_many" }, { max: MAX_DISPUTE_FILES });
  }
  const saved: SavedAttachment[] = [];
  try {
    for (const file of files) saved.push(await saveAttachment(file, "files"));
    return await then(saved);
  } catch (error) {
    await Promise.all(saved.map((f) => deleteAttachment(f.stored_name)));
    throw error;
  }
}

/**
 * A side's statement: the timeline's event with its files, in the transaction, and the other
 * side told (`contract_<kind>`).
 */
async function statementEvent(
  trx: Kysely<Database>,
  row: ContractRow,
  seq: number,
  kind: "dispute_opened" | "dispute_statement",
  author: ContractParty,
  message: string,
  saved: SavedAttachment[],
  at: string,
): Promise<ContractEventJson> {
  const contractId = row.id;
  const event = await addEvent(trx, contractId, seq, { kind, author, message, created_at: at });
  const fileRows: ContractFileRow[] = saved.map((f) => ({
    id: randomUUID(),
    contract_id: contractId,
    event_id: event.id,
    ...f,
    created_at: at,
  }));
  if (fileRows.length) await trx.insertInto("contract_files").values(fileRows).execute();
  await notify(trx, {
    user_id: author === "merchant" ? row.freelancer_id : row.merchant_id,
    kind: `contract_${kind}`,
    application_id: contractId,
    opportunity_id: row.opportunity_id,
  });
  return toEventJson(event, fileRows);
}

/**
 * One side opens a dispute: the contract must be in progress or delivered and have none open
 * (409 otherwise, also for the second of two sides opening at once: the UPDATE holds
 * `disputed_at IS NULL` and the state read). The other side is told and has 5 days to answer.
 */
export async function openDispute(
  user: UserRow,
  contractId: string,
  input: unknown,
  files: Blob[] = [],
): Promise<{ dispute: DisputeJson; event: ContractEventJson }> {
  await consumeWrite(user.id);
  const { reason, statement, week } = parseInput(disputeOpenInputSchema, input);
  // Who may open is known before any file is stored; an hourly contract's dispute is of a week.
  const { row, party } = await asParty(user, contractId, readContract(db));
  const weekStart = row.kind === "hourly" ? weekToDispute(week) : null;
  if (weekStart === null) assertContractMove("open_dispute", row, party);
  return withFiles(files, (saved) =>
    transaction(async (trx) => {
      const at = now();
      // The week's row first, as every move of a questioned week (hourly.server.ts).
      const weekMilestone = weekStart ? await holdWeekToDispute(trx, row, party, weekStart, at) : null;
      const updated = await trx
        .updateTable("contracts")
        .set({ disputed_at: at, events_count: sql<number>`events_count + 1`, updated_at: at })
        .where("id", "=", contractId)
        .where("status", "=", row.status)
        .where("disputed_at", "is", null)
        .returning("events_count")
        .executeTakeFirst();
      if (!updated) throw new AppError(409, "contract_changed");
      // The dispute is about the milestone being worked on (docs/payments.md, "Disputas"), or the week's.
      const milestone = weekMilestone ? { id: weekMilestone } : await currentMilestone(trx, contractId);
      const dispute: DisputeRow = {
        id: randomUUID(),
        contract_id: contractId,
        opened_by: party,
        reason,
        status: "open",
        respond_by: new Date(Date.parse(at) + DISPUTE_RESPONSE_DAYS * DAY_MS).toISOString(),
        answered_at: null,
        reminded_at: null,
        decision: null,
        decision_reason: null,
        decided_by: null,
        decided_at: null,
        milestone_id: milestone?.id ?? null,
        created_at: at,
        updated_at: at,
      };
      // One open dispute per contract at a time (a partial unique index); decided ones stay on record.
      await oneOnly("disputes", new AppError(409, "contract_disputed"), () =>
        trx.insertInto("disputes").values(dispute).execute(),
      );
      const event = await statementEvent(trx, row, updated.events_count, "dispute_opened", party, statement, saved, at);
      return { dispute: toDisputeJson(dispute), event };
    }),
  );
}

/**
 * A side adds a statement (and files) to the open dispute; the other side's first one is its
 * answer (answered_at), which stops the reminder. 409 once the dispute is decided.
 */
export async function addDisputeStatement(
  user: UserRow,
  contractId: string,
  input: unknown,
  files: Blob[] = [],
): Promise<ContractEventJson> {
  await consumeWrite(user.id);
  const { statement } = parseInput(disputeStatementInputSchema, input);
  const { row, party } = await asParty(user, contractId, readContract(db));
  assertContractMove("add_dispute_statement", row, party);
  return withFiles(files, (saved) =>
    transaction(async (trx) => {
      const at = now();
      const updated = await trx
        .updateTable("contracts")
        .set({ events_count: sql<number>`events_count + 1`, updated_at: at })
        .where("id", "=", contractId)
        .where("status", "in", ACTIVE)
        .where("disputed_at", "is not", null)
        .returning("events_count")
        .executeTakeFirst();
      if (!updated) throw new AppError(409, "dispute_not_open");
      await trx
        .updateTable("disputes")
        .set({ answered_at: at, updated_at: at })
        .where("contract_id", "=", contractId)
        .where("status", "=", "open")
        .where("opened_by", "=", other(party))
        .where("answered_at", "is", null)
        .execute();
      return statementEvent(trx, row, updated.events_count, "dispute_statement", party, statement, saved, at);
    }),
  );
}

const REMINDER_BATCH = 200;

/**
 * Reminds the side that has not answered an open dispute when DISPUTE_REMINDER_DAYS_LEFT are
 * left (once). Every server process runs it with the contracts' schedule: each reminder is a
 * conditional UPDATE of one row in its own transaction, so of two processes reaching the same
 * dispute one reminds and the other updates nothing. Returns how many were reminded.
 */
export async function runDisputeReminders(at = new Date()): Promise<number> {
  const stamp = at.toISOString();
  const before = new Date(at.getTime() + DISPUTE_REMINDER_DAYS_LEFT * DAY_MS).toISOString();
  const due = await db
    .selectFrom("disputes")
    .select("id")
    .where("status", "=", "open")
    .where("answered_at", "is", null)
    .where("reminded_at", "is", null)
    .where("respond_by", "<=", before)
    .limit(REMINDER_BATCH)
    .execute();
  let reminded = 0;
  for (const { id } of due) {
    const done = await transaction(async (trx) => {
      const dispute = await trx
        .updateTable("disputes")
        .set({ reminded_at: stamp })
        .where("id", "=", id)
        .where("status", "=", "open")
        .where("answered_at", "is", null)
        .where("reminded_at", "is", null)
        .returning(["contract_id", "opened_by"])
        .executeTakeFirst();
      if (!dispute) return false;
      const contract = await trx
        .selectFrom("contracts")
        .select(["merchant_id", "freelancer_id", "opportunity_id"])
        .where("id", "=", dispute.contract_id)
        .executeTakeFirstOrThrow();
      await notify(trx, {
        user_id: dispute.opened_by === "merchant" ? contract.freelancer_id : contract.merchant_id,
        kind: "contract_dispute_reminder",
        application_id: dispute.contract_id,
        opportunity_id: contract.opportunity_id,
      });
      return true;
    });
    if (done) reminded++;
  }
  return reminded;
}
