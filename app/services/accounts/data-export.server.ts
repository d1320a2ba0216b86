import { randomUUID } from "node:crypto";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { config } from "~/config.server";
import { db, transaction } from "../../../db";
import type { ContractParty, Database, DataExportsTable, UserRow } from "../../../db/schema";
import { queueAccountEmail } from "../messaging/account-email.server";
import { AppError } from "../platform/errors.server";
import { every } from "../platform/jobs.server";
import { consume, limiters } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import {
  deleteExportFile,
  openExportFile,
  readAttachment,
  readExportFile,
  readPhoto,
  type ExportFileWriter,
} from "../platform/uploads.server";
import { twoFactorState } from "./two-factor.server";

// A copy of a user's data (LGPD art. 18; docs/product.md, "Seus dados"). The user asks for it
// (requestDataExport); while one waits or is being built, asking again answers that one. Every
// server process runs the export job (startDataExports, on the outbox's timer): it claims one
// waiting copy with one conditional UPDATE (status 'pending', or 'building' whose lease ran out —
// a process that died mid-build), builds the ZIP (collectPersonalData: one JSON per kind plus the
// user's own files), stores it in the file store and marks it 'ready' for 7 days under its claim
// only, queuing the e-mail with the link in the same transaction. A build whose claim was taken
// over meanwhile deletes its ZIP and records nothing. Expired copies lose their file
// (expireDataExports, in the housekeeping) and answer 410.

export const EXPORT_VALID_DAYS = 7;
const DAY_MS = 86_400_000;
/** How long a claim holds a copy: far more than a build takes. */
const LEASE_MS = 10 * 60_000;
/** Waiting copies a job looks at when claiming one (others' claims pass it to the next). */
const CLAIM_CANDIDATES = 5;
/** Builds tried before a copy is given up ('failed'). */
export const EXPORT_MAX_ATTEMPTS = 3;

type ExportRow = Selectable<DataExportsTable>;

export type DataExportJson = {
  id: string;
  /** 'pending' while it waits or is built, then 'ready' until expires_at, then 'expired'; 'failed' when it could not be built. */
  status: "pending" | "ready" | "expired" | "failed";
  created_at: string;
  ready_at: string | null;
  expires_at: string | null;
  size_bytes: number | null;
  /** Where the ZIP is downloaded (signed in as its owner), while ready. */
  download_url: string | null;
};

export function toExportJson(row: ExportRow, at = new Date()): DataExportJson {
  const expired =
    row.status === "expired" ||
    (row.status === "ready" && !!row.expires_at && Date.parse(row.expires_at) <= at.getTime());
  const status = expired ? "expired" : row.status === "building" ? "pending" : row.status;
  return {
    id: row.id,
    status,
    created_at: row.created_at,
    ready_at: row.ready_at,
    expires_at: row.expires_at,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    download_url: status === "ready" ? downloadPath(row.id) : null,
  };
}

/** The page that hands the ZIP to its owner; the e-mail's link is APP_URL plus this. */
export const downloadPath = (id: string) => `/account/data-export/${id}`;

const waiting = (eb: ExpressionBuilder<Database, "data_exports">) => eb("status", "in", ["pending", "building"]);

/** The user's latest copy (the one the page and GET /api/account/export show), or null. */
export async function dataExportState(user: Pick<UserRow, "id">, at = new Date()): Promise<DataExportJson | null> {
  const row = await db
    .selectFrom("data_exports")
    .selectAll()
    .where("user_id", "=", user.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toExportJson(row, at) : null;
}

/**
 * Asks for a copy of the user's data. One copy waits at a time: while one does, asking again
 * answers it (`created: false`) and spends no attempt of the rate limit (3 a day).
 */
export async function requestDataExport(
  user: Pick<UserRow, "id">,
): Promise<{ export: DataExportJson; created: boolean }> {
  const pending = await waitingExport(user.id);
  if (pending) return { export: toExportJson(pending), created: false };
  await consume(limiters.exportByUser, user.id, "data_export_rate_limited");
  const row: ExportRow = {
    id: randomUUID(),
    user_id: user.id,
    status: "pending",
    claim: null,
    locked_until: null,
    attempts: 0,
    last_error: null,
    file_name: null,
    size_bytes: null,
    created_at: now(),
    ready_at: null,
    expires_at: null,
  };
  try {
    await db.insertInto("data_exports").values(row).execute();
  } catch (error) {
    // Two asks at once: the unique index over waiting copies let one in; answer that one.
    const other = await waitingExport(user.id);
    if (other) return { export: toExportJson(other), created: false };
    throw error;
  }
  return { export: toExportJson(row), created: true };
}

function waitingExport(userId: string) {
  return db.selectFrom("data_exports").selectAll().where("user_id", "=", userId).where(waiting).executeTakeFirst();
}

/** Copies a job may take at `stamp`: waiting, or being built by a job whose lease ran out. */
const claimable = (stamp: string) => (eb: ExpressionBuilder<Database, "data_exports">) =>
  eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "building"), eb("locked_until", "<=", stamp)])]);

/**
 * Claims the oldest claimable copy for this job alone, or null. Each candidate is taken by one
 * conditional UPDATE that repeats the condition: of two jobs after the same copy, one updates it
 * and the other finds it no longer claimable (PostgreSQL re-reads the row once the first commits)
 * and tries the next. (An UPDATE … WHERE id IN (SELECT … LIMIT 1 FOR UPDATE SKIP LOCKED) is not
 * used here: PostgreSQL may run that subquery more than once and claim several rows at once.)
 */
export async function claimDataExport(at = new Date()): Promise<ExportRow | null> {
  const stamp = at.toISOString();
  const claim = randomUUID();
  const candidates = await db
    .selectFrom("data_exports")
    .select("id")
    .where(claimable(stamp))
    .orderBy("created_at")
    .limit(CLAIM_CANDIDATES)
    .execute();
  for (const { id } of candidates) {
    const row = await db
      .updateTable("data_exports")
      .set({
        status: "building",
        claim,
        locked_until: new Date(at.getTime() + LEASE_MS).toISOString(),
        attempts: sql<number>`attempts + 1`,
      })
      .where("id", "=", id)
      .where(claimable(stamp))
      .returningAll()
      .executeTakeFirst();
    if (row) return row;
  }
  return null;
}

/**
 * Builds a claimed copy and records it as ready under its claim, with the e-mail. Returns false
 * when the claim was taken over meanwhile (the ZIP is then deleted, nothing recorded); when
 * recording fails, the ZIP is deleted too and the error goes on (the job puts the copy back).
 */
export async function buildDataExport(row: ExportRow, at = new Date()): Promise<boolean> {
  const file = await openExportFile();
  let size: number;
  try {
    size = await writeZip(row.user_id, file, at);
    await file.close();
  } catch (error) {
    await file.abort();
    throw error;
  }
  const name = file.name;
  const readyAt = at.toISOString();
  const expiresAt = new Date(at.getTime() + EXPORT_VALID_DAYS * DAY_MS).toISOString();
  // The ZIP goes again unless the copy is recorded ready with it: claim lost, or a failure.
  let done = false;
  try {
    done = await transaction(async (trx) => {
      const r = await trx
        .updateTable("data_exports")
        .set({
          status: "ready",
          claim: null,
          locked_until: null,
          last_error: null,
          file_name: name,
          size_bytes: size,
          ready_at: readyAt,
          expires_at: expiresAt,
        })
        .where("id", "=", row.id)
        .where("claim", "=", row.claim)
        .where("status", "=", "building")
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await queueAccountEmail(trx, row.user_id, "data_export_ready", {
        params: { link: `${config.APP_URL}${downloadPath(row.id)}`, days: String(EXPORT_VALID_DAYS) },
      });
      return true;
    });
  } finally {
    if (!done) await deleteExportFile(name);
  }
  return done;
}

/** Claims and builds waiting copies one by one until none is left; returns how many were built. */
export async function runDataExports({ at, limit = 10 }: { at?: Date; limit?: number } = {}): Promise<number> {
  let built = 0;
  for (let i = 0; i < limit; i++) {
    const row = await claimDataExport(at);
    if (!row) break;
    try {
      if (await buildDataExport(row, at)) built++;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await db
        .updateTable("data_exports")
        .set({
          status: row.attempts >= EXPORT_MAX_ATTEMPTS ? "failed" : "pending",
          claim: null,
          locked_until: null,
          last_error: message,
        })
        .where("id", "=", row.id)
        .where("claim", "=", row.claim)
        .execute();
      console.error(`[export] copy ${row.id} failed (attempt ${row.attempts}): ${message}`);
    }
  }
  return built;
}

/** Runs the export job every `interval` ms in this process (every process runs one; claims keep them apart). */
export function startDataExports(interval: number) {
  return every(interval, "[export] data export job failed", () => runDataExports());
}

/**
 * Expired copies lose their ZIP: marked 'expired' by one conditional UPDATE (one process wins
 * each), then their files deleted. Returns how many.
 */
export async function expireDataExports(at = new Date()): Promise<number> {
  const stamp = at.toISOString();
  const due = await db
    .selectFrom("data_exports")
    .select(["id", "file_name"])
    .where("status", "=", "ready")
    .where("expires_at", "<=", stamp)
    .execute();
  let expired = 0;
  for (const row of due) {
    const r = await db
      .updateTable("data_exports")
      .set({ status: "expired", file_name: null })
      .where("id", "=", row.id)
      .where("status", "=", "ready")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) continue;
    await deleteExportFile(row.file_name);
    expired++;
  }
  return expired;
}

/**
 * The ZIP of one of the user's copies: 404 when it is not theirs (or no such copy), 410 once it
 * expired, 409 while it is not built yet.
 */
export async function readDataExport(
  user: Pick<UserRow, "id">,
  id: string,
  at = new Date(),
): Promise<{ name: string; body: Buffer }> {
  const row = await db
    .selectFrom("data_exports")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "data_export_not_found");
  const state = toExportJson(row, at);
  if (state.status === "expired") throw new AppError(410, "data_export_expired");
  if (state.status !== "ready" || !row.file_name) throw new AppError(409, "data_export_not_ready");
  const file = await readExportFile(row.file_name);
  if (!file) throw new AppError(410, "data_export_expired");
  return { name: `freela-meus-dados-${row.ready_at!.slice(0, 10)}.zip`, body: file.body };
}

/** The latest ready copy of the user (GET /api/account/export/download). */
export async function readLatestDataExport(user: Pick<UserRow, "id">, at = new Date()) {
  const state = await dataExportState(user, at);
  if (!state) throw new AppError(404, "data_export_not_found");
  if (state.status === "expired") throw new AppError(410, "data_export_expired");
  if (state.status !== "ready") throw new AppError(409, "data_export_not_ready");
  return readDataExport(user, state.id, at);
}

// ---- What the copy holds ----------------------------------------------------------------------

type FileEntry = { path: string; read: () => Promise<{ body: Buffer } | null> };

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
const parseList = (text: string | null) => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
};
/** A name safe inside the ZIP: no folders, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const safe = (name: string) => name.replace(/[\\/\u0000-\u001f\u007f]/g, "_").slice(0, 120) || "arquivo";

/**
 * Everything the copy holds for one user: the JSON of each kind (by file name) and the user's own
 * files (by their path in the ZIP). Nothing of another user's private data: not the other side's
 * messages, offers or words, not their e-mail; another user appears by id only.
 */
export async function collectPersonalData(userId: string, at = new Date()) {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const files: FileEntry[] = [];
  const {
    password_hash: _hash,
    search_text: _text,
    search_skills: _skills,
    search_city: _city,
    sort_name: _sort,
    ...profile
  } = user;
  const photos = [user.photo_path, user.hidden_photo_path].filter((p): p is string => !!p);
  for (const photo of photos) files.push({ path: `files/profile/${safe(photo)}`, read: () => readPhoto(photo) });

  const [
    opportunities,
    ownApplications,
    receivedApplications,
    contracts,
    portfolio,
    notifications,
    optOuts,
    savedSearches,
    sessions,
    passkeys,
    twoFactor,
    terms,
    reports,
    given,
    received,
    invitations,
  ] = await Promise.all([
    db.selectFrom("opportunities").selectAll().where("merchant_id", "=", userId).orderBy("created_at").execute(),
    db.selectFrom("applications").selectAll().where("freelancer_id", "=", userId).orderBy("created_at").execute(),
    // Applications to the merchant's opportunities: the merchant's side only (the proposal is the freelancer's).
    db
      .selectFrom("applications as a")
      .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
      .select([
        "a.id",
        "a.opportunity_id",
        "a.freelancer_id",
        "a.status",
        "a.rejection_reason",
        "a.rejection_message",
        "a.created_at",
        "a.updated_at",
      ])
      .where("o.merchant_id", "=", userId)
      .orderBy("a.created_at")
      .execute(),
    db
      .selectFrom("contracts")
      .selectAll()
      .where((eb) => eb.or([eb("merchant_id", "=", userId), eb("freelancer_id", "=", userId)]))
      .orderBy("created_at")
      .execute(),
    db.selectFrom("portfolio_items").selectAll().where("user_id", "=", userId).orderBy("created_at").execute(),
    db.selectFrom("notifications").selectAll().where("user_id", "=", userId).orderBy("created_at").execute(),
    db.selectFrom("email_opt_outs").select(["kind", "created_at"]).where("user_id", "=", userId).execute(),
    db
      .selectFrom("saved_searches")
      .select(["id", "name", "filters", "frequency", "last_sent_at", "created_at", "updated_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("sessions")
      .select(["public_id", "user_agent", "ip", "created_at", "last_used_at", "expires_at", "passkey_id"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("passkeys")
      .select(["name", "created_at", "last_used_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    twoFactorState(user),
    db
      .selectFrom("terms_acceptances")
      .select(["version", "ip", "accepted_at"])
      .where("user_id", "=", userId)
      .orderBy("accepted_at")
      .execute(),
    db
      .selectFrom("reports")
      .select([
        "id",
        "target_type",
        "target_id",
        "reason",
        "details",
        "status",
        "resolution",
        "resolved_at",
        "created_at",
      ])
      .where("reporter_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db.selectFrom("reviews").selectAll().where("author_id", "=", userId).orderBy("created_at").execute(),
    // Reviews of the user once published (blind until then, like on the profile).
    db
      .selectFrom("reviews")
      .select([
        "id",
        "contract_id",
        "author_role",
        "rating",
        "comment",
        "reply",
        "replied_at",
        "published_at",
        "hidden_at",
        "reply_hidden_at",
        "created_at",
      ])
      .where("subject_id", "=", userId)
      .where("published_at", "is not", null)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("invitations")
      .selectAll()
      .where((eb) => eb.or([eb("merchant_id", "=", userId), eb("freelancer_id", "=", userId)]))
      .orderBy("created_at")
      .execute(),
  ]);
  for (const item of portfolio) {
    const image = item.image_path;
    if (image) files.push({ path: `files/portfolio/${safe(image)}`, read: () => readPhoto(image) });
  }

  // The user's side in each of their contracts and conversations.
  const sideIn = new Map<string, ContractParty>(
    contracts.map((c) => [c.id, c.merchant_id === userId ? "merchant" : "freelancer"]),
  );
  const contractIds = [...sideIn.keys()];
  const applicationSides: [string, ContractParty][] = [
    ...ownApplications.map((a): [string, ContractParty] => [a.id, "freelancer"]),
    ...receivedApplications.map((a): [string, ContractParty] => [a.id, "merchant"]),
  ];
  const applicationSide = new Map(applicationSides);
  const applicationIds = [...applicationSide.keys()];

  const [offers, events, contractFiles, messages, messageFiles, disputes, milestones] = await Promise.all([
    applicationIds.length
      ? db.selectFrom("offers").selectAll().where("application_id", "in", applicationIds).orderBy("seq").execute()
      : [],
    contractIds.length
      ? db.selectFrom("contract_events").selectAll().where("contract_id", "in", contractIds).orderBy("seq").execute()
      : [],
    contractIds.length
      ? db.selectFrom("contract_files").selectAll().where("contract_id", "in", contractIds).execute()
      : [],
    applicationIds.length
      ? db.selectFrom("messages").selectAll().where("application_id", "in", applicationIds).orderBy("seq").execute()
      : [],
    applicationIds.length
      ? db.selectFrom("message_files").selectAll().where("application_id", "in", applicationIds).execute()
      : [],
    contractIds.length ? db.selectFrom("disputes").selectAll().where("contract_id", "in", contractIds).execute() : [],
    contractIds.length
      ? db.selectFrom("milestones").selectAll().where("contract_id", "in", contractIds).orderBy("seq").execute()
      : [],
  ]);

  const ownOffers = offers.filter((o) => applicationSide.get(o.application_id) === o.author);
  const ownEvents = events.filter((e) => sideIn.get(e.contract_id) === e.author);
  const ownEventIds = new Set(ownEvents.map((e) => e.id));
  const filesOf = (eventId: string) =>
    contractFiles
      .filter((f) => f.event_id === eventId && ownEventIds.has(eventId))
      .map((f) => {
        const path = `files/deliveries/${f.contract_id}/${f.id}-${safe(f.original_name)}`;
        files.push({ path, read: () => readAttachment(f.stored_name) });
        return { id: f.id, name: f.original_name, content_type: f.content_type, size_bytes: f.size_bytes, path };
      });
  const eventJson = (e: (typeof events)[number]) => ({
    id: e.id,
    contract_id: e.contract_id,
    seq: e.seq,
    kind: e.kind,
    message: e.message,
    created_at: e.created_at,
    files: filesOf(e.id),
  });
  const ownMessages = messages.filter((m) => applicationSide.get(m.application_id) === m.author);
  const ownMessageIds = new Set(ownMessages.map((m) => m.id));
  const messageJson = ownMessages.map((m) => ({
    id: m.id,
    application_id: m.application_id,
    seq: m.seq,
    body: m.body,
    hidden_at: m.hidden_at,
    hidden_reason: m.hidden_reason,
    created_at: m.created_at,
    files: messageFiles
      .filter((f) => f.message_id === m.id && ownMessageIds.has(m.id))
      .map((f) => {
        const path = `files/messages/${f.application_id}/${f.id}-${safe(f.original_name)}`;
        files.push({ path, read: () => readAttachment(f.stored_name) });
        return { id: f.id, name: f.original_name, content_type: f.content_type, size_bytes: f.size_bytes, path };
      }),
  }));

  // Payments: the user's payout account, payouts, refunds, charges, and ledger lines that concern them.
  const [payoutAccount, payouts, refunds, charges, entries, ledgerTransactions] = await Promise.all([
    db
      .selectFrom("payout_accounts")
      .select(["key_type", "pix_key", "holder_name", "holder_document", "updated_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("payouts")
      .select([
        "id",
        "amount_cents",
        "key_type",
        "pix_key",
        "holder_name",
        "holder_document",
        "status",
        "e2e_id",
        "failure_reason",
        "decided_at",
        "created_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("refunds")
      .select(["id", "contract_id", "milestone_id", "amount_cents", "status", "e2e_id", "decided_at", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("pix_charges")
      .select([
        "id",
        "milestone_id",
        "contract_id",
        "provider",
        "txid",
        "amount_cents",
        "status",
        "e2e_id",
        "expires_at",
        "paid_at",
        "created_at",
      ])
      .where("merchant_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("ledger_entries as e")
      .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
      .select(["e.id", "e.transaction_id", "e.account", "e.amount_cents", "e.created_at", "t.kind", "t.contract_id"])
      .where("e.user_id", "=", userId)
      .orderBy("e.created_at")
      .execute(),
    db
      .selectFrom("ledger_transactions")
      .select([
        "id",
        "kind",
        "contract_id",
        "milestone_id",
        "charge_id",
        "payout_id",
        "refund_id",
        "memo",
        "created_at",
      ])
      .where((eb) => eb.or([eb("merchant_id", "=", userId), eb("freelancer_id", "=", userId)]))
      .orderBy("created_at")
      .execute(),
  ]);

  // Their fiscal identity as typed and decided, with the photos sent while they are kept.
  const identity = await db.selectFrom("identities").selectAll().where("user_id", "=", userId).executeTakeFirst();
  const identityJson = identity && {
    kind: identity.kind,
    document: identity.document,
    legal_name: identity.legal_name,
    birth_date: identity.birth_date,
    responsible_cpf: identity.responsible_cpf,
    status: identity.status,
    doc_type: identity.doc_type,
    submitted_at: identity.submitted_at,
    decided_at: identity.decided_at,
    reason: identity.reason,
    files_deleted_at: identity.files_deleted_at,
    files: (["front_file", "back_file", "selfie_file"] as const).flatMap((column) => {
      const name = identity[column];
      if (!name) return [];
      const path = `files/identity/${column.replace("_file", "")}.${name.split(".").pop()}`;
      files.push({ path, read: () => readAttachment(name) });
      return [path];
    }),
  };
  const kinds: Record<string, unknown> = {
    "profile.json": { ...profile, skills: parseList(user.skills) },
    "opportunities.json": opportunities.map((o) => ({ ...o, skills: parseList(o.skills) })),
    // The merchant's message with a refusal is their words: in the merchant's copy only.
    "applications.json": {
      as_freelancer: ownApplications.map(({ rejection_message: _theirs, ...a }) => a),
      as_merchant: receivedApplications,
    },
    "offers.json": ownOffers,
    "contracts.json": contracts.map((c) => contractJson(c, sideIn.get(c.id)!)),
    "deliveries.json": ownEvents.filter((e) => e.kind === "delivered").map(eventJson),
    "change_requests.json": ownEvents.filter((e) => e.kind === "changes_requested").map(eventJson),
    "contract_events.json": ownEvents
      .filter((e) => e.kind !== "delivered" && e.kind !== "changes_requested")
      .map(eventJson),
    "disputes.json": disputes.map((d) => {
      const ours = sideIn.get(d.contract_id) === d.opened_by;
      return {
        id: d.id,
        contract_id: d.contract_id,
        opened_by_you: ours,
        // The reason is the words of the side that opened it.
        reason: ours ? d.reason : null,
        status: d.status,
        respond_by: d.respond_by,
        decision: d.decision,
        decision_reason: d.decision_reason,
        decided_at: d.decided_at,
        created_at: d.created_at,
      };
    }),
    "messages.json": messageJson,
    // A reply to a review given is the other side's words (it is in their copy, as received).
    "reviews.json": { given: given.map(({ reply: _theirs, reply_hidden_reason: _why, ...r }) => r), received },
    "notifications.json": notifications.map((n) => ({ ...n, detail: parseList(n.detail) })),
    "settings.json": {
      locale: user.locale,
      public_profile: user.public_profile,
      email_turned_off: optOuts,
      saved_searches: savedSearches.map((s) => ({ ...s, filters: JSON.parse(s.filters) as unknown })),
    },
    "sessions.json": sessions.map(({ passkey_id, ...s }) => ({ ...s, with_passkey: passkey_id !== null })),
    "passkeys.json": passkeys,
    "two_factor.json": {
      enabled: twoFactor.enabled,
      recovery_codes_left: twoFactor.recovery_codes_left,
    },
    "terms_acceptances.json": terms,
    "reports.json": reports,
    "payments.json": {
      payout_account: payoutAccount ?? null,
      payouts,
      refunds,
      pix_charges: charges,
      milestones,
      ledger_transactions: ledgerTransactions,
      ledger_entries: entries,
    },
    "invitations.json": invitations.map((i) =>
      // An invitation's message is the merchant's words: in the merchant's copy only.
      i.merchant_id === userId ? i : { ...i, message: null },
    ),
    "portfolio.json": portfolio,
    "identity.json": identityJson ?? null,
  };
  return { kinds, files, generatedAt: at.toISOString() };
}

/**
 * A contract in one side's copy: the words of the other side (why they asked to cancel or ended
 * it) left out, and the operator's flag (it tells that a side was suspended or banned).
 */
function contractJson(contract: Selectable<Database["contracts"]>, side: ContractParty) {
  const { flagged_at: _flagged, flag_reason: _flag, ...rest } = contract;
  return {
    ...rest,
    cancel_request_reason: contract.cancel_requested_by === side ? contract.cancel_request_reason : null,
    end_reason: contract.ended_by === side || contract.ended_by === "system" ? contract.end_reason : null,
  };
}

/** Already compressed formats are stored as they are in the ZIP. */
const STORED = /\.(jpe?g|png|webp|gif|pdf|zip|docx|xlsx|pptx|odt|ods|odp)$/i;

/** What the ZIP is fed at a time: the deflate of one piece is a short step of the event loop. */
const PIECE_BYTES = 64 * 1024;

/**
 * Writes the ZIP of a user's copy (the JSON of each kind, their files, and an index of both) to
 * `out` as it is made, and returns its size: one file of the user's in memory at a time, fed to
 * fflate's streaming ZIP in 64 KB pieces, each piece's output written before the next, so the
 * memory stays bounded and the process keeps answering requests while a large copy is built.
 */
export async function writeZip(userId: string, out: ExportFileWriter, at = new Date()): Promise<number> {
  const { kinds, files, generatedAt } = await collectPersonalData(userId, at);
  let size = 0;
  let failure: Error | null = null;
  const ready: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const drain = async () => {
    if (failure) throw failure;
    for (let chunk = ready.shift(); chunk; chunk = ready.shift()) {
      await out.write(chunk);
      size += chunk.byteLength;
    }
  };
  const add = async (path: string, body: Uint8Array) => {
    const entry = STORED.test(path) ? new ZipPassThrough(path) : new ZipDeflate(path, { level: 6 });
    zip.add(entry);
    let offset = 0;
    do {
      const end = Math.min(offset + PIECE_BYTES, body.byteLength);
      entry.push(body.subarray(offset, end), end === body.byteLength);
      offset = end;
      await drain();
    } while (offset < body.byteLength);
  };
  for (const [name, value] of Object.entries(kinds)) await add(name, json(value));
  const missing: string[] = [];
  for (const file of files) {
    const stored = await file.read();
    if (stored) await add(file.path, stored.body);
    else missing.push(file.path);
  }
  await add(
    "index.json",
    json({
      user_id: userId,
      generated_at: generatedAt,
      kinds: Object.keys(kinds),
      files: files.map((f) => f.path).filter((p) => !missing.includes(p)),
      // Files whose rows remain but that the store no longer has.
      missing_files: missing,
    }),
  );
  zip.end();
  await drain();
  return size;
}
