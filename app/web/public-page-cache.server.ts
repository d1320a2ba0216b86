import { createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { fallbackLng, supportedLngs, type Lng } from "~/lib/i18n";
import { getPublicOpportunity, idFromSlug } from "~/services/discovery/public.server";
import { localeCookie } from "./i18n.server";

// Rendered public opportunity pages kept in the process for visitors (crawlers read thousands):
// a hit answers with the kept HTML without Remix or React, after one read of the opportunity.
// The key is the id, the language and a digest of everything the page shows of the row as read
// now (its fields, whether it is open or closed; a hidden or held one, a sanctioned merchant or
// public pages turned off read as not found and are never served from here), so any change, made
// by this process or another one, misses at once. Only a visitor's request without a query, at
// the canonical address, with no cookie but the language's and no credentials is kept or served.

/** The bytes of HTML kept at most; the least recently used pages go first. */
const BYTES_KEPT = 32 * 1024 * 1024;

type KeptPage = { status: number; headers: [string, string][]; body: string; nonce: string };
const pages = new LRUCache<string, KeptPage>({ maxSize: BYTES_KEPT, sizeCalculation: (p) => p.body.length + 1 });

/** A request as the server entry sees it (scripts/server.js) or as Remix gets it. */
export type VisitorRequest = { method: string; url: string; cookie?: string | null; authorization?: string | null };

/** The language of a visitor's request that a kept page may answer; null: not one of those. */
async function visitorLanguage(request: VisitorRequest): Promise<Lng | null> {
  if ((request.method !== "GET" && request.method !== "HEAD") || request.authorization) return null;
  if (request.url.includes("?")) return null;
  const cookie = request.cookie?.trim();
  if (!cookie) return fallbackLng;
  if (cookie.split(";").some((part) => part.trim().split("=")[0] !== "lng")) return null;
  const picked: unknown = await localeCookie.parse(cookie);
  return typeof picked === "string" && (supportedLngs as readonly string[]).includes(picked)
    ? (picked as Lng)
    : fallbackLng;
}

/** The path of a URL or of a request's target ("/vagas/…", or "http://host/vagas/…"). */
const pathOf = (url: string) => (url.startsWith("/") ? url : new URL(url).pathname);

type Found = Awaited<ReturnType<typeof getPublicOpportunity>>;

/** The key of a page for what was read of it; null when the address is not the canonical one. */
function keyOf(id: string, lng: Lng, found: Found, path: string): string | null {
  if (path !== (found.open ?? found.closed).path) return null;
  return `${id}|${lng}|${createHash("sha1").update(JSON.stringify(found)).digest("base64")}`;
}

/**
 * A visitor's public opportunity page, kept for what the opportunity is now: the answer to send
 * (a fresh nonce in its HTML and CSP), or null to let the app render it.
 */
export async function cachedPublicPage(
  request: VisitorRequest,
): Promise<{ status: number; headers: Record<string, string>; body: string } | null> {
  const path = pathOf(request.url);
  const id = idFromSlug(/^\/vagas\/([^/]+)$/.exec(path)?.[1]);
  if (!id) return null;
  const lng = await visitorLanguage(request);
  if (!lng) return null;
  const found = await getPublicOpportunity(id).catch(() => null);
  const key = found && keyOf(id, lng, found, path);
  const page = key ? pages.get(key) : undefined;
  if (!page) return null;
  const nonce = randomBytes(16).toString("base64");
  return {
    status: page.status,
    headers: Object.fromEntries(page.headers.map(([name, value]) => [name, value.replaceAll(page.nonce, nonce)])),
    body: page.body.replaceAll(page.nonce, nonce),
  };
}

/** Carries a page's key from its loader to the server entry, which takes it off the answer. */
const KEY_HEADER = "X-Freela-Page-Key";

/**
 * Called by the page's loader with what it read: the header that marks a visitor's answer that
 * may be kept with its key (keepPublicPage, once the page is rendered), or none.
 */
export async function publicPageMark(
  request: Request,
  id: string,
  lng: Lng,
  found: Found,
): Promise<Record<string, string>> {
  const visitor = {
    method: request.method,
    url: request.url,
    cookie: request.headers.get("Cookie"),
    authorization: request.headers.get("Authorization"),
  };
  if ((await visitorLanguage(visitor)) !== lng) return {};
  const key = keyOf(id, lng, found, pathOf(request.url));
  return key ? { [KEY_HEADER]: key } : {};
}

/** Keeps a rendered page its loader marked (a public 200 or 410 that sets no cookie). */
export function keepPublicPage(status: number, headers: Headers, body: Buffer, nonce: string) {
  const key = headers.get(KEY_HEADER);
  if (!key) return;
  headers.delete(KEY_HEADER);
  if (status !== 200 && status !== 410) return;
  if (headers.has("Set-Cookie") || !headers.get("Cache-Control")?.startsWith("public")) return;
  pages.set(key, { status, headers: [...headers], body: body.toString("utf8"), nonce });
}

/** Forgets every kept page (tests). */
export function clearPublicPages() {
  pages.clear();
}
