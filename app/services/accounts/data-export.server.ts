import { randomUUID } from "node:crypto";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { config } from "~/config.server";
import { db, transaction } from "../../../db";
import type { Database, DataExportsTable, UserRow } from "../../../db/schema";
import { queueAccountEmail } from "../messaging/account-email.server";
import { AppError } from "../platform/errors.server";
import { every } from "../platform/jobs.server";
import { consume, limiters } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import {
  deleteExportFile,
  openExportFile,
  readExportFile,
  type ExportFileWriter,
} from "../platform/export-files.server";
import { EXPORT_KINDS, exportSource, fileRank, type FileEntry } from "./export-kinds.server";
import { logger } from "../platform/log.server";

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
      logger.error(`[export] copy ${row.id} failed (attempt ${row.attempts}): ${message}`);
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
): Promise<{ name: string; size: number; body: ReadableStream<Uint8Array> }> {
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
  return { name: `freela-meus-dados-${row.ready_at!.slice(0, 10)}.zip`, size: file.size, body: file.body };
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

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Everything the copy holds for one user: the JSON of each kind (by file name, one per entry of
 * EXPORT_KINDS) and the user's own files (by their path in the ZIP).
 */
export async function collectPersonalData(userId: string, at = new Date()) {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const source = exportSource(user);
  const read = await Promise.all(
    Object.entries(EXPORT_KINDS).map(async ([name, kind]) => {
      const files: FileEntry[] = [];
      return { name, value: await kind(source, files), files };
    }),
  );
  const kinds = Object.fromEntries(read.map((k) => [k.name, k.value]));
  const files = read.flatMap((k) => k.files).sort((a, b) => fileRank(a) - fileRank(b));
  return { kinds, files, generatedAt: at.toISOString() };
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
