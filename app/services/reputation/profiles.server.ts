import { sql, type SelectQueryBuilder } from "kysely";
import { z } from "zod";
import { DIRECTORY_SORTS, defaultDirectorySort, foldKey, queryWords } from "~/lib/directory";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "~/lib/market-constants";
import { db } from "../../../db";
import type { Database, MarketRole, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { ratingOf, type Rating } from "./reviews.server";
import { listPortfolio, type PortfolioItemJson } from "./portfolio.server";
import { displayNameOf, parseTags, photoUrl } from "../accounts/users.server";

// Public profiles and the freelancer directory, for any signed-in user. A public profile shows
// what its owner chose to show; the e-mail stays private.

export type PublicProfileJson = {
  id: string;
  account_type: MarketRole;
  name: string;
  full_name: string;
  display_name: string | null;
  photo_url: string | null;
  bio: string;
  skills: string[];
  city: string | null;
  remote: boolean;
  member_since: string;
  /** From published reviews only. */
  rating: Rating;
  /** Contracts completed on either side. */
  completed_contracts: number;
  /** Hidden by an operator (only its owner still reads it). */
  hidden: boolean;
  /** An operator verified who they are ("Identidade verificada"; the document is never shown). */
  identity_verified: boolean;
};

type ProfileColumns = Pick<
  UserRow,
  | "id"
  | "account_type"
  | "full_name"
  | "display_name"
  | "photo_path"
  | "bio"
  | "skills"
  | "city"
  | "remote"
  | "created_at"
  | "rating_count"
  | "rating_sum"
  | "profile_hidden_at"
> & { completed_contracts: number | string | null; identity_verified?: unknown };

export const PROFILE_COLUMNS = [
  "users.id",
  "users.account_type",
  "users.full_name",
  "users.display_name",
  "users.photo_path",
  "users.bio",
  "users.skills",
  "users.city",
  "users.remote",
  "users.profile_hidden_at",
  "users.created_at",
  "users.rating_count",
  "users.rating_sum",
] as const;

/**
 * Whether an operator verified the identity of the user whose id is in `userId` (a column
 * reference): a subquery, so a page of profiles (or of applications) stays one query. Only the
 * fact leaves here, never the document.
 */
export const identityVerifiedOf = (userId: string) =>
  sql<number>`(SELECT count(*) FROM identities i WHERE i.user_id = ${sql.ref(userId)} AND i.status = 'verified')`;
export const identityVerified = identityVerifiedOf("users.id");

/** The user's completed contracts, as either side: a subquery, so a page of profiles stays one query. */

export const completedContracts = sql<number>`(SELECT count(*) FROM contracts c WHERE c.status = 'completed' AND (c.freelancer_id = users.id OR c.merchant_id = users.id))`;

export function toPublicProfile(u: ProfileColumns): PublicProfileJson {
  return {
    id: u.id,
    // Profiles are read for one of the two sides only (the queries below say which).
    account_type: u.account_type as MarketRole,
    name: displayNameOf(u)!,
    full_name: u.full_name,
    display_name: u.display_name,
    photo_url: photoUrl(u.photo_path),
    bio: u.bio,
    skills: parseTags(u.skills),
    city: u.city,
    remote: u.remote === 1,
    member_since: u.created_at,
    rating: ratingOf(u),
    completed_contracts: Number(u.completed_contracts ?? 0),
    hidden: u.profile_hidden_at !== null,
    identity_verified: Number(u.identity_verified ?? 0) > 0,
  };
}

/** A profile an operator hid is seen by its owner only (404 for anyone else). */
const hiddenFrom = (viewerId: string | undefined, id: string) => (qb: ProfileQuery) =>
  viewerId === id ? qb : qb.where("users.profile_hidden_at", "is", null);
type ProfileQuery = ReturnType<typeof profileQuery>;
// A deleted account has no profile page (its name on contracts and reviews says "Conta excluída").
const profileQuery = () => db.selectFrom("users").where("deleted_at", "is", null);

export async function getFreelancerProfile(
  id: string,
  viewerId?: string,
): Promise<PublicProfileJson & { portfolio: PortfolioItemJson[] }> {
  assertId(id, "profile_not_found");
  const [user, portfolio] = await Promise.all([
    profileQuery()
      .$call(hiddenFrom(viewerId, id))
      .select(PROFILE_COLUMNS)
      .select(completedContracts.as("completed_contracts"))
      .select(identityVerified.as("identity_verified"))
      .where("id", "=", id)
      .where("account_type", "=", "freelancer")
      .executeTakeFirst(),
    listPortfolio(id),
  ]);
  if (!user) throw new AppError(404, "profile_not_found");
  return { ...toPublicProfile(user), portfolio };
}

export async function getMerchantProfile(
  id: string,
  viewerId?: string,
): Promise<PublicProfileJson & { open_opportunities_count: number; company_name: string | null }> {
  assertId(id, "profile_not_found");
  const user = await profileQuery()
    .$call(hiddenFrom(viewerId, id))
    .select(PROFILE_COLUMNS)
    // The company's name is public; its CNPJ is not (only on the receipts of the merchant's own contracts).
    .select("users.company_name")
    .select(completedContracts.as("completed_contracts"))
    .select(identityVerified.as("identity_verified"))
    .select((eb) =>
      eb
        .selectFrom("opportunities")
        .select((o) => o.fn.countAll<number>().as("n"))
        .where("opportunities.merchant_id", "=", id)
        .where("opportunities.status", "=", "open")
        .where("opportunities.hidden_at", "is", null)
        .where("opportunities.held_at", "is", null)
        .as("open_opportunities_count"),
    )
    .where("id", "=", id)
    .where("account_type", "=", "merchant")
    .executeTakeFirst();
  if (!user) throw new AppError(404, "profile_not_found");
  return {
    ...toPublicProfile(user),
    company_name: user.company_name,
    open_opportunities_count: Number(user.open_opportunities_count ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Directory

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const intParam = (key: string, max: number, fallback: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : emptyToUndefined(v)),
    z.number({ invalid_type_error: key }).int(key).min(1, key).max(max, key).default(fallback),
  );
const textParam = (key: string, max: number) =>
  z.preprocess(emptyToUndefined, z.string({ invalid_type_error: key }).trim().max(max, key).optional());

export const directoryQuerySchema = z
  .object({
    q: textParam("query_invalid", 200),
    skill: textParam("skill_filter_invalid", 30),
    city: textParam("city_filter_invalid", 80),
    remote: z.preprocess(
      emptyToUndefined,
      z.enum(["1", "true"], { errorMap: () => ({ message: "remote_filter_invalid" }) }).optional(),
    ),
    verified: z.preprocess(
      emptyToUndefined,
      z.enum(["1", "true"], { errorMap: () => ({ message: "verified_filter_invalid" }) }).optional(),
    ),
    min_rating: z.preprocess(
      (v) =>
        typeof v === "string" && /^\s*[1-5]([.,]\d)?\s*$/.test(v) ? Number(v.replace(",", ".")) : emptyToUndefined(v),
      z
        .number({ invalid_type_error: "min_rating_invalid" })
        .min(1, "min_rating_invalid")
        .max(5, "min_rating_invalid")
        .optional(),
    ),
    sort: z.preprocess(
      emptyToUndefined,
      z.enum(DIRECTORY_SORTS, { errorMap: () => ({ message: "sort_invalid" }) }).optional(),
    ),
    page: intParam("page_invalid", 1_000_000, 1),
    per_page: intParam("per_page_invalid", MAX_PER_PAGE, DEFAULT_PER_PAGE),
  })
  // Unsaid, a text search is in order of relevance; relevance without text is the proven order.
  .transform((q) => ({
    ...q,
    sort: q.sort === "relevance" && !q.q ? "proven" : (q.sort ?? defaultDirectorySort(q.q)),
  }));

/**
 * How well a freelancer matches the search's words: per word, 3 when a word of the name begins
 * with it, 2 when a skill does, 1 otherwise (it is somewhere in the bio). The same SQL on both engines.
 */
const relevanceOf = (words: string[]) =>
  sql.join(
    words.map(
      (w) =>
        sql`CASE WHEN ' ' || users.sort_name LIKE ${`% ${likeLiteral(w)}%`} ESCAPE '\\' THEN 3 WHEN users.search_skills LIKE ${`%|${likeLiteral(w)}%`} ESCAPE '\\' THEN 2 ELSE 1 END`,
    ),
    sql` + `,
  );

/** Rated people first, best average first, then the most rated. */
export const byRating = <QB extends SelectQueryBuilder<Database, "users", object>>(qb: QB): QB =>
  qb
    .orderBy(sql`CASE WHEN users.rating_count = 0 THEN 1 ELSE 0 END`)
    .orderBy(sql`users.rating_sum * 1.0 / CASE WHEN users.rating_count = 0 THEN 1 ELSE users.rating_count END`, "desc")
    .orderBy("users.rating_count", "desc") as QB;

/**
 * The freelancers the directory shows at `at`: profiles an operator hid, people suspended, banned
 * or deleted are out.
 */
export function directoryFreelancers(at: string) {
  return db
    .selectFrom("users")
    .where("users.account_type", "=", "freelancer")
    .where("users.profile_hidden_at", "is", null)
    .where("users.banned_at", "is", null)
    .where("users.deleted_at", "is", null)
    .where((eb) => eb.or([eb("users.suspended_until", "is", null), eb("users.suspended_until", "<=", at)]));
}

/** `%`, `_` and the escape itself stand for themselves in a LIKE pattern (ESCAPE '\'). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A freelancer lists this skill (folded with foldKey): the directory's skill filter. */
export const hasSkill = (skill: string) =>
  sql<boolean>`users.search_skills LIKE ${`%|${likeLiteral(skill)}|%`} ESCAPE '\\'`;

/**
 * Freelancers matching the filters, one page, with the total: two queries, whatever the page size.
 *
 * Text search is a LIKE over users.search_text, the folded words of the names, bio and skills
 * that the services keep beside the profile (app/lib/directory.ts): `% word%` finds a word by its
 * beginning, every word of the query must be found. The same SQL on SQLite and PostgreSQL and
 * no full-text index to keep in step (opportunities need one: their descriptions are long and
 * counted in hundreds of thousands). A directory of ~10 000 freelancers is a scan of ~10 000
 * short strings in the (account_type, …) index order, a few milliseconds; a page of the
 * unfiltered directory stops after its rows. Past ~100 000 freelancers this is where an index of
 * words (or FTS5/tsvector, as for opportunities) should come in.
 */
export async function listFreelancers(
  query: unknown,
  { visitors = false }: { visitors?: boolean } = {},
): Promise<{ data: PublicProfileJson[]; meta: PageMeta }> {
  const q = parseInput(directoryQuerySchema, query);
  const words = q.q ? queryWords(q.q) : [];
  const skill = q.skill ? foldKey(q.skill) : "";
  const city = q.city ? foldKey(q.city) : "";
  const base = directoryFreelancers(now())
    // The visitors' directory: only the profiles their owners show to visitors (public pages).
    .$if(visitors, (qb) => qb.where("users.public_profile", "=", 1))
    .$call((qb) =>
      words.reduce((b, w) => b.where(sql<boolean>`users.search_text LIKE ${`% ${likeLiteral(w)}%`} ESCAPE '\\'`), qb),
    )
    .$if(skill !== "", (qb) => qb.where(hasSkill(skill)))
    .$if(city !== "", (qb) => qb.where("users.search_city", "=", city))
    .$if(q.remote !== undefined, (qb) => qb.where("users.remote", "=", 1))
    .$if(q.verified !== undefined, (qb) => qb.where(sql<boolean>`${identityVerified} > 0`))
    // Average ≥ min, in integers: sum × 10 ≥ round(min × 10) × count.
    .$if(q.min_rating !== undefined, (qb) =>
      qb
        .where("users.rating_count", ">", 0)
        .where(sql<boolean>`users.rating_sum * 10 >= ${Math.round(q.min_rating! * 10)} * users.rating_count`),
    );
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    base
      .select(PROFILE_COLUMNS)
      .select(completedContracts.as("completed_contracts"))
      .select(identityVerified.as("identity_verified"))
      .$if(q.sort === "relevance" && words.length > 0, (qb) => qb.orderBy(sql`${relevanceOf(words)}`, "desc"))
      // Proven first: completed contracts, then the rating (as below), then the newest (a relevance tie too).
      .$if(q.sort === "proven" || q.sort === "relevance", (qb) =>
        byRating(qb.orderBy(sql`completed_contracts`, "desc"))
          .orderBy("users.created_at", "desc")
          .orderBy("users.id", "desc"),
      )
      .$if(q.sort === "rating", (qb) => byRating(qb).orderBy("users.id"))
      .$if(q.sort === "contracts", (qb) => qb.orderBy(sql`completed_contracts`, "desc").orderBy("users.id"))
      .$if(q.sort === "newest", (qb) => qb.orderBy("users.created_at", "desc").orderBy("users.id", "desc"))
      .$if(q.sort === "name", (qb) => qb.orderBy("users.sort_name").orderBy("users.id"))
      .limit(q.per_page)
      .offset(offsetOf(q.page, q.per_page))
      .execute(),
  ]);
  return { data: rows.map(toPublicProfile), meta: pageMeta(q.page, q.per_page, Number(total)) };
}
