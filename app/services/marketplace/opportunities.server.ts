import { randomUUID } from "node:crypto";
import {
  sql,
  type CompiledQuery,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type SelectQueryBuilder,
  type Transaction,
} from "kysely";
import { LRUCache } from "lru-cache";
import {
  NEGOTIATING_STATUSES,
  opportunityInputSchema,
  opportunityPatchSchema,
  opportunityQuerySchema,
  opportunityRuleErrors,
  type OpportunityPatch,
  type OpportunityQuery,
} from "~/lib/market-schemas";
import { checkFields, inFieldOrder } from "~/lib/schemas";
import { opportunitySlug } from "~/lib/slug";
import { db, engine, transaction } from "../../../db";
import { idIn, idList, searchIndexLeads, textMatch, textQuery, textRank, type IdRange } from "../../../db/dialect";
import type { Database, OpportunitiesTable, OpportunityRow, UserRow } from "../../../db/schema";
import type { PublicOpportunity } from "../discovery/public.server";
import { bindStandIns, standIn } from "../platform/compiled-queries.server";
import { AppError, parseInput } from "../platform/errors.server";
import { assertRoleFor } from "../platform/roles.server";
import { stateMachine } from "../platform/state-machine.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { UUID, assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { ratingOf, type Rating } from "../reputation/reviews.server";
import { displayNameOf, parseTags, photoUrl } from "../accounts/users.server";
import { holdsNewOpportunity } from "../operator/premoderation.server";
import { opportunitiesChanged, opportunitiesGeneration } from "./search-generation.server";

export type { PageMeta } from "../platform/records.server";

export type OpportunityJson = {
  uuid: string;
  merchant: { id: string; display_name: string | null; photo_url: string | null; rating: Rating };
  title: string;
  description: string;
  category: string;
  skills: string[];
  budget_type: OpportunityRow["budget_type"];
  budget_min_cents: number;
  budget_max_cents: number;
  currency: string;
  deadline: string | null;
  location_type: OpportunityRow["location_type"];
  city: string | null;
  vacancies: number;
  status: OpportunityRow["status"];
  /** Closed by the operator's sanction of its owner ('suspended'), not by the owner. */
  closed_reason: OpportunityRow["closed_reason"];
  applications_count: number;
  accepted_count: number;
  created_at: string;
  updated_at: string;
  /** Owner only: hidden by an operator (and why), or waiting for one (pre-moderation). */
  moderation?: { hidden: boolean; hidden_reason: string | null; held: boolean };
  /** Owner only: applications waiting for the merchant's answer. */
  awaiting_count?: number;
  /** Freelancers only: their own application to it, if any. */
  my_application?: { id: string; status: string } | null;
  /** What the viewer may do with it now (only its owner may do anything); pages show only these. */
  allowed_actions: OpportunityAction[];
};

export type OpportunityAction = "edit" | "close" | "reopen" | "delete";

type OpportunityState = Pick<OpportunityRow, "status" | "applications_count" | "accepted_count" | "vacancies">;

const isOpen = [(o: OpportunityState) => o.status === "open", 409, "opportunity_not_open"] as const;

/**
 * What the owner may do with an opportunity, and when (docs/product.md §3). Each move checks the
 * same condition in its WHERE, so a change in between still ends in a 409.
 */
const OPPORTUNITY = stateMachine<OpportunityAction, OpportunityState, "owner">(
  {
    edit: { checks: [isOpen] },
    close: { checks: [isOpen] },
    // Reopening needs a free vacancy: a filled opportunity stays filled.
    reopen: {
      checks: [[(o) => o.status === "closed" && o.accepted_count < o.vacancies, 409, "opportunity_not_closed"]],
    },
    // Once someone applied, the opportunity is part of their history.
    delete: { checks: [[(o) => o.applications_count === 0, 409, "opportunity_has_applications"]] },
  },
  { wrongSide: [404, "not_found"] },
);

/** The moves open to the viewer on the opportunity right now. */
export function allowedOpportunityActions(
  viewer: Pick<UserRow, "id" | "account_type">,
  opportunity: OpportunityState & { merchant_id: string },
): OpportunityAction[] {
  const owner = viewer.account_type === "merchant" && viewer.id === opportunity.merchant_id;
  return OPPORTUNITY.allowed(opportunity, owner ? "owner" : null);
}

type Row = OpportunityRow & {
  merchant_display_name: string | null;
  merchant_full_name: string;
  merchant_photo_path: string | null;
  merchant_rating_count: number;
  merchant_rating_sum: number;
  awaiting_count?: number | null;
  my_application_id?: string | null;
  my_application_status?: string | null;
};

// ---------------------------------------------------------------------------------------------
// Full-text search

const MAX_SEARCH_TOKENS = 12;

/** The words of a search: runs of letters and digits, lower case, each once, at most 12. */
export function searchWords(text: string): string[] {
  const tokens =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(tokens)].slice(0, MAX_SEARCH_TOKENS);
}

/**
 * Turns anything a user types into a safe full-text query for the database engine: only runs
 * of letters and digits survive (so NEAR, AND, `:`, `*`, `&` or `!` are plain words or nothing),
 * each matched as a prefix. Returns null when nothing searchable is left (only punctuation or
 * emoji).
 */
export function toFtsQuery(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : textQuery(words);
}

// ---------------------------------------------------------------------------------------------
// Reading

type ListBuilder = SelectQueryBuilder<Database, "opportunities", object>;

/**
 * Opportunities read through the full-text index. FTS5 hands its matches over in rowid order,
 * which is creation order, so a newest-first page stops at its last row instead of collecting
 * and sorting every match of a common word; CROSS JOIN keeps SQLite from reordering the join.
 */
function fromSearch(database: Kysely<Database>): ListBuilder {
  return database
    .selectFrom(sql<{ rowid: number }>`opportunities_fts`.as("opportunities_fts"))
    .crossJoin("opportunities")
    .where(sql<boolean>`opportunities.id = opportunities_fts.rowid`) as unknown as ListBuilder;
}

// Every column but PostgreSQL's search vector, which only the WHERE reads.
const OPPORTUNITY_COLUMNS = [
  "opportunities.id",
  "opportunities.uuid",
  "opportunities.merchant_id",
  "opportunities.title",
  "opportunities.description",
  "opportunities.category",
  "opportunities.skills",
  "opportunities.budget_type",
  "opportunities.budget_min_cents",
  "opportunities.budget_max_cents",
  "opportunities.currency",
  "opportunities.deadline",
  "opportunities.location_type",
  "opportunities.city",
  "opportunities.vacancies",
  "opportunities.status",
  "opportunities.applications_count",
  "opportunities.accepted_count",
  "opportunities.hidden_at",
  "opportunities.hidden_reason",
  "opportunities.held_at",
  "opportunities.closed_reason",
  "opportunities.created_at",
  "opportunities.updated_at",
] as const;

function baseSelect(database: Kysely<Database>, viewer: UserRow, from?: ListBuilder) {
  return (from ?? database.selectFrom("opportunities"))
    .innerJoin("users as merchant", "merchant.id", "opportunities.merchant_id")
    .select(OPPORTUNITY_COLUMNS)
    .select([
      "merchant.display_name as merchant_display_name",
      "merchant.full_name as merchant_full_name",
      "merchant.photo_path as merchant_photo_path",
      "merchant.rating_count as merchant_rating_count",
      "merchant.rating_sum as merchant_rating_sum",
    ])
    .$if(viewer.account_type === "merchant", (qb) =>
      qb.select(
        sql<number>`(SELECT count(*) FROM applications WHERE applications.opportunity_id = opportunities.id AND applications.status = 'pending')`.as(
          "awaiting_count",
        ),
      ),
    )
    .$if(viewer.account_type === "freelancer", (qb) =>
      qb
        // The unique (opportunity_id, freelancer_id) index answers this join in one lookup per row.
        .leftJoin("applications as mine", (join) =>
          join.onRef("mine.opportunity_id", "=", "opportunities.id").on("mine.freelancer_id", "=", viewer.id),
        )
        .select(["mine.id as my_application_id", "mine.status as my_application_status"]),
    );
}

/** What the merchant published of an opportunity, as the JSON has it (the visitors' page too). */
export function publishedFields(row: Pick<OpportunityRow, keyof OpportunityRow & keyof PublicOpportunity>) {
  return {
    title: row.title,
    description: row.description,
    category: row.category,
    skills: parseTags(row.skills),
    budget_type: row.budget_type,
    budget_min_cents: row.budget_min_cents,
    budget_max_cents: row.budget_max_cents,
    currency: row.currency,
    deadline: row.deadline,
    location_type: row.location_type,
    city: row.city,
    vacancies: row.vacancies,
  };
}

export function toOpportunityJson(row: Row, viewer: UserRow): OpportunityJson {
  const json: OpportunityJson = {
    uuid: row.uuid,
    merchant: {
      id: row.merchant_id,
      display_name: displayNameOf({ display_name: row.merchant_display_name, full_name: row.merchant_full_name }),
      photo_url: photoUrl(row.merchant_photo_path),
      rating: ratingOf({ rating_count: row.merchant_rating_count, rating_sum: row.merchant_rating_sum }),
    },
    ...publishedFields(row),
    status: row.status,
    closed_reason: row.closed_reason,
    applications_count: row.applications_count,
    accepted_count: row.accepted_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    allowed_actions: allowedOpportunityActions(viewer, row),
  };
  if (viewer.account_type === "merchant" && viewer.id === row.merchant_id) {
    json.awaiting_count = Number(row.awaiting_count ?? 0);
    json.moderation = { hidden: row.hidden_at !== null, hidden_reason: row.hidden_reason, held: row.held_at !== null };
  }
  if (viewer.account_type === "freelancer") {
    json.my_application = row.my_application_id
      ? { id: row.my_application_id, status: row.my_application_status ?? "" }
      : null;
  }
  return json;
}

/**
 * Who may see an opportunity: its owner; freelancers when it is open or they applied to it, and
 * neither hidden by an operator nor waiting for one.
 */
function canSee(row: Row, viewer: UserRow) {
  if (viewer.account_type === "merchant") return row.merchant_id === viewer.id;
  if (row.hidden_at !== null || row.held_at !== null) return false;
  return row.status === "open" || Boolean(row.my_application_id);
}

async function findVisible(viewer: UserRow, uuid: string, database: Kysely<Database> = db) {
  assertId(uuid);
  const row = (await baseSelect(database, viewer).where("opportunities.uuid", "=", uuid).executeTakeFirst()) as
    Row | undefined;
  if (!row || !canSee(row, viewer)) throw new AppError(404, "not_found");
  return row;
}

/**
 * A filled or closed opportunity that anyone signed in may learn has ended (its title and state,
 * nothing else: the page says so instead of "not found"); null when it is open, unknown, or hidden
 * or held by an operator.
 */
export async function endedOpportunity(uuid: string) {
  assertId(uuid);
  const row = await db
    .selectFrom("opportunities")
    .select(["uuid", "title", "status"])
    .where("uuid", "=", uuid)
    .where("status", "in", ["filled", "closed"])
    .where("hidden_at", "is", null)
    .where("held_at", "is", null)
    .where("service_id", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

export async function getOpportunity(user: UserRow, uuid: string): Promise<OpportunityJson> {
  return toOpportunityJson(await findVisible(user, uuid), user);
}

/**
 * Totals count at most this many matches. Counting every open opportunity, or every match of a
 * common word, costs more than the page itself and grows with the table; past the cap `total`
 * reads TOTAL_CAP and `meta.total_capped` is true, so clients show "1000+" as search engines do.
 */
export const TOTAL_CAP = 1000;
/**
 * Text searches count fewer: each counted match costs a lookup of its row (for the other
 * filters), ~10 times an index-only count, and people rarely page far into a search.
 */
export const SEARCH_TOTAL_CAP = 200;

const totalCap = (match: string | null) => (match ? SEARCH_TOTAL_CAP : TOTAL_CAP);

/**
 * Whether the full-text index should lead a list (see fromSearch): freelancers browsing the open
 * opportunities. Narrower lists (a merchant's own, those applied to) are read through their
 * own indexes and matched against the search afterwards.
 */
function searchLeads(viewer: UserRow, q: OpportunityQuery, match: string | null): match is string {
  return searchIndexLeads && browsesOpen(viewer, q, match);
}

/** A freelancer's search of the open opportunities: what they see does not depend on who they are. */
function browsesOpen(viewer: UserRow, q: OpportunityQuery, match: string | null): match is string {
  return match !== null && viewer.account_type === "freelancer" && !q.mine && (!q.status || q.status === "open");
}

/**
 * The WHERE of a list, shared by its count and its page so both always agree. `textLeads`: the
 * query reads from fromSearch(), so the match applies to the full-text table directly. `ids`:
 * only opportunities in that range of ids (a saved search's new ones).
 */
function applyFilters(
  qb: ListBuilder,
  viewer: UserRow,
  q: OpportunityQuery,
  textLeads = false,
  ids?: IdRange,
): ListBuilder {
  let query = ids ? qb.where("opportunities.id", ">", ids.after).where("opportunities.id", "<=", ids.upTo) : qb;
  // An order of a ready-made service is not an opportunity anyone lists (its contract shows it).
  query = query.where("opportunities.service_id", "is", null);
  if (viewer.account_type === "merchant") {
    // Merchants only ever see their own opportunities (mine=1 is implied).
    query = query.where("opportunities.merchant_id", "=", viewer.id);
    if (q.status) query = query.where("opportunities.status", "=", q.status);
  } else {
    // Hidden by an operator, or waiting for one: only their owner sees them.
    query = query.where("opportunities.hidden_at", "is", null).where("opportunities.held_at", "is", null);
    const appliedTo = (eb: ExpressionBuilder<Database, "opportunities">) =>
      eb(
        "opportunities.id",
        "in",
        eb
          .selectFrom("applications")
          .select("applications.opportunity_id")
          .where("applications.freelancer_id", "=", viewer.id),
      );
    if (q.mine) {
      query = query.where(appliedTo);
      if (q.status) query = query.where("opportunities.status", "=", q.status);
    } else if (!q.status || q.status === "open") {
      query = query.where("opportunities.status", "=", "open");
    } else {
      // Closed and filled opportunities stay visible only to those who applied to them.
      query = query.where("opportunities.status", "=", q.status).where(appliedTo);
    }
  }
  if (q.category) query = query.where("opportunities.category", "=", q.category);
  if (q.budget_type) query = query.where("opportunities.budget_type", "=", q.budget_type);
  if (q.location_type) query = query.where("opportunities.location_type", "=", q.location_type);
  // Budget filters keep every opportunity whose range overlaps the one asked for.
  if (q.budget_min_cents !== undefined) query = query.where("opportunities.budget_max_cents", ">=", q.budget_min_cents);
  if (q.budget_max_cents !== undefined) query = query.where("opportunities.budget_min_cents", "<=", q.budget_max_cents);
  const match = q.q ? toFtsQuery(q.q) : null;
  if (match) query = query.where(textMatch(match, textLeads, ids));
  return query;
}

/** The count and page queries of a list, built apart so tests can read their query plans. */
export function opportunityListQueries(user: UserRow, q: OpportunityQuery) {
  const match = q.q ? toFtsQuery(q.q) : null;
  const leads = searchLeads(user, q, match);
  // The count stops one row past the cap: enough to know the total is capped.
  const matching = applyFilters(
    leads ? fromSearch(db) : (db.selectFrom("opportunities") as ListBuilder),
    user,
    q,
    leads,
  )
    .select(sql<number>`1`.as("one"))
    .limit(totalCap(match) + 1);
  const count = db.selectFrom(matching.as("matching")).select((eb) => eb.fn.countAll<number>().as("total"));
  // Relevance ranks the newest matches (below); with no searchable word it is newest first.
  const sort = q.sort === "relevance" && !match ? "newest" : q.sort;
  // Other sorts need every match anyway, so only newest-first pages read through the text index.
  const pageLeads = leads && (sort === "newest" || sort === "relevance");
  let page = applyFilters(
    baseSelect(db, user, pageLeads ? fromSearch(db) : undefined) as unknown as ListBuilder,
    user,
    q,
    pageLeads,
  );
  switch (sort) {
    case "relevance":
      return { count, page: byRelevance(user, q, match!, pageLeads) };
    case "budget_desc":
      page = page.orderBy("opportunities.budget_max_cents", "desc").orderBy("opportunities.id", "desc");
      break;
    case "budget_asc":
      page = page.orderBy("opportunities.budget_min_cents", "asc").orderBy("opportunities.id", "desc");
      break;
    case "deadline":
      // Soonest deadline first, those without one last: the order of the index
      // opportunities_status_deadline_sort (ties by id ascending, as the index keeps them).
      page = page
        .orderBy(sql`opportunities.deadline IS NULL`)
        .orderBy("opportunities.deadline", "asc")
        .orderBy("opportunities.id", "asc");
      break;
    default:
      // Newest first is id order: ids are handed out as opportunities are created, and unlike
      // created_at the id is also the full-text index's rowid and the tail of every index.
      page = pageLeads ? page.orderBy(sql`opportunities_fts.rowid`, "desc") : page.orderBy("opportunities.id", "desc");
  }
  return { count, page: page.limit(q.per_page).offset(offsetOf(q.page, q.per_page)) };
}

/**
 * Text searches in order of relevance rank the RELEVANCE_WINDOW newest matches of every filter
 * (read as a newest-first page would read them, so the cost stays near a page's whatever the
 * table's size), best first, ties newest first. The window is the search total's cap: the list
 * says "200+" and its last page is the window's.
 */
export const RELEVANCE_WINDOW = SEARCH_TOTAL_CAP;

function byRelevance(viewer: UserRow, q: OpportunityQuery, match: string, leading: boolean) {
  // The window holds ids and ranks only; the page's rows are joined to their merchant and to the
  // viewer's application after the ranking, for the page alone.
  const matches = applyFilters(
    leading ? fromSearch(db) : (db.selectFrom("opportunities") as ListBuilder),
    viewer,
    q,
    leading,
  );
  const newest = (
    leading ? matches.orderBy(sql`opportunities_fts.rowid`, "desc") : matches.orderBy("opportunities.id", "desc")
  )
    .select(["opportunities.id as id", textRank(match, leading).as("relevance")])
    .limit(RELEVANCE_WINDOW);
  const best = db
    .selectFrom(newest.as("newest"))
    .select(["newest.id", "newest.relevance"])
    .orderBy("newest.relevance", "desc")
    .orderBy("newest.id", "desc")
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  return (baseSelect(db, viewer) as unknown as ListBuilder)
    .innerJoin(best.as("ranked"), "ranked.id", "opportunities.id")
    .select("ranked.relevance")
    .orderBy("ranked.relevance", "desc")
    .orderBy("opportunities.id", "desc");
}

/** Stands for the viewer's id in a compiled list query. */
const VIEWER_ID = standIn("viewer");
const COMPILED_KEPT = 500;
const compiledLists = new LRUCache<string, { count: CompiledQuery; page: CompiledQuery }>({ max: COMPILED_KEPT });

/**
 * The compiled count and page queries of a list. Building and compiling them through Kysely cost
 * ~10% of a list request, and their SQL depends only on the viewer's role and the query: the
 * viewer's id is only ever a bound parameter. So each (role, query) is compiled once with a
 * stand-in id, kept (the least recently used dropped past COMPILED_KEPT), and bound to the
 * viewer's id on every use. Nothing about any user but the role is kept.
 */
export function compiledListQueries(user: UserRow, q: OpportunityQuery) {
  const key = `${user.account_type}|${JSON.stringify(q)}`;
  let compiled = compiledLists.get(key);
  if (!compiled) {
    const { count, page } = opportunityListQueries({ ...user, id: VIEWER_ID }, q);
    compiled = { count: count.compile(), page: page.compile() };
    compiledLists.set(key, compiled);
  }
  return { count: bound(compiled.count, user), page: bound(compiled.page, user) };
}

/** A kept compiled query with the viewer's id (and a page's ids, see PAGE_IDS) in their stand-ins' places. */
function bound(query: CompiledQuery, user: UserRow, ids?: number[]): CompiledQuery {
  return bindStandIns(query, [VIEWER_ID, user.id], ...(ids ? [[PAGE_IDS, idList(ids)] as const] : []));
}

/** Stands for the ids of a search's page in its compiled query (one bound parameter: idList). */
const PAGE_IDS = standIn("ids");
const compiledSearchPages = new LRUCache<string, CompiledQuery>({ max: COMPILED_KEPT });

/**
 * One page of opportunities with its total: two queries whatever the page size (the merchant's
 * name, the owner's awaiting count and the freelancer's own application come in by join).
 */
export async function listOpportunities(
  user: UserRow,
  query: unknown,
): Promise<{ data: OpportunityJson[]; meta: PageMeta }> {
  const q = parseInput(opportunityQuerySchema, query);
  const match = q.q ? toFtsQuery(q.q) : null;
  if (q.sort === "relevance" && browsesOpen(user, q, match)) return searchByRelevance(user, q, match);
  const { count, page } = compiledListQueries(user, q);
  const cap = totalCap(match);
  const [counted, { rows }] = await Promise.all([
    db.executeQuery<{ total: number }>(count),
    db.executeQuery<Row>(page),
  ]);
  const total = counted.rows[0]!.total;
  return {
    data: rows.map((row) => toOpportunityJson(row, user)),
    meta: pageMeta(q.page, q.per_page, Math.min(Number(total), cap), Number(total) > cap),
  };
}

/**
 * A freelancer's text search in order of relevance, through a window kept a few seconds.
 *
 * The window (the RELEVANCE_WINDOW newest matches, ranked: see byRelevance) is the same for
 * every freelancer, since what they see of the open opportunities does not depend on who they
 * are, and finding it is the search's whole cost on PostgreSQL (the text index's matches, each
 * row visited for the other filters). So it is read once per (filters, page size) and kept for
 * SEARCH_WINDOW_MS in this process: a repeated search is one statement, the page's rows by id,
 * which checks the page's rows again against every filter but the words (a row closed, hidden
 * or edited out of a filter meanwhile drops from the page; checking the words row by row would
 * cost SQLite a walk of each word's whole list per row) and joins the viewer's application.
 * An opportunity published, edited, reopened or shown again in this process drops every kept
 * window at once (opportunitiesChanged); one written by another server process shows in this
 * one's searches within SEARCH_WINDOW_MS.
 */
export const SEARCH_WINDOW_MS = 5_000;
type SearchWindow = { ids: number[]; total: number; newest: number; at: number; generation: number };
const searchWindows = new LRUCache<string, SearchWindow>({ max: COMPILED_KEPT });

async function searchByRelevance(user: UserRow, q: OpportunityQuery, match: string) {
  const key = JSON.stringify({ ...q, page: undefined });
  let window = searchWindows.get(key);
  if (!window || window.generation !== opportunitiesGeneration() || Date.now() - window.at > SEARCH_WINDOW_MS) {
    window = await readSearchWindow(user, q, match, key);
  }
  let page = await searchPage(user, q, window);
  if (page.newest !== window.newest) {
    // An opportunity was added since (by another server process, say): the window is read again.
    window = await readSearchWindow(user, q, match, key);
    page = await searchPage(user, q, window);
  }
  return {
    data: page.rows.map((row) => toOpportunityJson(row, user)),
    meta: pageMeta(q.page, q.per_page, Math.min(window.total, SEARCH_TOTAL_CAP), window.total > SEARCH_TOTAL_CAP),
  };
}

/** The newest opportunity's id: a kept window older than it may miss a match. */
const NEWEST_ID = sql<number | null>`(SELECT max(id) FROM opportunities)`;

/** One past the window, newest first (whether the total is capped, as a count would say), ranked. */
async function readSearchWindow(user: UserRow, q: OpportunityQuery, match: string, key: string) {
  const generation = opportunitiesGeneration();
  const at = Date.now();
  const leads = searchIndexLeads;
  const matches = applyFilters(
    leads ? fromSearch(db) : (db.selectFrom("opportunities") as ListBuilder),
    user,
    q,
    leads,
  );
  const newest = await (
    leads ? matches.orderBy(sql`opportunities_fts.rowid`, "desc") : matches.orderBy("opportunities.id", "desc")
  )
    .select(["opportunities.id as id", textRank(match, leads).as("relevance"), NEWEST_ID.as("newest")])
    .limit(RELEVANCE_WINDOW + 1)
    .execute();
  const ranked = newest
    .slice(0, RELEVANCE_WINDOW)
    .sort((a, b) => Number(b.relevance) - Number(a.relevance) || Number(b.id) - Number(a.id));
  const window: SearchWindow = {
    ids: ranked.map((row) => Number(row.id)),
    total: newest.length,
    newest: newest.length ? Number(newest[0]!.newest) : await newestOpportunityId(),
    at,
    generation,
  };
  searchWindows.set(key, window);
  return window;
}

/**
 * The page's rows of a window, checked again against every filter but the words, in the window's
 * order, with the newest opportunity's id to tell whether the window still stands.
 */
async function searchPage(user: UserRow, q: OpportunityQuery, window: SearchWindow) {
  const ids = window.ids.slice(offsetOf(q.page, q.per_page), offsetOf(q.page, q.per_page) + q.per_page);
  if (!ids.length) return { rows: [] as Row[], newest: await newestOpportunityId() };
  // Compiled once per (role, query), as the other lists are (compiledListQueries).
  const key = `${user.account_type}|${JSON.stringify({ ...q, page: undefined })}`;
  let compiled = compiledSearchPages.get(key);
  if (!compiled) {
    const viewer = { ...user, id: VIEWER_ID };
    compiled = applyFilters(baseSelect(db, viewer) as unknown as ListBuilder, viewer, { ...q, q: undefined })
      .where(idIn("opportunities.id", PAGE_IDS))
      .select(NEWEST_ID.as("newest"))
      .compile();
    compiledSearchPages.set(key, compiled);
  }
  const { rows } = await db.executeQuery<Row & { newest: number }>(bound(compiled, user, ids));
  const position = new Map(ids.map((id, index) => [id, index]));
  rows.sort((a, b) => position.get(Number(a.id))! - position.get(Number(b.id))!);
  // With every row of the page gone (closed, hidden), the newest id is read on its own.
  return { rows, newest: rows.length ? Number(rows[0]!.newest) : await newestOpportunityId() };
}

/** What a saved search's digest shows of each new match. */
export type OpportunityMatch = Pick<
  OpportunityRow,
  | "id"
  | "uuid"
  | "title"
  | "category"
  | "budget_type"
  | "budget_min_cents"
  | "budget_max_cents"
  | "location_type"
  | "city"
>;

/**
 * The opportunities a freelancer's list shows for `q` (the list's own WHERE, applyFilters, so a
 * saved search finds what the page finds) among those with an id in (`afterId`, `upToId`]: the
 * new ones since a saved search last ran. Newest first, at most `limit`.
 */
export async function newOpportunityMatches(
  freelancer: Pick<UserRow, "id">,
  q: OpportunityQuery,
  range: { afterId: number; upToId: number },
  limit: number,
  database: Kysely<Database> = db,
): Promise<OpportunityMatch[]> {
  const viewer = { id: freelancer.id, account_type: "freelancer" } as UserRow;
  const open: OpportunityQuery = { ...q, status: "open", mine: undefined };
  return applyFilters(database.selectFrom("opportunities") as ListBuilder, viewer, open, false, {
    after: range.afterId,
    upTo: range.upToId,
  })
    .select([
      "opportunities.id",
      "opportunities.uuid",
      "opportunities.title",
      "opportunities.category",
      "opportunities.budget_type",
      "opportunities.budget_min_cents",
      "opportunities.budget_max_cents",
      "opportunities.location_type",
      "opportunities.city",
    ])
    .orderBy("opportunities.id", "desc")
    .limit(limit)
    .execute() as Promise<OpportunityMatch[]>;
}

/**
 * The newest opportunity's id (0 without any): where a new saved search starts from, and how far a
 * digest run reads. Ids commit in order (insertOpportunity), so every lower id is there already.
 */
export async function newestOpportunityId(database: Kysely<Database> = db): Promise<number> {
  const row = await database
    .selectFrom("opportunities")
    .select((eb) => eb.fn.max("opportunities.id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Opportunities by id, in the order of `ids`, as a list shows them (one statement). For lists
 * whose order is decided elsewhere (discovery's matches).
 */
export async function opportunitiesInOrder(user: UserRow, ids: number[]): Promise<OpportunityJson[]> {
  if (ids.length === 0) return [];
  const rows = (await (baseSelect(db, user) as unknown as ListBuilder)
    .where("opportunities.id", "in", ids)
    .execute()) as unknown as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toOpportunityJson(row, user)] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * The advisory lock that makes opportunity ids commit in order on PostgreSQL, as events' do
 * (platform/events.server.ts). An id is drawn at insert but seen at commit: of two creations at
 * once the higher id could commit first, and a reader that saw it (a saved search's watermark moves
 * to the newest id) would never see the lower one. Taken before the id is drawn and held to the
 * commit, it lets one creation at a time draw and commit, so whoever sees id N sees every lower
 * one. SQLite writes one transaction at a time already.
 */
export const OPPORTUNITY_ORDER_LOCK = 0x6672_6f70; // "frop"

/**
 * Takes OPPORTUNITY_ORDER_LOCK in `trx` (held to the commit; taking it again in the same
 * transaction is free). A creation that reads its timestamp after it keeps the ids and the
 * `created_at` of creations at once in the same order.
 */
export async function lockOpportunityOrder(trx: Transaction<Database>) {
  if (engine === "postgres") await sql`SELECT pg_advisory_xact_lock(${OPPORTUNITY_ORDER_LOCK})`.execute(trx);
}

/** Stores a new opportunity in `trx`, its id drawn under OPPORTUNITY_ORDER_LOCK. */
export async function insertOpportunity(trx: Transaction<Database>, values: Insertable<OpportunitiesTable>) {
  await lockOpportunityOrder(trx);
  await trx.insertInto("opportunities").values(values).execute();
}

export async function createOpportunity(merchant: UserRow, input: unknown): Promise<OpportunityJson> {
  await consumeWrite(merchant.id);
  assertRoleFor(merchant, "opportunity.create");
  const data = parseInput(opportunityInputSchema, input);
  const uuid = randomUUID();
  // Pre-moderation: a young account's opportunity waits for an operator (premoderation.server.ts).
  const held = await holdsNewOpportunity(db, merchant, now());
  await transaction(async (trx) => {
    // The time is read under the lock the id is drawn under: of two creations at once, the
    // first to draw its id is the older one.
    await lockOpportunityOrder(trx);
    const timestamp = now();
    await insertOpportunity(trx, {
      uuid,
      merchant_id: merchant.id,
      title: data.title,
      slug: opportunitySlug(data.title),
      description: data.description,
      category: data.category,
      skills: JSON.stringify(data.skills),
      budget_type: data.budget_type,
      budget_min_cents: data.budget_min_cents,
      budget_max_cents: data.budget_max_cents,
      currency: "BRL",
      deadline: data.deadline ?? null,
      location_type: data.location_type,
      // A remote job has no city, even if the form still carried one.
      city: data.location_type === "remote" ? null : (data.city ?? null),
      vacancies: data.vacancies,
      status: "open",
      applications_count: 0,
      accepted_count: 0,
      held_at: held ? timestamp : null,
      created_at: timestamp,
      updated_at: timestamp,
    });
  });
  opportunitiesChanged();
  return getOpportunity(merchant, uuid);
}

async function findOwned(database: Kysely<Database>, merchant: UserRow, uuid: string) {
  assertRoleFor(merchant, "opportunity.manage");
  assertId(uuid);
  const row = await database
    .selectFrom("opportunities")
    .selectAll()
    .where("uuid", "=", uuid)
    .where("merchant_id", "=", merchant.id)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  return row;
}

/** The fields the rules across fields read, after an update: the patch over what is stored. */
function mergedOpportunity(patch: OpportunityPatch, current: OpportunityRow) {
  return {
    budget_min_cents: patch.budget_min_cents ?? current.budget_min_cents,
    budget_max_cents: patch.budget_max_cents ?? current.budget_max_cents,
    location_type: patch.location_type ?? current.location_type,
    city: patch.city !== undefined ? patch.city : current.city,
    vacancies: patch.vacancies ?? current.vacancies,
  };
}

function mergedRuleErrors(patch: OpportunityPatch, current: OpportunityRow) {
  const merged = mergedOpportunity(patch, current);
  const errors = opportunityRuleErrors(merged);
  if (merged.vacancies <= current.accepted_count) errors.vacancies = "vacancies_below_accepted";
  return errors;
}

/** Partial update by the owner while the opportunity is open. */
export async function updateOpportunity(merchant: UserRow, uuid: string, input: unknown): Promise<OpportunityJson> {
  await consumeWrite(merchant.id);
  assertRoleFor(merchant, "opportunity.manage");
  const checked = checkFields(opportunityPatchSchema, input);
  if (checked.data === null) {
    // Refused fields; the rules across fields are checked on the rest, merged with what is
    // stored, so every problem is reported at once (only the fields' own when it is not theirs).
    const current = UUID.test(uuid)
      ? await db
          .selectFrom("opportunities")
          .selectAll()
          .where("uuid", "=", uuid)
          .where("merchant_id", "=", merchant.id)
          .executeTakeFirst()
      : undefined;
    const rules = current ? mergedRuleErrors(checked.values, current) : {};
    const errors = inFieldOrder(opportunityPatchSchema, { ...rules, ...checked.errors });
    throw new AppError(422, "validation_failed", errors, { count: current?.accepted_count });
  }
  const patch = checked.data;
  await transaction(async (trx) => {
    const current = await findOwned(trx, merchant, uuid);
    OPPORTUNITY.assert("edit", current, "owner");
    const merged = mergedOpportunity(patch, current);
    const errors = mergedRuleErrors(patch, current);
    if (Object.keys(errors).length > 0) {
      throw new AppError(422, "validation_failed", errors, { count: current.accepted_count });
    }
    const updated = await trx
      .updateTable("opportunities")
      .set({
        ...(patch.title !== undefined && { title: patch.title, slug: opportunitySlug(patch.title) }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.category !== undefined && { category: patch.category }),
        ...(patch.skills !== undefined && { skills: JSON.stringify(patch.skills) }),
        ...(patch.budget_type !== undefined && { budget_type: patch.budget_type }),
        ...(patch.deadline !== undefined && { deadline: patch.deadline }),
        budget_min_cents: merged.budget_min_cents,
        budget_max_cents: merged.budget_max_cents,
        location_type: merged.location_type,
        city: merged.location_type === "remote" ? null : merged.city,
        vacancies: merged.vacancies,
        updated_at: now(),
      })
      .where("id", "=", current.id)
      .where("status", "=", "open")
      .where("accepted_count", "<", merged.vacancies)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "opportunity_not_open");
  });
  opportunitiesChanged();
  return getOpportunity(merchant, uuid);
}

/**
 * A move of the owner's on an opportunity (delete, close, reopen): `write` makes it, in one
 * transaction, once the rule table allows it; its WHERE holds the state the rule saw.
 */
async function ownerMove(
  merchant: UserRow,
  uuid: string,
  move: OpportunityAction,
  write: (trx: Kysely<Database>, current: OpportunityRow) => Promise<void>,
) {
  await consumeWrite(merchant.id);
  await transaction(async (trx) => {
    const current = await findOwned(trx, merchant, uuid);
    OPPORTUNITY.assert(move, current, "owner");
    await write(trx, current);
  });
  opportunitiesChanged();
}

/** Deletes an opportunity nobody has applied to. */
export async function deleteOpportunity(merchant: UserRow, uuid: string): Promise<void> {
  await ownerMove(merchant, uuid, "delete", async (trx, current) => {
    const deleted = await trx
      .deleteFrom("opportunities")
      .where("id", "=", current.id)
      .where("applications_count", "=", 0)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new AppError(409, "opportunity_has_applications");
  });
}

/**
 * Ends the applications still under negotiation (pending or countered) with a reason and tells
 * each freelancer. Runs inside the transaction that closed or filled the opportunity.
 */
export async function rejectOpenApplications(
  trx: Kysely<Database>,
  opportunityId: number,
  reason: "filled" | "closed",
) {
  const rejected = await trx
    .updateTable("applications")
    .set({ status: "rejected", awaiting: null, rejection_reason: reason, updated_at: now() })
    .where("opportunity_id", "=", opportunityId)
    .where("status", "in", NEGOTIATING_STATUSES)
    .returning(["id", "freelancer_id"])
    .execute();
  await notify(
    trx,
    rejected.map((a) => ({
      user_id: a.freelancer_id,
      kind: "application_rejected" as const,
      application_id: a.id,
      opportunity_id: opportunityId,
    })),
  );
  return rejected.length;
}

/**
 * Ends every negotiation of a freelancer who is leaving (suspended, banned, or deleting the
 * account): their pending and countered applications are withdrawn and each merchant is told.
 * Runs inside the caller's transaction; returns how many.
 */
export async function withdrawApplicationsOf(trx: Kysely<Database>, freelancerId: string, at: string) {
  const withdrawn = await trx
    .updateTable("applications")
    .set({ status: "withdrawn", awaiting: null, updated_at: at })
    .where("freelancer_id", "=", freelancerId)
    .where("status", "in", NEGOTIATING_STATUSES)
    .returning(["id", "opportunity_id"])
    .execute();
  if (withdrawn.length === 0) return 0;
  const owners = await trx
    .selectFrom("opportunities")
    .select(["id", "merchant_id"])
    .where(
      "id",
      "in",
      withdrawn.map((a) => a.opportunity_id),
    )
    .execute();
  const ownerOf = new Map(owners.map((o) => [o.id, o.merchant_id]));
  await notify(
    trx,
    withdrawn.map((a) => ({
      user_id: ownerOf.get(a.opportunity_id)!,
      kind: "application_withdrawn" as const,
      application_id: a.id,
      opportunity_id: a.opportunity_id,
    })),
  );
  return withdrawn.length;
}

export async function closeOpportunity(merchant: UserRow, uuid: string): Promise<OpportunityJson> {
  await ownerMove(merchant, uuid, "close", async (trx, current) => {
    const closed = await trx
      .updateTable("opportunities")
      .set({ status: "closed", updated_at: now() })
      .where("id", "=", current.id)
      .where("status", "=", "open")
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) === 0) throw new AppError(409, "opportunity_not_open");
    await rejectOpenApplications(trx, current.id, "closed");
  });
  opportunitiesChanged();
  return getOpportunity(merchant, uuid);
}

/** Opens a closed opportunity again, while it still has free vacancies. */
export async function reopenOpportunity(merchant: UserRow, uuid: string): Promise<OpportunityJson> {
  await ownerMove(merchant, uuid, "reopen", async (trx, current) => {
    const reopened = await trx
      .updateTable("opportunities")
      .set({ status: "open", closed_reason: null, updated_at: now() })
      .where("id", "=", current.id)
      .where("status", "=", "closed")
      .where(sql<boolean>`accepted_count < vacancies`)
      .executeTakeFirst();
    if (Number(reopened.numUpdatedRows) === 0) throw new AppError(409, "opportunity_not_closed");
  });
  opportunitiesChanged();
  return getOpportunity(merchant, uuid);
}
