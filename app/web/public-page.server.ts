import { json, redirect, type HeadersFunction } from "@remix-run/node";
import type { UserRow } from "../../db/schema";
import type { Lng } from "~/lib/i18n";
import type { Seo } from "~/lib/public-meta";
import type { PublicService } from "~/services/catalog/public-services.server";
import { AppError } from "~/services/platform/errors.server";
import {
  idFromSlug,
  listPublicOpportunities,
  siteUrl,
  type PublicOpportunity,
  type PublicProfile,
} from "~/services/discovery/public.server";
import { fixedT } from "~/services/platform/i18n.server";
import { loaderRefusal, orRefusal } from "./errors.server";
import { i18nServer } from "./i18n.server";
import { getOptionalUser } from "./session.server";

/** Open Graph's locale of each language (es_LA: Spanish for Latin America). */
const OG_LOCALES: Record<Lng, string> = { "pt-BR": "pt_BR", en: "en_US", es: "es_LA" };

// The web side of the public pages: who is asking (a visitor's answer may be cached by a CDN and
// never sets a cookie; a signed-in user's is private), the id in `<slug>-<uuid>`, the canonical
// address, and the structured data (schema.org JSON-LD).

/** A visitor's page may be kept a minute by a shared cache; a signed-in user's never. */
export function publicCacheHeaders(user: UserRow | null): HeadersInit {
  return user
    ? { "Cache-Control": "private, no-store", Vary: "Cookie, Accept-Language" }
    : { "Cache-Control": "public, max-age=60", Vary: "Cookie, Accept-Language" };
}

/** The loader's headers (its Cache-Control) are the page's; an error page keeps its own. */
export const publicHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/** The viewer, if signed in (the page is the same; the call to action differs). */
const publicViewer = (request: Request) => getOptionalUser(request);

/** The id at the end of the path's `<slug>-<uuid>`; anything else is the page's 404. */
function publicId(segment: string | undefined): string {
  const id = idFromSlug(segment);
  if (!id) throw loaderRefusal(new AppError(404, "not_found"));
  return id;
}

/**
 * What every public page's loader starts with: the thing at the path's id (`read`; its refusal is
 * the page's 404), who is looking, and their language (with its common texts and Open Graph
 * locale), read at once.
 */
export async function readPublicPage<T>(request: Request, slug: string | undefined, read: (id: string) => Promise<T>) {
  const id = publicId(slug);
  const { found, ...rest } = await readPublic(request, () => read(id));
  return { found, ...rest };
}

/** The same for a page of no id (the lists, the visitors' home): what `read` gives, or its refusal. */
export async function readPublic<T>(request: Request, read: () => Promise<T>) {
  const [found, viewer, lng] = await Promise.all([
    orRefusal(read()),
    publicViewer(request),
    i18nServer.getLocale(request),
  ]);
  return {
    found,
    viewer,
    lng,
    t: fixedT(lng, "common"),
    ogLocale: OG_LOCALES[lng as Lng] ?? OG_LOCALES["pt-BR"],
    cacheHeaders: publicCacheHeaders(viewer),
  };
}

/**
 * A public list's canonical address: the list itself, or its page n (n > 1). A list read with
 * filters is not indexed (`filtered`): its first page, unfiltered, stands for it.
 */
function listCanonical(path: string, filters: Record<string, string>) {
  const page = Number(filters.page);
  const filtered = Object.keys(filters).some((k) => k !== "page");
  return { canonical: siteUrl(page > 1 ? `${path}?page=${page}` : path), filtered };
}

/** schema.org ItemList of a public list's page: the addresses of its items, in order. */
function itemList(paths: string[], offset: number) {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: paths.map((path, i) => ({ "@type": "ListItem", position: offset + i + 1, url: siteUrl(path) })),
  };
}

/**
 * What a public list's loader answers besides the list (`/vagas`, `/perfis`, `/servicos`): its head
 * (title and description under `public.<name>_…`, the services' under `services:public.list_…`;
 * the canonical address, the site's image), whether it is indexed, its items as a schema.org
 * ItemList, and the viewer's account type.
 */
export function publicList(
  { t, ogLocale, viewer }: Pick<Awaited<ReturnType<typeof readPublic>>, "t" | "ogLocale" | "viewer">,
  name: "opportunities" | "profiles" | "services",
  path: string,
  filters: Record<string, string>,
  list: { data: { path: string }[]; meta: { page: number; per_page: number } },
) {
  const { canonical, filtered } = listCanonical(path, filters);
  // The services' texts live in their own namespace.
  const text = (part: "title" | "description") =>
    name === "services" ? t(`services:public.list_${part}`) : t(`public.${name}_${part}`);
  const seo: Seo = {
    title: text("title"),
    description: text("description"),
    canonical,
    image: absolute(null),
    locale: ogLocale,
    type: "website",
    card: "summary_large_image",
  };
  return {
    seo,
    noindex: filtered,
    ld: itemList(
      list.data.map((item) => item.path),
      (list.meta.page - 1) * list.meta.per_page,
    ),
    viewer: viewer ? viewer.account_type : null,
  };
}

/** A wrong or missing slug for the right id: 301 to the canonical address (the query kept). */
export function canonicalRedirect(request: Request, path: string) {
  const url = new URL(request.url);
  if (url.pathname !== path) throw redirect(path + url.search, 301);
}

/** The site's preview image, for pages without a photo of their own. */
export const SITE_IMAGE = "/og-image.png";
export const absolute = (path: string | null) => siteUrl(path ?? SITE_IMAGE);

/**
 * schema.org JobPosting of an open opportunity (only the public fields). No `validThrough`: an
 * opportunity takes applications until its merchant closes it or its vacancies fill, on no date
 * known beforehand (its `deadline` is the delivery's, and an open opportunity past it still takes
 * applications); once closed its page answers 410. A pay rate (`baseSalary`, whose unit Google
 * requires) only for an hourly budget: a fixed budget is the price of the whole work, not a salary.
 */
export function jobPosting(o: PublicOpportunity) {
  const remote = o.location_type === "remote";
  return {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    title: o.title,
    description: o.description,
    datePosted: o.created_at,
    employmentType: "CONTRACTOR",
    url: o.url,
    identifier: { "@type": "PropertyValue", name: "Freela", value: o.uuid },
    hiringOrganization: { "@type": "Organization", name: o.merchant.name },
    ...(remote
      ? { jobLocationType: "TELECOMMUTE", applicantLocationRequirements: { "@type": "Country", name: "BR" } }
      : {}),
    ...(o.city
      ? {
          jobLocation: {
            "@type": "Place",
            address: { "@type": "PostalAddress", addressLocality: o.city, addressCountry: "BR" },
          },
        }
      : {}),
    ...(o.budget_type === "hourly"
      ? {
          baseSalary: {
            "@type": "MonetaryAmount",
            currency: o.currency,
            value: {
              "@type": "QuantitativeValue",
              minValue: o.budget_min_cents / 100,
              maxValue: o.budget_max_cents / 100,
              unitText: "HOUR",
            },
          },
        }
      : {}),
    skills: o.skills.join(", "),
  };
}

/** Centavos as reais in a decimal string ("1500.00"), by integer arithmetic. */
const reais = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * schema.org Service of a ready-made service's page: its freelancer as the provider, one Offer per
 * package (the price in reais as a decimal string, in BRL), and the rating only once it has one.
 */
export function serviceLd(s: PublicService) {
  return {
    "@context": "https://schema.org",
    "@type": "Service",
    name: s.title,
    description: s.description,
    url: s.url,
    ...(s.images.length ? { image: s.images.map((i) => siteUrl(i.url)) } : {}),
    category: s.category,
    identifier: { "@type": "PropertyValue", name: "Freela", value: s.id },
    provider: {
      "@type": "Person",
      name: s.freelancer.name,
      ...(s.freelancer.path ? { url: siteUrl(s.freelancer.path) } : {}),
    },
    offers: s.packages.map((p) => ({
      "@type": "Offer",
      name: p.name,
      description: p.includes.join("; "),
      price: reais(p.price_cents),
      priceCurrency: "BRL",
      url: s.url,
      deliveryLeadTime: { "@type": "QuantitativeValue", value: p.delivery_days, unitCode: "DAY" },
    })),
    ...(s.rating.count > 0 && s.rating.average !== null
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: s.rating.average,
            ratingCount: s.rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

/** schema.org Person of a public profile. */
export function person(p: PublicProfile) {
  return {
    "@context": "https://schema.org",
    "@type": "Person",
    name: p.name,
    url: p.url,
    ...(p.photo_url ? { image: siteUrl(p.photo_url) } : {}),
    ...(p.bio ? { description: p.bio } : {}),
    ...(p.skills.length ? { knowsAbout: p.skills } : {}),
    ...(p.city ? { address: { "@type": "PostalAddress", addressLocality: p.city, addressCountry: "BR" } } : {}),
    // Only the fact that an operator verified who they are; never the document.
    ...(p.identity_verified
      ? { hasCredential: { "@type": "EducationalOccupationalCredential", name: "Identidade verificada" } }
      : {}),
  };
}

/**
 * A sitemap file: XML, cacheable for a few minutes, no cookie. Given in pieces, each is read when
 * the client has taken the one before (the stream's pull), so a large page is never whole in memory.
 */
export function xmlResponse(xml: string | AsyncIterable<string>) {
  return new Response(typeof xml === "string" ? xml : streamOf(xml), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}

function streamOf(pieces: AsyncIterable<string>) {
  const iterator = pieces[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(Buffer.from(value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** How many of the newest open opportunities the visitors' home shows. */
const HOME_LATEST = 6;

/**
 * The visitors' home (`/` without a session): the newest open opportunities when public pages are
 * on (none, and no links to the lists, when they are off). Cacheable like the public pages: it
 * holds nothing of anyone. Three statements (the settings, the count and the page).
 */
export async function visitorHome() {
  const list = await listPublicOpportunities({ per_page: String(HOME_LATEST) }).catch((error: unknown) => {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  });
  return json(
    { home: true as const, latest: list?.data ?? [], browse: list !== null },
    { headers: publicCacheHeaders(null) },
  );
}
