import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "~/config.server";
import { LIMITS } from "~/lib/limits";
import { oneLine, typeable } from "~/lib/schemas";
import {
  opportunityQuerySchema,
  SAVED_SEARCH_FREQUENCIES,
  savedSearchFiltersSchema,
  type SavedSearchFilters,
} from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import { lockUser } from "../../../db/dialect";
import type { SavedSearchFrequency, SavedSearchesTable, UserRow } from "../../../db/schema";
import type { Selectable } from "kysely";
import { newestOpportunityId, newOpportunityMatches, type OpportunityMatch } from "../marketplace/opportunities.server";
import { AppError, fieldErrorsOf } from "../platform/errors.server";
import { every } from "../platform/jobs.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { UUID, assertId, now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";

// Saved searches and their alerts (docs/product.md, "Buscas salvas e alertas"). A freelancer
// saves the filters of the opportunity list with a name and a frequency; the digest job
// (runSavedSearchDigests, on every server process) e-mails the new matches of each due search,
// found by the list's own WHERE (newOpportunityMatches), once: the search's watermark (the newest
// opportunity id already considered) moves in the transaction that queues the e-mail, with its
// old value in the WHERE, so of two servers running the job over the same search one sends.

export const SAVED_SEARCH_LIMIT = 20;
/** Opportunities listed in one digest; past it the e-mail says there are more (the list has them). */
export const DIGEST_MAX = 20;
const DAY_MS = 86_400_000;
const PERIOD_MS: Record<SavedSearchFrequency, number> = { immediate: 0, daily: DAY_MS, weekly: 7 * DAY_MS, off: 0 };
/** Searches read per step of a digest run. */
const BATCH = 500;

type SavedSearchRow = Selectable<SavedSearchesTable>;

export type SavedSearchJson = {
  id: string;
  name: string;
  filters: SavedSearchFilters;
  frequency: SavedSearchFrequency;
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
};

const nameField = z
  .string({ required_error: "saved_search_name_length", invalid_type_error: "saved_search_name_type" })
  .trim()
  .min(1, "saved_search_name_length")
  .max(LIMITS.saved_search_name.max, "saved_search_name_length")
  .refine(typeable, "text_invalid_characters")
  .refine(oneLine, "text_line_break");
const frequencyField = z.enum(SAVED_SEARCH_FREQUENCIES, {
  errorMap: () => ({ message: "saved_search_frequency_invalid" }),
});

const createSchema = z.object(
  { name: nameField, frequency: frequencyField, filters: z.unknown().optional() },
  { invalid_type_error: "validation_failed" },
);
const updateSchema = z.object(
  { name: nameField.optional(), frequency: frequencyField.optional() },
  { invalid_type_error: "validation_failed" },
);

/**
 * The fields of `input` by `schema`, the filters by the list's own rules: 422 with every
 * refused field at once (a filter's under `filters.<name>`).
 */
function parseSaved<S extends z.ZodTypeAny>(schema: S, input: unknown, withFilters: boolean) {
  const errors: Record<string, string> = {};
  const parsed = schema.safeParse(input);
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  let filters: SavedSearchFilters = {};
  if (withFilters) {
    const raw = (input as { filters?: unknown } | null)?.filters ?? {};
    const checked = savedSearchFiltersSchema.safeParse(raw);
    if (checked.success) filters = normalised(checked.data);
    else {
      for (const issue of checked.error.issues) {
        const field = issue.path.length ? `filters.${String(issue.path[0])}` : "filters";
        errors[field] ??= issue.message;
      }
    }
  }
  if (Object.keys(errors).length) throw new AppError(422, "validation_failed", errors);
  return { data: parsed.data as z.output<S>, filters };
}

/** The filters without empty ones, in one order: the same search is stored the same way. */
function normalised(filters: SavedSearchFilters): SavedSearchFilters {
  const out: SavedSearchFilters = {};
  if (filters.q) out.q = filters.q;
  if (filters.category) out.category = filters.category;
  if (filters.budget_type) out.budget_type = filters.budget_type;
  if (filters.location_type) out.location_type = filters.location_type;
  if (filters.budget_min_cents !== undefined) out.budget_min_cents = filters.budget_min_cents;
  if (filters.budget_max_cents !== undefined) out.budget_max_cents = filters.budget_max_cents;
  return out;
}

function toJson(row: SavedSearchRow): SavedSearchJson {
  return {
    id: row.id,
    name: row.name,
    filters: JSON.parse(row.filters) as SavedSearchFilters,
    frequency: row.frequency,
    last_sent_at: row.last_sent_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** When a search is next due after `at`: immediate ones on every run, others a period later. */
function nextRunAt(frequency: SavedSearchFrequency, at: Date) {
  return new Date(at.getTime() + PERIOD_MS[frequency]).toISOString();
}

/** The user's saved searches, newest first. */
export async function listSavedSearches(user: UserRow): Promise<SavedSearchJson[]> {
  assertRoleFor(user, "saved_search.manage");
  const rows = await db
    .selectFrom("saved_searches")
    .selectAll()
    .where("user_id", "=", user.id)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toJson);
}

async function findOwn(user: UserRow, id: string) {
  assertId(id, "saved_search_not_found");
  const row = await db
    .selectFrom("saved_searches")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "saved_search_not_found");
  return row;
}

export async function getSavedSearch(user: UserRow, id: string): Promise<SavedSearchJson> {
  assertRoleFor(user, "saved_search.manage");
  return toJson(await findOwn(user, id));
}

/**
 * Saves `{ name, frequency, filters }` (filters: the list's query, prices in centavos). Only
 * opportunities published from now on are e-mailed. 422 for a bad field, 409 past
 * SAVED_SEARCH_LIMIT (counted under a lock of the user's row on PostgreSQL; SQLite writes one
 * transaction at a time).
 */
export async function createSavedSearch(user: UserRow, input: unknown): Promise<SavedSearchJson> {
  assertRoleFor(user, "saved_search.manage");
  await consumeWrite(user.id);
  const { data, filters } = parseSaved(createSchema, input, true);
  const at = new Date();
  const stamp = at.toISOString();
  const id = randomUUID();
  await transaction(async (trx) => {
    await lockUser(trx, user.id);
    const { n } = await trx
      .selectFrom("saved_searches")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    if (Number(n) >= SAVED_SEARCH_LIMIT) {
      throw new AppError(409, "saved_searches_too_many", undefined, { count: SAVED_SEARCH_LIMIT });
    }
    await trx
      .insertInto("saved_searches")
      .values({
        id,
        user_id: user.id,
        name: data.name,
        filters: JSON.stringify(filters),
        frequency: data.frequency,
        watermark: await newestOpportunityId(trx),
        next_run_at: nextRunAt(data.frequency, at),
        last_sent_at: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  });
  return getSavedSearch(user, id);
}

/** `{ name?, frequency? }`; a new frequency counts its period from now. 404 when not the user's. */
export async function updateSavedSearch(user: UserRow, id: string, input: unknown): Promise<SavedSearchJson> {
  assertRoleFor(user, "saved_search.manage");
  await consumeWrite(user.id);
  assertId(id, "saved_search_not_found");
  const { data } = parseSaved(updateSchema, input, false);
  const current = await findOwn(user, id);
  const at = new Date();
  const frequencyChanged = data.frequency !== undefined && data.frequency !== current.frequency;
  await db
    .updateTable("saved_searches")
    .set({
      ...(data.name !== undefined && { name: data.name }),
      ...(frequencyChanged && { frequency: data.frequency, next_run_at: nextRunAt(data.frequency!, at) }),
      updated_at: at.toISOString(),
    })
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .execute();
  return getSavedSearch(user, id);
}

export async function deleteSavedSearch(user: UserRow, id: string): Promise<void> {
  assertRoleFor(user, "saved_search.manage");
  await consumeWrite(user.id);
  assertId(id, "saved_search_not_found");
  const deleted = await db
    .deleteFrom("saved_searches")
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError(404, "saved_search_not_found");
}

// ---------------------------------------------------------------------------------------------
// The digest job

export type DigestPayload = { search_id: string; ids: number[]; more: boolean };
export type DigestRun = { checked: number; sent: number };

/**
 * One digest run at `at`: every due search (immediate ones on every run, daily and weekly ones
 * once their period is over) gets the open opportunities matching it that are newer than its
 * watermark, up to the newest opportunity when the run started. With matches, one e-mail is
 * queued (the outbox sends it); with none, nothing is sent. Either way the watermark and the
 * next due time move, under the values read (one winner among servers running at once).
 */
export async function runSavedSearchDigests(options: { at?: Date } = {}): Promise<DigestRun> {
  const at = options.at ?? new Date();
  const stamp = at.toISOString();
  const upTo = await newestOpportunityId();
  const result: DigestRun = { checked: 0, sent: 0 };
  // Searches with the same filters and watermark have the same new matches (the viewer's id
  // plays no part for open opportunities): each such set is read once per run.
  const matched = new Map<string, Promise<OpportunityMatch[]>>();
  let after = "";
  for (;;) {
    const due = await db
      .selectFrom("saved_searches as s")
      .innerJoin("users as u", "u.id", "s.user_id")
      .selectAll("s")
      .where("s.frequency", "in", ["immediate", "daily", "weekly"])
      .where("s.next_run_at", "<=", stamp)
      .where("u.deleted_at", "is", null)
      .where("u.account_type", "=", "freelancer")
      .where("s.id", ">", after)
      .orderBy("s.id")
      .limit(BATCH)
      .execute();
    for (const search of due) {
      result.checked++;
      if (await runOne(search, upTo, at, matched)) result.sent++;
    }
    if (due.length < BATCH) break;
    after = due[due.length - 1]!.id;
  }
  return result;
}

/** The new matches of a search's filters after `watermark` (none when its filters no longer parse). */
function matchesOf(search: SavedSearchRow, upTo: number) {
  const query = opportunityQuerySchema.safeParse(JSON.parse(search.filters));
  if (!query.success || upTo <= search.watermark) return Promise.resolve([]);
  return newOpportunityMatches(
    { id: search.user_id },
    query.data,
    { afterId: search.watermark, upToId: upTo },
    DIGEST_MAX + 1,
  );
}

async function runOne(
  search: SavedSearchRow,
  upTo: number,
  at: Date,
  matched: Map<string, Promise<OpportunityMatch[]>>,
): Promise<boolean> {
  // Nothing was published since: an immediate search has nothing to do until something is.
  if (upTo <= search.watermark && search.frequency === "immediate") return false;
  const key = `${search.watermark}|${search.filters}`;
  if (!matched.has(key)) matched.set(key, matchesOf(search, upTo));
  const matches = await matched.get(key)!;
  const stamp = at.toISOString();
  return transaction(async (trx) => {
    const moved = await trx
      .updateTable("saved_searches")
      .set({
        watermark: Math.max(upTo, search.watermark),
        next_run_at: nextRunAt(search.frequency, at),
        ...(matches.length ? { last_sent_at: stamp } : {}),
      })
      .where("id", "=", search.id)
      .where("watermark", "=", search.watermark)
      .where("next_run_at", "=", search.next_run_at)
      .where("frequency", "=", search.frequency)
      .executeTakeFirst();
    // Another server ran it first, or the user changed or deleted it meanwhile.
    if (Number(moved.numUpdatedRows) === 0 || matches.length === 0) return false;
    const payload: DigestPayload = {
      search_id: search.id,
      ids: matches.slice(0, DIGEST_MAX).map((m) => Number(m.id)),
      more: matches.length > DIGEST_MAX,
    };
    await trx
      .insertInto("outbox")
      .values({
        id: randomUUID(),
        user_id: search.user_id,
        kind: "saved_search_digest",
        application_id: null,
        opportunity_id: null,
        items: payload.ids.length,
        status: "pending",
        attempts: 0,
        next_attempt_at: stamp,
        created_at: stamp,
        payload: JSON.stringify(payload),
      })
      .execute();
    return true;
  });
}

/**
 * Runs the digests every `interval` ms (SAVED_SEARCH_SECONDS) in this server process; every
 * process runs its own (the watermark's WHERE keeps them from sending twice).
 */
export function startSavedSearchDigests(interval: number) {
  return every(interval, "[saved-searches] digest run failed", () => runSavedSearchDigests());
}

// ---------------------------------------------------------------------------------------------
// Unsubscribing without signing in: the link in each digest names the search, signed with
// SESSION_SECRET (HMAC-SHA256), so nobody can make one for another search.

function signature(id: string) {
  return createHmac("sha256", config.SESSION_SECRET).update(`saved-search\n${id}`).digest("base64url");
}

export function savedSearchUnsubscribeUrl(id: string) {
  return `${config.APP_URL}/buscas-salvas/cancelar/${id}.${signature(id)}`;
}

function readToken(token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [id, sig, ...rest] = token.split(".");
  if (rest.length || !id || !sig || !UUID.test(id)) return null;
  const expected = Buffer.from(signature(id));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return id;
}

export type UnsubscribeState = { name: string; unsubscribed: boolean };

/** The search a link names and whether its e-mails are off already; 400 for a bad or stale link. */
export async function describeSavedSearchUnsubscribe(token: unknown): Promise<UnsubscribeState> {
  const id = readToken(token);
  if (!id) throw new AppError(400, "saved_search_unsubscribe_invalid");
  const row = await db
    .selectFrom("saved_searches")
    .select(["name", "frequency"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new AppError(400, "saved_search_unsubscribe_invalid");
  return { name: row.name, unsubscribed: row.frequency === "off" };
}

/** Turns the named search's e-mails off (it stays saved); again: nothing changes. */
export async function unsubscribeSavedSearch(token: unknown): Promise<UnsubscribeState> {
  const id = readToken(token);
  if (!id) throw new AppError(400, "saved_search_unsubscribe_invalid");
  const row = await db
    .updateTable("saved_searches")
    .set({ frequency: "off", updated_at: now() })
    .where("id", "=", id)
    .returning(["name"])
    .executeTakeFirst();
  if (!row) throw new AppError(400, "saved_search_unsubscribe_invalid");
  return { name: row.name, unsubscribed: true };
}
