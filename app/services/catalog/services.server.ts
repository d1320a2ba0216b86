import { randomUUID } from "node:crypto";
import { sql, type CompiledQuery, type Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import {
  SERVICE_LIMITS,
  parseServiceLists,
  serviceFieldErrors,
  serviceInputSchema,
  serviceModerationSchema,
  servicePatchSchema,
  serviceQuerySchema,
  type ServiceInput,
  type ServiceQuery,
  type ServiceLists,
  type ServicePackage,
  type ServiceStatus,
} from "~/lib/service-schemas";
import { pageQuerySchema } from "~/lib/market-schemas";
import { slugify } from "~/lib/slug";
import { db, engine, transaction } from "../../../db";
import { lockUser, searchIndexLeads, textMatchIn, textRankIn } from "../../../db/dialect";
import type { Database, ServiceRow, UserRow } from "../../../db/schema";
import { displayNameOf, parseTags, photoUrl } from "../accounts/users.server";
import { SEARCH_TOTAL_CAP, TOTAL_CAP, toFtsQuery } from "../marketplace/opportunities.server";
import { operatorActor, recordAudit } from "../operator/audit.server";
import { hideTarget, loadTarget, restoreTarget } from "../operator/targets.server";
import { publicPagesOn } from "../discovery/public.server";
import { holdsNewOpportunity } from "../operator/premoderation.server";
import { bindStandIns, standIn } from "../platform/compiled-queries.server";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { stateMachine } from "../platform/state-machine.server";
import { identityVerifiedOf } from "../reputation/profiles.server";
import { ratingOf, type Rating } from "../reputation/reviews.server";
import { imagePathsOf, serviceImages, type ServiceImageJson } from "./service-images.server";
import { deletePhoto } from "../platform/uploads.server";

// A freelancer's ready-made services (docs/product.md, "Serviços prontos").
//
//   draft ──publish──▶ published ──pause──▶ paused ──publish──▶ published
//     │        └─(young account, pre-moderation on)─▶ pending
//     └─delete (gone)            any state but archived ──archive──▶ archived (for good)
//
// Every move is one conditional UPDATE whose WHERE holds the state the rule table saw: of two
// clicks, one wins and the other answers 409. Publishing takes the limit of 20 published (or
// pending) services a freelancer in the same statement. Visitors see published services whose
// freelancer is active and that no operator hid; the owner sees all of theirs.

export type ServiceAction = "edit" | "publish" | "pause" | "archive" | "delete";

type ServiceState = Pick<ServiceRow, "status">;
const is =
  (...statuses: ServiceStatus[]) =>
  (s: ServiceState) =>
    statuses.includes(s.status);

/** What the owner may do with a service, and when; the moves' WHEREs check the same states. */
const SERVICE = stateMachine<ServiceAction, ServiceState, "owner">(
  {
    edit: { checks: [[(s) => s.status !== "archived", 409, "services:service_archived"]] },
    publish: { checks: [[is("draft", "paused"), 409, "services:service_not_publishable"]] },
    pause: { checks: [[is("published"), 409, "services:service_not_published"]] },
    archive: { checks: [[(s) => s.status !== "archived", 409, "services:service_archived"]] },
    delete: { checks: [[is("draft"), 409, "services:service_not_draft"]] },
  },
  { wrongSide: [404, "not_found"] },
);

/** The statuses each move starts from: the WHERE of its UPDATE. */
const FROM: Record<Exclude<ServiceAction, "edit" | "delete">, ServiceStatus[]> = {
  publish: ["draft", "paused"],
  pause: ["published"],
  archive: ["draft", "pending", "published", "paused"],
};

export type ServiceJson = {
  id: string;
  slug: string;
  title: string;
  category: string;
  description: string;
  skills: string[];
  status: ServiceStatus;
  price_from_cents: number;
  delivery_days_min: number;
  rating: Rating;
  freelancer: { id: string; name: string; photo_url: string | null; identity_verified: boolean };
  /** The first of its images (the catalogue card's picture), if it has any. */
  cover_url: string | null;
  /** Its images in their order: on a single service's read only (getService), not in lists. */
  images?: ServiceImageJson[];
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** Owner only: hidden by an operator, and why. */
  moderation?: { hidden: boolean; hidden_reason: string | null };
  /** The moves open to the viewer now (only the owner has any). */
  allowed_actions: ServiceAction[];
} & ServiceLists;

type Row = ServiceRow & {
  freelancer_display_name: string | null;
  freelancer_full_name: string;
  freelancer_photo_path: string | null;
  freelancer_verified: number | string;
  cover_path: string | null;
};

const SERVICE_COLUMNS = [
  "services.id",
  "services.seq",
  "services.freelancer_id",
  "services.title",
  "services.slug",
  "services.category",
  "services.description",
  "services.skills",
  "services.status",
  "services.packages",
  "services.extras",
  "services.faq",
  "services.questions",
  "services.price_from_cents",
  "services.delivery_days_min",
  "services.rating_sum",
  "services.rating_count",
  "services.hidden_at",
  "services.hidden_reason",
  "services.published_at",
  "services.created_at",
  "services.updated_at",
] as const;

/**
 * A service's first image, read beside it (the catalogue's cards): a correlated subquery on the
 * index service_images_service (058), so a list stays one statement however many rows it has.
 */
const COVER_PATH = sql<
  string | null
>`(SELECT si.image_path FROM service_images si WHERE si.service_id = services.id ORDER BY si.position, si.id LIMIT 1)`.as(
  "cover_path",
);

/** A service with its freelancer's name, photo and verified identity: one statement, however many rows. */
export function selectServices(database: Kysely<Database> = db) {
  return database
    .selectFrom("services")
    .innerJoin("users as freelancer", "freelancer.id", "services.freelancer_id")
    .select(SERVICE_COLUMNS)
    .select([
      "freelancer.display_name as freelancer_display_name",
      "freelancer.full_name as freelancer_full_name",
      "freelancer.photo_path as freelancer_photo_path",
      identityVerifiedOf("services.freelancer_id").as("freelancer_verified"),
      COVER_PATH,
    ]);
}

type ServiceSelect = ReturnType<typeof selectServices>;

/** What visitors may see: published, not hidden, of a freelancer still active. */
export function publicOnly(qb: ServiceSelect, at: string): ServiceSelect {
  return qb
    .where("services.status", "=", "published")
    .where("services.hidden_at", "is", null)
    .where("freelancer.deleted_at", "is", null)
    .where("freelancer.banned_at", "is", null)
    .where((eb) => eb.or([eb("freelancer.suspended_until", "is", null), eb("freelancer.suspended_until", "<=", at)]));
}

const isOwner = (viewer: Pick<UserRow, "id"> | null, row: Pick<ServiceRow, "freelancer_id">) =>
  viewer !== null && viewer.id === row.freelancer_id;

/**
 * A service's packages, extras, FAQ and questions, parsed from their stored JSON. A list page
 * parses those of 20 services, each through its zod schema (most of the catalogue list's CPU at
 * 100 000 services), so parsed lists are kept by their stored text: the same text, the same lists.
 * The lists are shared between requests: read them, never change them.
 */
const parsedLists = new LRUCache<string, ServiceLists>({ max: 2_000 });

function storedLists(row: Pick<ServiceRow, "packages" | "extras" | "faq" | "questions">): ServiceLists {
  const key = `${row.packages}\u0000${row.extras}\u0000${row.faq}\u0000${row.questions}`;
  let lists = parsedLists.get(key);
  if (!lists) {
    lists = parseServiceLists(row);
    parsedLists.set(key, lists);
  }
  return lists;
}

export function toServiceJson(row: Row, viewer: Pick<UserRow, "id"> | null): ServiceJson {
  const owner = isOwner(viewer, row);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    category: row.category,
    description: row.description,
    skills: parseTags(row.skills),
    status: row.status,
    ...storedLists(row),
    price_from_cents: Number(row.price_from_cents),
    delivery_days_min: row.delivery_days_min,
    rating: ratingOf(row),
    freelancer: {
      id: row.freelancer_id,
      name: displayNameOf({ display_name: row.freelancer_display_name, full_name: row.freelancer_full_name })!,
      photo_url: photoUrl(row.freelancer_photo_path),
      identity_verified: Number(row.freelancer_verified) > 0,
    },
    cover_url: photoUrl(row.cover_path),
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(owner && { moderation: { hidden: row.hidden_at !== null, hidden_reason: row.hidden_reason } }),
    allowed_actions: SERVICE.allowed(row, owner ? "owner" : null),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * One service with its images (two statements, read together): its owner sees it in any state;
 * anyone else only while it is public (published, not hidden, its freelancer active), else 404 as
 * if it did not exist.
 */
export async function getService(viewer: Pick<UserRow, "id"> | null, id: string): Promise<ServiceJson> {
  assertId(id);
  await assertVisitorsWelcome(viewer);
  const at = now();
  const [found, images] = await Promise.all([
    selectServices()
      .select([
        "freelancer.deleted_at as freelancer_deleted_at",
        "freelancer.banned_at as freelancer_banned_at",
        "freelancer.suspended_until as freelancer_suspended_until",
      ])
      .where("services.id", "=", id)
      .executeTakeFirst(),
    serviceImages(id),
  ]);
  const row = found as
    | (Row & {
        freelancer_deleted_at: string | null;
        freelancer_banned_at: string | null;
        freelancer_suspended_until: string | null;
      })
    | undefined;
  const visible =
    row &&
    (isOwner(viewer, row) ||
      (row.status === "published" &&
        row.hidden_at === null &&
        row.freelancer_deleted_at === null &&
        row.freelancer_banned_at === null &&
        (row.freelancer_suspended_until === null || row.freelancer_suspended_until <= at)));
  if (!visible) throw new AppError(404, "not_found");
  return { ...toServiceJson(row, viewer), images };
}

/**
 * Someone not signed in reads services only while the operator keeps public pages on (settings:
 * public_pages; off, the public APIs answer 404): one statement more for a visitor.
 */
async function assertVisitorsWelcome(viewer: Pick<UserRow, "id"> | null) {
  if (viewer === null && !(await publicPagesOn())) throw new AppError(404, "not_found");
}

/** The public list: filters, full-text search, sort and page; two statements (page and capped count). */
export async function listServices(
  query: unknown,
  viewer: Pick<UserRow, "id"> | null = null,
): Promise<{ data: ServiceJson[]; meta: PageMeta }> {
  const q = parseInput(serviceQuerySchema, query);
  await assertVisitorsWelcome(viewer);
  const { page, count, cap } = compiledServiceList(q);
  const at = now();
  const [{ rows }, counted] = await Promise.all([
    db.executeQuery<Row>(bindStandIns(page, [AT, at])),
    db.executeQuery<{ total: number }>(bindStandIns(count, [AT, at])),
  ]);
  const total = Number(counted.rows[0]!.total);
  return {
    data: rows.map((row) => toServiceJson(row, null)),
    meta: pageMeta(q.page, q.per_page, Math.min(total, cap), total > cap),
  };
}

/** Stands for the list's moment (a freelancer suspended until then is left out) in a kept compiled query. */
const AT = standIn("at");
const compiledServiceLists = new LRUCache<string, { page: CompiledQuery; count: CompiledQuery; cap: number }>({
  max: 500,
});

/**
 * The list's page and count, compiled. Building and compiling them through Kysely was ~8% of a
 * list request, and their SQL depends only on the query (the viewer does not change what the list
 * shows), so each query is compiled once with AT for the moment and kept, the least recently used
 * dropped past 500, as the opportunities' lists are (compiledListQueries).
 */
function compiledServiceList(q: ServiceQuery) {
  const key = JSON.stringify(q);
  let compiled = compiledServiceLists.get(key);
  if (!compiled) {
    const { page, count, cap } = serviceListQueries(q, AT);
    compiled = { page: page.compile(), count: count.compile(), cap };
    compiledServiceLists.set(key, compiled);
  }
  return compiled;
}

/** The list's page and its count stopping one row past the cap, for a parsed query at a moment. */
function serviceListQueries(q: ServiceQuery, at: string) {
  const match = q.q ? toFtsQuery(q.q) : null;
  const sort = q.sort === "relevance" && !match ? "newest" : q.sort;
  // Relevance ranks a window of the newest matches read through the text index, as the
  // opportunities' search does (byRelevance): ranking every match of a common word would cost
  // SQLite a walk of the word's list per match.
  const leads = match !== null && sort === "relevance" && searchIndexLeads;
  const filtered = filterServices(leads ? fromServiceSearch() : selectServices(), q, match, leads, at);
  let page: ServiceSelect;
  switch (sort) {
    case "relevance": {
      const newest = (
        leads ? filtered.orderBy(sql`services_fts.rowid`, "desc") : filtered.orderBy("services.seq", "desc")
      )
        .clearSelect()
        .select([
          "services.seq as seq",
          (leads ? sql<number>`-bm25(services_fts)` : textRankIn("services", "seq", match!)).as("relevance"),
        ])
        .limit(SEARCH_TOTAL_CAP);
      const best = db
        .selectFrom(newest.as("newest"))
        .select(["newest.seq", "newest.relevance"])
        .orderBy("newest.relevance", "desc")
        .orderBy("newest.seq", "desc")
        .limit(q.per_page)
        .offset(offsetOf(q.page, q.per_page));
      page = selectServices()
        .innerJoin(best.as("ranked"), "ranked.seq", "services.seq")
        .orderBy("ranked.relevance", "desc") as unknown as ServiceSelect;
      break;
    }
    case "price":
      // The order of the index services_published_price (065).
      page = filtered.orderBy("services.price_from_cents", "asc");
      break;
    case "rating":
      // Best average first (those not rated yet last), then the most rated: the order of the
      // index services_published_rating (065), read backwards.
      page = filtered.orderBy(RATING_AVERAGE, "desc").orderBy("services.rating_count", "desc");
      break;
    default:
      // The order of the index services_public_list (064).
      page = filtered.orderBy("services.published_at", "desc");
  }
  page = page.orderBy("services.seq", "desc");
  if (sort !== "relevance") page = page.limit(q.per_page).offset(offsetOf(q.page, q.per_page));
  // The count stops one row past the cap, as the opportunities' does (a search's cap is lower).
  const cap = match ? SEARCH_TOTAL_CAP : TOTAL_CAP;
  const matching = filtered
    .clearSelect()
    .select(sql<number>`1`.as("one"))
    .limit(cap + 1);
  const count = db.selectFrom(matching.as("matching")).select((eb) => eb.fn.countAll<number>().as("total"));
  return { page, count, cap };
}

/** A service's average rating as the list orders by it (0 before any rating): the expression of its index. */
const RATING_AVERAGE = sql`CASE WHEN services.rating_count = 0 THEN 0 ELSE services.rating_sum * 1.0 / services.rating_count END`;

/**
 * selectServices read through SQLite's full-text table (a text search in order of relevance): the
 * matches come newest first from the index itself and stop at the window's last row.
 */
function fromServiceSearch(): ServiceSelect {
  return db
    .selectFrom(sql<{ rowid: number }>`services_fts`.as("services_fts"))
    .innerJoin("services", (join) => join.on(sql<boolean>`services.seq = services_fts.rowid`))
    .innerJoin("users as freelancer", "freelancer.id", "services.freelancer_id")
    .select(SERVICE_COLUMNS)
    .select([
      "freelancer.display_name as freelancer_display_name",
      "freelancer.full_name as freelancer_full_name",
      "freelancer.photo_path as freelancer_photo_path",
      identityVerifiedOf("services.freelancer_id").as("freelancer_verified"),
      COVER_PATH,
    ]) as unknown as ServiceSelect;
}

/** The list's WHERE: what visitors may see, and the query's filters. */
function filterServices(
  qb: ServiceSelect,
  q: ServiceQuery,
  match: string | null,
  leads: boolean,
  at: string,
): ServiceSelect {
  let filtered = publicOnly(qb, at);
  if (match)
    filtered = filtered.where(
      leads ? sql<boolean>`services_fts MATCH ${match}` : textMatchIn("services", "seq", match),
    );
  if (q.category) filtered = filtered.where("services.category", "=", q.category);
  if (q.min_price_cents !== undefined) filtered = filtered.where("services.price_from_cents", ">=", q.min_price_cents);
  if (q.max_price_cents !== undefined) filtered = filtered.where("services.price_from_cents", "<=", q.max_price_cents);
  if (q.max_days !== undefined) filtered = filtered.where("services.delivery_days_min", "<=", q.max_days);
  if (q.min_rating !== undefined) {
    filtered = filtered
      .where("services.rating_count", ">", 0)
      .where(sql<boolean>`services.rating_sum >= ${q.min_rating} * services.rating_count`);
  }
  if (q.verified) filtered = filtered.where(sql<boolean>`${identityVerifiedOf("services.freelancer_id")} > 0`);
  return filtered;
}

/** The freelancer's own services, every state, newest first, a page at a time: two statements (page and count). */
export async function listMyServices(
  user: UserRow,
  query: unknown = {},
): Promise<{ data: ServiceJson[]; meta: PageMeta }> {
  assertRoleFor(user, "service.manage");
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const [rows, counted] = await Promise.all([
    selectServices()
      .where("services.freelancer_id", "=", user.id)
      .orderBy("services.created_at", "desc")
      .orderBy("services.seq", "desc")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute() as Promise<Row[]>,
    db
      .selectFrom("services")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("freelancer_id", "=", user.id)
      .executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map((row) => toServiceJson(row, user)), meta: pageMeta(page, per_page, Number(counted.n)) };
}

/** A freelancer's public services, newest first: their profile's list (one statement). */
export async function publicServicesOf(freelancerId: string, limit = SERVICE_LIMITS.published_per_freelancer) {
  const rows = (await publicOnly(selectServices(), now())
    .where("services.freelancer_id", "=", freelancerId)
    .orderBy("services.published_at", "desc")
    .limit(limit)
    .execute()) as Row[];
  return rows.map((row) => toServiceJson(row, null));
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Parses a service's input with its schema, or a 422 naming every refused field (paths such as `packages.1.price_cents`). */
function parseService<S extends typeof serviceInputSchema | typeof servicePatchSchema>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new AppError(422, "validation_failed", serviceFieldErrors(parsed.error));
  return parsed.data as S["_output"];
}

/** The columns the list filters and sorts on, from the packages. */
const fromPackages = (packages: ServicePackage[]) => ({
  packages: JSON.stringify(packages),
  price_from_cents: Math.min(...packages.map((p) => p.price_cents)),
  delivery_days_min: Math.min(...packages.map((p) => p.delivery_days)),
});

export const serviceSlug = (title: string) => slugify(title, "servico");

/**
 * Writes a service checked by serviceInputSchema (a draft by default): its lists as JSON beside the
 * list's columns. The demo seed uses it too.
 */
export async function insertService(
  database: Kysely<Database>,
  data: ServiceInput,
  row: Pick<ServiceRow, "id" | "freelancer_id" | "created_at"> & Partial<Pick<ServiceRow, "status" | "published_at">>,
) {
  await database
    .insertInto("services")
    .values({
      // SQLite: the next row number for the full-text index (writes run one at a time);
      // PostgreSQL draws it from the column's identity.
      ...(engine === "sqlite" && { seq: sql<number>`(SELECT coalesce(max(seq), 0) + 1 FROM services)` }),
      status: "draft",
      published_at: null,
      ...row,
      title: data.title,
      slug: serviceSlug(data.title),
      category: data.category,
      description: data.description,
      skills: JSON.stringify(data.skills),
      ...fromPackages(data.packages),
      extras: JSON.stringify(data.extras),
      faq: JSON.stringify(data.faq),
      questions: JSON.stringify(data.questions),
      updated_at: row.created_at,
    })
    .execute();
}

/** Stores a new draft. */
export async function createService(user: UserRow, input: unknown): Promise<ServiceJson> {
  await consumeWrite(user.id);
  assertRoleFor(user, "service.manage");
  const data = parseService(serviceInputSchema, input);
  const id = randomUUID();
  await insertService(db, data, { id, freelancer_id: user.id, created_at: now() });
  return getService(user, id);
}

/** The owner's service (any state), or 404: "not yours" looks like "does not exist". */
async function findOwned(database: Kysely<Database>, user: UserRow, id: string) {
  assertRoleFor(user, "service.manage");
  assertId(id);
  const row = await database
    .selectFrom("services")
    .select(["id", "status", "freelancer_id"])
    .where("id", "=", id)
    .where("freelancer_id", "=", user.id)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  return row;
}

/** Changes a service in any state but archived; a published one stays published. */
export async function updateService(user: UserRow, id: string, input: unknown): Promise<ServiceJson> {
  await consumeWrite(user.id);
  assertRoleFor(user, "service.manage");
  const patch = parseService(servicePatchSchema, input);
  const current = await findOwned(db, user, id);
  SERVICE.assert("edit", current, "owner");
  const updated = await db
    .updateTable("services")
    .set({
      ...(patch.title !== undefined && { title: patch.title, slug: serviceSlug(patch.title) }),
      ...(patch.category !== undefined && { category: patch.category }),
      ...(patch.description !== undefined && { description: patch.description }),
      ...(patch.skills !== undefined && { skills: JSON.stringify(patch.skills) }),
      ...(patch.packages !== undefined && fromPackages(patch.packages)),
      ...(patch.extras !== undefined && { extras: JSON.stringify(patch.extras) }),
      ...(patch.faq !== undefined && { faq: JSON.stringify(patch.faq) }),
      ...(patch.questions !== undefined && { questions: JSON.stringify(patch.questions) }),
      updated_at: now(),
    })
    .where("id", "=", id)
    .where("freelancer_id", "=", user.id)
    .where("status", "!=", "archived")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "services:service_archived");
  return getService(user, id);
}

/**
 * Publishes a draft or paused service: `published`, or `pending` while pre-moderation holds a young
 * account's new content (the rule of opportunities, premoderation.server.ts). The limit of 20 is in
 * the UPDATE's WHERE; on PostgreSQL the freelancer's row is locked first, so a burst of publishes
 * counts one after the other (SQLite writes one at a time already).
 */
export async function publishService(user: UserRow, id: string): Promise<ServiceJson> {
  await consumeWrite(user.id);
  assertRoleFor(user, "service.publish");
  await transaction(async (trx) => {
    const current = await findOwned(trx, user, id);
    SERVICE.assert("publish", current, "owner");
    const at = now();
    const held = await holdsNewOpportunity(trx, user, at);
    await lockUser(trx, user.id);
    const published = await trx
      .updateTable("services")
      // The first publication's date stays: pausing and publishing again does not move a
      // service to the top of the newest.
      .set({
        status: held ? "pending" : "published",
        published_at: held ? null : sql<string>`coalesce(published_at, ${at})`,
        updated_at: at,
      })
      .where("id", "=", id)
      .where("freelancer_id", "=", user.id)
      .where("status", "in", FROM.publish)
      .where(
        (eb) =>
          eb
            .selectFrom("services as mine")
            .select((e) => e.fn.countAll().as("n"))
            .where("mine.freelancer_id", "=", user.id)
            .where("mine.status", "in", ["published", "pending"]),
        "<",
        SERVICE_LIMITS.published_per_freelancer,
      )
      .executeTakeFirst();
    if (Number(published.numUpdatedRows) > 0) return;
    // Lost: to another click (the state moved on) or to the limit.
    const after = await findOwned(trx, user, id);
    SERVICE.assert("publish", after, "owner");
    throw new AppError(409, "services:published_limit", undefined, {
      max: SERVICE_LIMITS.published_per_freelancer,
    });
  });
  return getService(user, id);
}

/** A move that only changes the status (pause, archive): one conditional UPDATE, 409 when it loses. */
async function statusMove(user: UserRow, id: string, move: "pause" | "archive", to: ServiceStatus) {
  await consumeWrite(user.id);
  const current = await findOwned(db, user, id);
  SERVICE.assert(move, current, "owner");
  const changed = await db
    .updateTable("services")
    .set({ status: to, updated_at: now() })
    .where("id", "=", id)
    .where("freelancer_id", "=", user.id)
    .where("status", "in", FROM[move])
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) {
    // Lost to another move: its refusal as the rule table says it now.
    SERVICE.assert(move, await findOwned(db, user, id), "owner");
    throw new AppError(409, "services:service_changed");
  }
  return getService(user, id);
}

export const pauseService = (user: UserRow, id: string) => statusMove(user, id, "pause", "paused");
export const archiveService = (user: UserRow, id: string) => statusMove(user, id, "archive", "archived");

/** Deletes a draft (a service once published stays, archived at most). */
export async function deleteService(user: UserRow, id: string): Promise<void> {
  await consumeWrite(user.id);
  const current = await findOwned(db, user, id);
  SERVICE.assert("delete", current, "owner");
  const images = await imagePathsOf(db, { serviceId: id });
  const deleted = await db
    .deleteFrom("services")
    .where("id", "=", id)
    .where("freelancer_id", "=", user.id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError(409, "services:service_not_draft");
  // Its images' rows went with it (cascade); their files leave the store once it is gone.
  await Promise.all(images.map(deletePhoto));
}

// ---------------------------------------------------------------------------------------------
// The operator's moves

/**
 * An operator's decision on a service (the console's API): `approve` publishes a pending one
 * (pre-moderation); `hide` takes one out of everyone's sight but its owner's, with the reason they
 * read (a notification and its e-mail, as for any hidden content: targets.server.ts); `restore`
 * shows it again, and tells them too. One conditional UPDATE each (409 when the state moved on),
 * and one row of the audit log in the same transaction. A reported service is also hidden from the
 * report queue (reports.server.ts), by the same UPDATE.
 */
export async function moderateService(operator: UserRow, id: string, input: unknown) {
  if (operator.account_type !== "operator") throw new AppError(404, "not_found");
  assertId(id);
  const { action, reason } = parseInput(serviceModerationSchema, input);
  const at = now();
  return transaction(async (trx) => {
    const before = await trx
      .selectFrom("services")
      .select(["status", "hidden_at", "hidden_reason"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before) throw new AppError(404, "not_found");
    let changed: boolean;
    if (action === "approve") {
      const approved = await trx
        .updateTable("services")
        .set({ status: "published", published_at: sql<string>`coalesce(published_at, ${at})`, updated_at: at })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      changed = Number(approved.numUpdatedRows) > 0;
    } else {
      const target = (await loadTarget(trx, { type: "service", id }))!;
      changed =
        action === "hide" ? await hideTarget(trx, target, reason!, at) : await restoreTarget(trx, target, reason!);
    }
    if (!changed) {
      const refusal = { approve: "services:service_not_pending", hide: "services:service_hidden_already" };
      throw new AppError(409, action === "restore" ? "content_not_hidden" : refusal[action]);
    }
    await recordAudit(
      trx,
      operatorActor(operator),
      {
        action: action === "approve" ? "service.approve" : action === "hide" ? "content.hide" : "content.restore",
        target_type: "service",
        target_id: id,
        reason: reason ?? null,
        before: action === "approve" ? { status: before.status } : { hidden: before.hidden_at !== null },
        after: action === "approve" ? { status: "published" } : { hidden: action === "hide" },
      },
      at,
    );
    return { action };
  });
}
