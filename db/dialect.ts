import { sql, type Kysely, type RawBuilder } from "kysely";
import { config } from "../app/config.server";
import { isStaleStatement } from "./prepared";
import type { Database } from "./schema";

// Everything that differs between the two database engines, so that services are written once.
// SQLite (embedded, the default) serves one machine; PostgreSQL (DATABASE_URL) several servers.

export type Engine = "sqlite" | "postgres";
export const engine: Engine = config.DATABASE_URL ? "postgres" : "sqlite";
const postgres = engine === "postgres";

// ---------------------------------------------------------------------------------------------
// Full-text search over opportunities (title, description, skills)
//
// Both engines match every word as a prefix, ignoring case and accents, with no stemming and no
// stop words: SQLite through the FTS5 table opportunities_fts (unicode61, remove_diacritics),
// PostgreSQL through the generated tsvector column opportunities.search (text-search
// configuration `freela`: unaccent, then the simple dictionary).

/**
 * The engine's query for words already reduced to runs of letters and digits. Each is quoted
 * (FTS5) or is a bare lexeme (tsquery), so nothing a user types is read as query syntax. A
 * one-letter prefix would expand to most of the vocabulary: it is matched as a whole word.
 */
export function textQuery(words: string[]): string {
  if (postgres) return words.map((w) => (w.length > 1 ? `${w}:*` : w)).join(" & ");
  return words.map((w) => (w.length > 1 ? `"${w}"*` : `"${w}"`)).join(" ");
}

/**
 * SQLite only: FTS5 hands its matches over in rowid (creation) order, so a newest-first list
 * can be read through the full-text table and stop at its last row. PostgreSQL reads the
 * matches from the GIN index as a bitmap and sorts them.
 */
export const searchIndexLeads = !postgres;

/**
 * The WHERE that keeps opportunities matching `query` (from textQuery). `leading`: the list
 * reads from the FTS5 table itself (see searchIndexLeads).
 */
export function textMatch(query: string, leading = false, ids?: IdRange): RawBuilder<boolean> {
  if (postgres) return textMatchIn("opportunities", "id", query);
  if (leading) return sql<boolean>`opportunities_fts MATCH ${query}`;
  // Within a range of ids (the new opportunities a saved search looks at), FTS5 reads only that
  // stretch of each word's list instead of every match in the table.
  return ids
    ? sql<boolean>`opportunities.id IN (SELECT rowid FROM opportunities_fts WHERE opportunities_fts MATCH ${query} AND rowid > ${ids.after} AND rowid <= ${ids.upTo})`
    : textMatchIn("opportunities", "id", query);
}

/**
 * The WHERE that keeps rows of `table` matching `query` (from textQuery): its generated `search`
 * column on PostgreSQL, its FTS5 table `<table>_fts`, whose rowid is the row's `key`, on SQLite.
 */
export function textMatchIn(table: "opportunities" | "services", key: string, query: string): RawBuilder<boolean> {
  if (postgres) return sql<boolean>`${sql.ref(`${table}.search`)} @@ to_tsquery('freela', ${query})`;
  const fts = sql.table(`${table}_fts`);
  return sql<boolean>`${sql.ref(`${table}.${key}`)} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query})`;
}

/** How well a row of `table` matches `query`, higher is better (see textRank). */
export function textRankIn(table: "opportunities" | "services", key: string, query: string): RawBuilder<number> {
  if (postgres) return sql<number>`ts_rank(${sql.ref(`${table}.search`)}, to_tsquery('freela', ${query}))`;
  const fts = sql.table(`${table}_fts`);
  return sql<number>`(SELECT -bm25(${fts}) FROM ${fts} WHERE ${fts} MATCH ${query} AND ${fts}.rowid = ${sql.ref(`${table}.${key}`)})`;
}

/**
 * `column` is one of a list of integer ids given as ONE bound parameter (made by idList), so the
 * statement's text is the same whatever the list's length: an array on PostgreSQL, a JSON array
 * read by json_each on SQLite.
 */
export function idIn(column: string, list: unknown): RawBuilder<boolean> {
  return postgres
    ? sql<boolean>`${sql.ref(column)} = ANY(${list}::bigint[])`
    : sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${list}))`;
}

/** The bound parameter of idIn for these ids. */
export function idList(ids: number[]): unknown {
  return postgres ? ids : JSON.stringify(ids);
}

/** Opportunities with an id in (after, upTo]. */
export type IdRange = { after: number; upTo: number };

/**
 * How well an opportunity matches `query` (from textQuery), higher is better: ts_rank on
 * PostgreSQL, bm25 on SQLite (negated: FTS5's best is its lowest). `leading`: the list reads from
 * the FTS5 table itself, whose row is the one being ranked; otherwise the row is looked up in it by
 * rowid.
 */
export function textRank(query: string, leading = false): RawBuilder<number> {
  return leading && !postgres ? sql<number>`-bm25(opportunities_fts)` : textRankIn("opportunities", "id", query);
}

// ---------------------------------------------------------------------------------------------
// Dates

/**
 * The calendar day (YYYY-MM-DD) in São Paulo of a stored UTC timestamp (ISO 8601 text). São Paulo
 * has kept UTC−3 all year since daylight saving ended in 2019, so a fixed offset does.
 */
export function saoPauloDay(column: string): RawBuilder<string> {
  const ref = sql.ref(column);
  if (postgres) return sql<string>`to_char(${ref}::timestamptz - interval '3 hours', 'YYYY-MM-DD')`;
  return sql<string>`date(${ref}, '-3 hours')`;
}

/** Seconds from one stored UTC timestamp to another (ISO 8601 text), as a number. */
export function secondsBetween(from: RawBuilder<unknown>, to: RawBuilder<unknown>): RawBuilder<number> {
  if (postgres) return sql<number>`extract(epoch from (${to}::timestamptz - ${from}::timestamptz))`;
  return sql<number>`((julianday(${to}) - julianday(${from})) * 86400)`;
}

// ---------------------------------------------------------------------------------------------
// Locks and errors

/**
 * Locks the opportunity's row until the transaction ends. Transitions that change both an
 * opportunity and its applications take this lock first, so two of them (an accept and a
 * close, two accepts for the last vacancy) always lock in the same order and never deadlock.
 * SQLite needs nothing: BEGIN IMMEDIATE already runs write transactions one at a time.
 * FOR NO KEY UPDATE, not FOR UPDATE: inserting a notification or an application that refers
 * to the opportunity does not have to wait for it.
 */
export async function lockOpportunity(trx: Kysely<Database>, id: number) {
  if (!postgres) return;
  await trx.selectFrom("opportunities").select("id").where("id", "=", id).forNoKeyUpdate().execute();
}

/**
 * Locks the user's row until the transaction ends (PostgreSQL), so that a count of the user's rows
 * and the insert it allows run in turn with another of the same user: exactly the allowance
 * passes a burst. SQLite's BEGIN IMMEDIATE already runs write transactions one at a time.
 */
export async function lockUser(trx: Kysely<Database>, id: string) {
  if (!postgres) return;
  await trx.selectFrom("users").select("id").where("id", "=", id).forNoKeyUpdate().execute();
}

/**
 * Locks the contract's row until the transaction ends (PostgreSQL), as an UPDATE of it would: for
 * a move that changes the contract's rows below it (a week's milestone) before the contract's
 * own, so that it takes the contract's first, as ending the contract and a payment arriving do.
 * SQLite's BEGIN IMMEDIATE already runs write transactions one at a time.
 */
export async function lockContract(trx: Kysely<Database>, id: string) {
  if (!postgres) return;
  await trx.selectFrom("contracts").select("id").where("id", "=", id).forNoKeyUpdate().execute();
}

type DatabaseError = Error & { code?: string; table?: string };

/** A unique index of `table` refused the row. */
export function isUniqueViolation(error: unknown, table: string): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as DatabaseError;
  if (e.code === "23505") return e.table === table;
  return /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(e.code ?? "") && e.message.includes(`failed: ${table}.`);
}

/**
 * PostgreSQL ended the transaction to break a deadlock or a serialization conflict, or refused a
 * statement prepared before a migration changed its table (db/prepared.ts): try again.
 */
export function isRetryable(error: unknown): boolean {
  const code = (error as DatabaseError | undefined)?.code;
  return code === "40P01" || code === "40001" || isStaleStatement(error);
}

/** The database could not be reached (PostgreSQL down or restarting, connections refused). */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as DatabaseError).code ?? "");
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03"].includes(code) ||
    code.startsWith("08") ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(error.message)
  );
}

/**
 * A freelancer's payout key, its row locked until the transaction ends (PostgreSQL): payouts of
 * one freelancer are asked for one at a time. SQLite's BEGIN IMMEDIATE already does that.
 */
export async function lockPayoutAccount(trx: Kysely<Database>, userId: string) {
  const query = trx.selectFrom("payout_accounts").selectAll().where("user_id", "=", userId);
  return (postgres ? query.forUpdate() : query).executeTakeFirst();
}
