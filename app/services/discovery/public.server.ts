import { sql } from "kysely";
import { joined, URLSET_CLOSE, URLSET_OPEN, urlsetPieces } from "~/lib/sitemap";
import { opportunitySlug, slugify } from "~/lib/slug";
import { config } from "~/config.server";
import { db } from "../../../db";
import { displayNameOf, parseTags, photoUrl } from "../accounts/users.server";
import type { UserRow } from "../../../db/schema";
import { listOpportunities, publishedFields, type OpportunityJson } from "../marketplace/opportunities.server";
import { getSettings } from "../operator/settings.server";
import { AppError } from "../platform/errors.server";
import { now, UUID, type PageMeta } from "../platform/records.server";
import { listPortfolio, type PortfolioItemJson } from "../reputation/portfolio.server";
import { identityVerifiedOf, listFreelancers, type PublicProfileJson } from "../reputation/profiles.server";
import { ratingOf, type Rating } from "../reputation/reviews.server";

// Public pages (docs/product.md, "Páginas públicas"): what a visitor who is not signed in may read
// of an open opportunity and of a freelancer's profile, their addresses (a service's too), and the
// sitemap (services' pages included). Only
// what is listed in the types below ever leaves here: no applicant, no e-mail, no contact of the
// merchant, the city and never an address. Hidden or held opportunities, hidden profiles (by an
// operator or by their owner) and suspended or banned accounts are never shown (404).

/** URLs per sitemap page (the protocol's maximum). */
export const SITEMAP_PAGE_SIZE = 50_000;
/** Profiles aimed at per sitemap page: half the maximum, so a page of random ids never overflows. */
const PROFILES_PER_PAGE = SITEMAP_PAGE_SIZE / 2;

// ---------------------------------------------------------------------------------------------
// Addresses

export { slugify };

/** The address of an opportunity's public page (its stored slug is slugify(title), kept with the title). */
export const opportunityPath = (o: { uuid: string; title: string }) => `/vagas/${opportunitySlug(o.title)}-${o.uuid}`;
export const profilePath = (p: { id: string; name: string }) => `/perfil/${slugify(p.name, "perfil")}-${p.id}`;
/** The address of a ready-made service's page (its stored slug follows its title). */
export const servicePath = (s: { id: string; slug: string }) => `/servicos/${s.slug}-${s.id}`;
/** An absolute address on this site, from APP_URL only (never a request's Host). */
export const siteUrl = (path: string) => `${config.APP_URL}${path}`;

/**
 * The id at the end of a public address's last segment (`<slug>-<uuid>`, or the uuid alone); null
 * when there is none (the page's 404).
 */
export function idFromSlug(segment: string | undefined): string | null {
  if (!segment || segment.length > 200) return null;
  const id = segment.slice(-36);
  if (!UUID.test(id)) return null;
  return segment.length === 36 || segment[segment.length - 37] === "-" ? id : null;
}

// ---------------------------------------------------------------------------------------------
// The switch

/** Whether the operator keeps public pages on (settings: public_pages). */
export async function publicPagesOn(): Promise<boolean> {
  return (await getSettings()).public_pages === 1;
}

async function assertPublicPagesOn() {
  if (!(await publicPagesOn())) throw new AppError(404, "not_found");
}

// ---------------------------------------------------------------------------------------------
// Opportunities

/** What a visitor reads of an opportunity: the signed-in JSON's public fields, and where it lives. */
export type PublicOpportunity = Pick<
  OpportunityJson,
  | "uuid"
  | "title"
  | "description"
  | "category"
  | "skills"
  | "budget_type"
  | "budget_min_cents"
  | "budget_max_cents"
  | "currency"
  | "deadline"
  | "location_type"
  | "city"
  | "vacancies"
  | "created_at"
  | "updated_at"
> & {
  path: string;
  url: string;
  /** The merchant's name as shown on the site, their rating and "Identidade verificada": no contact, no id. */
  merchant: { name: string; rating: Rating; identity_verified: boolean };
};

/** A closed (or filled) opportunity: its title and address only, for the 410 page. */
export type ClosedOpportunity = { uuid: string; path: string; title: string };

/** An account that must not appear on public pages (suspended now, or banned). */
const sanctioned = (at: string) =>
  sql<boolean>`(u.banned_at IS NOT NULL OR (u.suspended_until IS NOT NULL AND u.suspended_until > ${at}))`;

/**
 * The public view of an opportunity: `{ open }` when it is open, `{ closed }` when it closed or
 * filled (the page answers 410); 404 when public pages are off, it does not exist, an operator hid
 * it or holds it, or its merchant is suspended or banned. Two statements.
 */
export async function getPublicOpportunity(
  uuid: string,
): Promise<{ open: PublicOpportunity; closed?: never } | { closed: ClosedOpportunity; open?: never }> {
  if (!UUID.test(uuid)) throw new AppError(404, "not_found");
  await assertPublicPagesOn();
  const at = now();
  const row = await db
    .selectFrom("opportunities as o")
    .innerJoin("users as u", "u.id", "o.merchant_id")
    .select([
      "o.uuid",
      "o.title",
      "o.description",
      "o.category",
      "o.skills",
      "o.budget_type",
      "o.budget_min_cents",
      "o.budget_max_cents",
      "o.currency",
      "o.deadline",
      "o.location_type",
      "o.city",
      "o.vacancies",
      "o.status",
      "o.created_at",
      "o.updated_at",
      "u.display_name",
      "u.full_name",
      "u.rating_count",
      "u.rating_sum",
      identityVerifiedOf("u.id").as("identity_verified"),
    ])
    .where("o.uuid", "=", uuid)
    .where("o.hidden_at", "is", null)
    .where("o.held_at", "is", null)
    // An order's opportunity (a ready-made service bought) has no public page.
    .where("o.service_id", "is", null)
    .where(sql<boolean>`NOT ${sanctioned(at)}`)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  const path = opportunityPath(row);
  if (row.status !== "open") return { closed: { uuid: row.uuid, path, title: row.title } };
  return {
    open: {
      uuid: row.uuid,
      path,
      url: siteUrl(path),
      ...publishedFields(row),
      city: row.location_type === "remote" ? null : row.city,
      created_at: row.created_at,
      updated_at: row.updated_at,
      merchant: {
        name: displayNameOf({ display_name: row.display_name, full_name: row.full_name }),
        rating: ratingOf(row),
        identity_verified: Number(row.identity_verified ?? 0) > 0,
      },
    },
  };
}

/**
 * The address a signed-in reader may share of an opportunity: its public page's, when a visitor
 * would see it there (open, neither hidden nor held, public pages on, the merchant in good
 * standing); null otherwise. The same two statements as the public page.
 */
export async function opportunityShareUrl(uuid: string): Promise<string | null> {
  return (await unlessNotFound(getPublicOpportunity(uuid)))?.open?.url ?? null;
}

/** What `read` gives, or null when it is not found (a 404: not shown to visitors). */
async function unlessNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Profiles

/** What a visitor reads of a freelancer: the signed-in profile's public fields, the portfolio and where it lives. */
export type PublicProfile = Pick<
  PublicProfileJson,
  | "id"
  | "name"
  | "photo_url"
  | "bio"
  | "skills"
  | "city"
  | "remote"
  | "member_since"
  | "rating"
  | "completed_contracts"
  | "identity_verified"
> & {
  path: string;
  url: string;
  portfolio: PortfolioItemJson[];
};

/**
 * A freelancer's public profile; 404 when public pages are off, it is not a freelancer, an
 * operator hid it, its owner turned it off, or the account is suspended or banned. Three statements.
 */
export async function getPublicProfile(id: string): Promise<PublicProfile> {
  if (!UUID.test(id)) throw new AppError(404, "profile_not_found");
  await assertPublicPagesOn();
  const at = now();
  const [row, portfolio] = await Promise.all([
    db
      .selectFrom("users as u")
      .select([
        "u.id",
        "u.display_name",
        "u.full_name",
        "u.photo_path",
        "u.bio",
        "u.skills",
        "u.city",
        "u.remote",
        "u.created_at",
        "u.rating_count",
        "u.rating_sum",
        sql<number>`(SELECT count(*) FROM contracts c WHERE c.status = 'completed' AND c.freelancer_id = u.id)`.as(
          "completed_contracts",
        ),
        identityVerifiedOf("u.id").as("identity_verified"),
      ])
      .where("u.id", "=", id)
      .where("u.account_type", "=", "freelancer")
      .where("u.public_profile", "=", 1)
      .where("u.profile_hidden_at", "is", null)
      .where(sql<boolean>`NOT ${sanctioned(at)}`)
      .executeTakeFirst(),
    listPortfolio(id),
  ]);
  if (!row) throw new AppError(404, "profile_not_found");
  const name = displayNameOf(row);
  const path = profilePath({ id: row.id, name });
  return {
    id: row.id,
    path,
    url: siteUrl(path),
    name,
    photo_url: photoUrl(row.photo_path),
    bio: row.bio,
    skills: parseTags(row.skills),
    city: row.city,
    remote: row.remote === 1,
    member_since: row.created_at,
    rating: ratingOf(row),
    completed_contracts: Number(row.completed_contracts ?? 0),
    identity_verified: Number(row.identity_verified ?? 0) > 0,
    portfolio,
  };
}

/** A freelancer's own public page address to share, when visitors can see it; null otherwise. */
export async function profileShareUrl(id: string): Promise<string | null> {
  return (await unlessNotFound(getPublicProfile(id)))?.url ?? null;
}

// ---------------------------------------------------------------------------------------------
// Lists: the open opportunities and the directory, as a visitor browses them

/** An opportunity in the visitors' list: the public page's fields but the merchant's rating, and its address. */
export type PublicOpportunityItem = Omit<PublicOpportunity, "url" | "merchant" | "updated_at"> & {
  merchant: { name: string };
};

/** A freelancer in the visitors' directory: the public page's fields but the portfolio, and its address. */
export type PublicProfileItem = Omit<PublicProfile, "url" | "portfolio" | "member_since">;

/**
 * Reads lists as a freelancer with no account would: open opportunities only, neither hidden nor
 * held, and no application of theirs (no account has this id).
 */
const VISITOR = { id: "00000000-0000-4000-8000-000000000000", account_type: "freelancer" } as UserRow;

/**
 * One page of the open opportunities for the list's filters (those of the signed-in list, the
 * status and "mine" aside), newest first unless asked otherwise. 404 when public pages are off.
 * An account suspended or banned has its opportunities closed by the sanction, so none is listed.
 * Three statements (the settings, the count and the page), whatever the data.
 */
export async function listPublicOpportunities(
  query: Record<string, unknown>,
): Promise<{ data: PublicOpportunityItem[]; meta: PageMeta & { total_capped?: boolean } }> {
  await assertPublicPagesOn();
  const { data, meta } = await listOpportunities(VISITOR, { ...query, status: undefined, mine: undefined });
  return {
    meta,
    data: data.map((o) => ({
      uuid: o.uuid,
      path: opportunityPath(o),
      title: o.title,
      description: o.description,
      category: o.category,
      skills: o.skills,
      budget_type: o.budget_type,
      budget_min_cents: o.budget_min_cents,
      budget_max_cents: o.budget_max_cents,
      currency: o.currency,
      deadline: o.deadline,
      location_type: o.location_type,
      city: o.location_type === "remote" ? null : o.city,
      vacancies: o.vacancies,
      created_at: o.created_at,
      merchant: { name: o.merchant.display_name ?? "" },
    })),
  };
}

/**
 * One page of the freelancers a visitor may see (the directory's filters and orders; a profile
 * its owner keeps from visitors is left out). 404 when public pages are off. Three statements.
 */
export async function listPublicProfiles(
  query: Record<string, unknown>,
): Promise<{ data: PublicProfileItem[]; meta: PageMeta }> {
  await assertPublicPagesOn();
  const { data, meta } = await listFreelancers(query, { visitors: true });
  return {
    meta,
    data: data.map((p) => ({
      id: p.id,
      path: profilePath(p),
      name: p.name,
      photo_url: p.photo_url,
      bio: p.bio,
      skills: p.skills,
      city: p.city,
      remote: p.remote,
      rating: p.rating,
      completed_contracts: p.completed_contracts,
      identity_verified: p.identity_verified,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Sitemap

export type SitemapEntry = { loc: string; lastmod?: string };
/**
 * The sitemap files that list something: page numbers of each kind. The protocol's schema wants
 * at least one `<url>` in a file and one `<sitemap>` in an index, so an empty file is neither
 * listed nor served (404).
 */
export type SitemapIndex = { pages: number[]; opportunities: number[]; profiles: number[]; services: number[] };

/** The pages of no id a visitor may browse: the home and the lists (sitemap's `pages-1.xml`). */
export const BROWSE_PATHS = ["/", "/vagas", "/perfis", "/servicos"] as const;

/** An open opportunity a visitor may see (`o`, its merchant `u`): the page's rule, for the sitemap. */
const opportunityListed = (at: string) =>
  sql<boolean>`o.status = 'open' AND o.hidden_at IS NULL AND o.held_at IS NULL AND o.service_id IS NULL AND NOT ${sanctioned(at)}`;

/** A published service a visitor may see (`s`, its freelancer `u`): the service layer's rule, for the sitemap. */
const serviceListed = (at: string) =>
  sql<boolean>`s.status = 'published' AND s.hidden_at IS NULL AND u.deleted_at IS NULL AND NOT ${sanctioned(at)}`;

/**
 * The sitemap's files that list something (none when public pages are off). Opportunities are
 * paged by id range (page n holds ids ((n-1)·50 000, n·50 000]): a page is listed when one of its
 * range is shown, found by one lookup of the primary key's range per page. Profiles by ranges of
 * their random ids (a power of two of them, ~25 000 profiles each), listed when there is any.
 * Two statements whatever the data (the settings, then one for both kinds).
 */
export async function sitemapIndex(): Promise<SitemapIndex> {
  if (!(await publicPagesOn())) return { pages: [], opportunities: [], profiles: [], services: [] };
  const at = now();
  // Written into the statement: an integer, so that n's arithmetic stays integer on SQLite.
  const size = sql.lit(SITEMAP_PAGE_SIZE);
  const row = await db
    .selectNoFrom([
      sql<string | null>`(
        WITH RECURSIVE pages(n) AS (
          SELECT 1
          UNION ALL
          SELECT n + 1 FROM pages
           WHERE n < (SELECT (max(id) + ${sql.lit(SITEMAP_PAGE_SIZE - 1)}) / ${size} FROM opportunities)
        )
        SELECT string_agg(CAST(p.n AS text), ',' ORDER BY p.n) FROM pages p
         WHERE EXISTS (
           SELECT 1 FROM opportunities o INNER JOIN users u ON u.id = o.merchant_id
            WHERE o.id > (p.n - 1) * ${size} AND o.id <= p.n * ${size}
              AND ${opportunityListed(at)}))`.as("opportunity_pages"),
      // Services the same way, by their row number (seq).
      sql<string | null>`(
        WITH RECURSIVE pages(n) AS (
          SELECT 1
          UNION ALL
          SELECT n + 1 FROM pages
           WHERE n < (SELECT (max(seq) + ${sql.lit(SITEMAP_PAGE_SIZE - 1)}) / ${size} FROM services)
        )
        SELECT string_agg(CAST(p.n AS text), ',' ORDER BY p.n) FROM pages p
         WHERE EXISTS (
           SELECT 1 FROM services s INNER JOIN users u ON u.id = s.freelancer_id
            WHERE s.seq > (p.n - 1) * ${size} AND s.seq <= p.n * ${size}
              AND ${serviceListed(at)}))`.as("service_pages"),
      sql<number | string>`(SELECT count(*) FROM users u WHERE ${profileShown(at)})`.as("profiles"),
    ])
    .executeTakeFirstOrThrow();
  const profiles = Number(row.profiles);
  return {
    pages: [1],
    opportunities: row.opportunity_pages ? row.opportunity_pages.split(",").map(Number) : [],
    profiles: profiles ? Array.from({ length: profilePages(profiles) }, (_, i) => i + 1) : [],
    services: row.service_pages ? row.service_pages.split(",").map(Number) : [],
  };
}

/**
 * How many pages of a kind there are, listing something or not (0 when public pages are off):
 * opportunities' from the highest id, profiles' from their count. Two statements.
 */
async function pageCount(kind: "opportunities" | "profiles" | "services"): Promise<number> {
  if (!(await publicPagesOn())) return 0;
  const row = await db
    .selectNoFrom(
      kind === "opportunities"
        ? sql<number | string | null>`(SELECT max(id) FROM opportunities)`.as("n")
        : kind === "services"
          ? sql<number | string | null>`(SELECT max(seq) FROM services)`.as("n")
          : sql<number | string>`(SELECT count(*) FROM users u WHERE ${profileShown(now())})`.as("n"),
    )
    .executeTakeFirstOrThrow();
  const n = Number(row.n ?? 0);
  return kind === "profiles" ? profilePages(n) : Math.max(1, Math.ceil(n / SITEMAP_PAGE_SIZE));
}

const profileShown = (at: string) =>
  sql<boolean>`u.account_type = 'freelancer' AND u.public_profile = 1 AND u.profile_hidden_at IS NULL AND NOT ${sanctioned(at)}`;

/** The smallest power of two of pages that leaves ~25 000 profiles or fewer to each. */
function profilePages(count: number) {
  let pages = 1;
  while (count / pages > PROFILES_PER_PAGE && pages < 65_536) pages *= 2;
  return pages;
}

/** The browsing pages' file (BROWSE_PATHS): page 1 only, while public pages are on; null otherwise (404). */
export async function pagesSitemapXml(n: number): Promise<string | null> {
  if (n !== 1 || !(await publicPagesOn())) return null;
  return urlsetXml(BROWSE_PATHS.map((path) => ({ loc: siteUrl(path) })));
}

/**
 * Page `n` of the open opportunities (1-based) as the sitemap's XML, in pieces (see urlsetPieces);
 * null when public pages are off, n is past the last page or nothing of its range is shown (404).
 * The database writes the `<url>` lines of each piece in one statement over a range of the primary
 * key (the stored slug, the uuid and updated_at need no escaping: letters, digits, "-", ":" and
 * "."), so 50 000 of them cost no work per row here.
 */
export async function opportunitiesSitemap(n: number): Promise<AsyncIterable<string> | null> {
  const pages = await pageCount("opportunities");
  if (!Number.isSafeInteger(n) || n < 1 || n > pages) return null;
  // Suspending or banning an account closes its opportunities, but the page's rule is checked
  // here too (one lookup of the merchant by primary key per row), so both always agree.
  const at = now();
  const base = escapeXml(siteUrl("/vagas/"));
  return urlsetPieces((n - 1) * SITEMAP_PAGE_SIZE, SITEMAP_PAGE_SIZE, async (from, to) => {
    const row = await db
      .selectFrom("opportunities as o")
      .innerJoin("users as u", "u.id", "o.merchant_id")
      .select(
        sql<string | null>`string_agg(
          '<url><loc>' || CAST(${base} AS text) || o.slug || '-' || o.uuid || '</loc><lastmod>' || o.updated_at || '</lastmod></url>',
          CAST(${"\n"} AS text) ORDER BY o.id)`.as("urls"),
      )
      .where("o.id", ">", from)
      .where("o.id", "<=", to)
      .where(opportunityListed(at))
      .executeTakeFirst();
    return row?.urls ?? null;
  });
}

/**
 * Page `n` of the published services a visitor may see, as the sitemap's XML in pieces: ranges of
 * their row numbers, written by the database like the opportunities' (the stored slug, the uuid
 * and updated_at need no escaping); null when public pages are off, past the last page or when
 * nothing of its range is shown (404).
 */
export async function servicesSitemap(n: number): Promise<AsyncIterable<string> | null> {
  const pages = await pageCount("services");
  if (!Number.isSafeInteger(n) || n < 1 || n > pages) return null;
  const at = now();
  const base = escapeXml(siteUrl("/servicos/"));
  return urlsetPieces((n - 1) * SITEMAP_PAGE_SIZE, SITEMAP_PAGE_SIZE, async (from, to) => {
    const row = await db
      .selectFrom("services as s")
      .innerJoin("users as u", "u.id", "s.freelancer_id")
      .select(
        sql<string | null>`string_agg(
          '<url><loc>' || CAST(${base} AS text) || s.slug || '-' || s.id || '</loc><lastmod>' || s.updated_at || '</lastmod></url>',
          CAST(${"\n"} AS text) ORDER BY s.seq)`.as("urls"),
      )
      .where("s.seq", ">", from)
      .where("s.seq", "<=", to)
      .where(serviceListed(at))
      .executeTakeFirst();
    return row?.urls ?? null;
  });
}

/** Page `n` of the open opportunities' sitemap as one string (see opportunitiesSitemap). */
export const opportunitiesSitemapXml = async (n: number) => joined(await opportunitiesSitemap(n));
/** Page `n` of the services' sitemap as one string (see servicesSitemap). */
export const servicesSitemapXml = async (n: number) => joined(await servicesSitemap(n));

/**
 * Page `n` of the shown profiles: the n-th range of the ids' first 32 bits; null past the last
 * page or when its range has none (with random ids, only when there is no profile at all).
 */
export async function profilesSitemap(n: number): Promise<SitemapEntry[] | null> {
  const pages = await pageCount("profiles");
  if (!Number.isSafeInteger(n) || n < 1 || n > pages) return null;
  const step = 2 ** 32 / pages;
  const bound = (k: number) =>
    Math.round(k * step)
      .toString(16)
      .padStart(8, "0");
  const at = now();
  const rows = await db
    .selectFrom("users as u")
    .select(["u.id", "u.display_name", "u.full_name", "u.updated_at"])
    .where(profileShown(at))
    .$if(n > 1, (qb) => qb.where("u.id", ">=", bound(n - 1)))
    .$if(n < pages, (qb) => qb.where("u.id", "<", bound(n)))
    .orderBy("u.id")
    .limit(SITEMAP_PAGE_SIZE)
    .execute();
  if (rows.length === 0) return null;
  return rows.map((r) => ({ loc: siteUrl(profilePath({ id: r.id, name: displayNameOf(r) })), lastmod: r.updated_at }));
}

// ---------------------------------------------------------------------------------------------
// XML

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/**
 * The document at /sitemap.xml: an index of the files that list something; with none (public pages
 * off, or nothing shown yet) a urlset of the home page alone, as neither an index nor a urlset may
 * be empty.
 */
export function sitemapXml(index: SitemapIndex): string {
  const files = [
    ...index.pages.map((n) => `/sitemap/pages-${n}.xml`),
    ...index.opportunities.map((n) => `/sitemap/opportunities-${n}.xml`),
    ...index.profiles.map((n) => `/sitemap/profiles-${n}.xml`),
    ...index.services.map((n) => `/sitemap/services-${n}.xml`),
  ];
  if (files.length === 0) return urlsetXml([{ loc: siteUrl("/") }]);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    files.map((f) => `<sitemap><loc>${escapeXml(siteUrl(f))}</loc></sitemap>\n`).join("") +
    `</sitemapindex>\n`
  );
}

const XML_SPECIAL = /[<>&'"]/;
/** Escaped only when needed: the addresses made here rarely hold a character to escape. */
const xmlText = (s: string) => (XML_SPECIAL.test(s) ? escapeXml(s) : s);

export function urlsetXml(entries: SitemapEntry[]): string {
  const parts = [URLSET_OPEN];
  for (const e of entries) {
    const lastmod = e.lastmod ? `<lastmod>${xmlText(e.lastmod)}</lastmod>` : "";
    parts.push(`<url><loc>${xmlText(e.loc)}</loc>${lastmod}</url>\n`);
  }
  parts.push(URLSET_CLOSE);
  return parts.join("");
}

/**
 * robots.txt: the public pages and the sitemap, or nothing at all when the operator turned them
 * off. Closed too: the pages of the links sent by e-mail, whose address holds a personal token
 * (they also answer noindex and no-store: TOKEN_PAGE_HEADERS).
 */
export async function robotsTxt(): Promise<string> {
  if (!(await publicPagesOn())) return "User-agent: *\nDisallow: /\n";
  return [
    "User-agent: *",
    // Prefixes: the lists (/vagas, /perfis) and the pages under them (/vagas/…, /perfil/…).
    "Allow: /vagas",
    "Allow: /perfil",
    "Allow: /servicos",
    "Disallow: /api/",
    "Disallow: /admin",
    "Disallow: /applications/",
    "Disallow: /contracts/",
    "Disallow: /unsubscribe/",
    "Disallow: /buscas-salvas/cancelar/",
    "Disallow: /reset-password",
    "Disallow: /verify-email",
    "Disallow: /sessions/end",
    `Sitemap: ${siteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
}
