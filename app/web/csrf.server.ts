import { json } from "@remix-run/node";
import { apiT } from "~/services/platform/i18n.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type OriginDecision = "allowed" | "cross-site";

function firstValue(header: string | null) {
  return header?.split(",")[0]?.trim().toLowerCase() || null;
}

/**
 * Whether a state-changing request comes from this site. Browsers name the page that sent a
 * form in `Origin` (or at least in `Sec-Fetch-Site`); a page elsewhere cannot forge either, nor
 * add `Authorization` or `X-Forwarded-*` headers without a CORS preflight this server never grants.
 */
export function originDecision(request: Request): OriginDecision {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return "allowed";
  const headers = request.headers;
  // A Bearer token without cookies is something only a real API client can send.
  if (/^Bearer\s/i.test(headers.get("Authorization") ?? "") && !headers.get("Cookie")) return "allowed";

  const origin = headers.get("Origin");
  if (origin === null) {
    // Old browsers and non-browser clients send neither header; they carry no ambient cookie risk.
    return headers.get("Sec-Fetch-Site")?.toLowerCase() === "cross-site" ? "cross-site" : "allowed";
  }
  let sender: URL;
  try {
    // "null" (sandboxed frames, some cross-site redirects) does not parse and is refused.
    sender = new URL(origin);
  } catch {
    return "cross-site";
  }

  const url = new URL(request.url);
  // Behind a proxy the site's name is the one it forwards, and only that one (Remix compares the
  // Origin with it too): a write whose Origin names the server's own Host but not the forwarded
  // one is not from the page the proxy served.
  const forwardedHost = firstValue(headers.get("X-Forwarded-Host"));
  const hosts = new Set(
    (forwardedHost ? [forwardedHost] : [firstValue(headers.get("Host")), url.host.toLowerCase()]).filter(
      (h): h is string => Boolean(h),
    ),
  );
  const forwardedProto = firstValue(headers.get("X-Forwarded-Proto"));
  const schemes = forwardedProto
    ? [`${forwardedProto}:`]
    : url.protocol === "https:"
      ? ["https:"]
      : // Plain HTTP here may be a TLS proxy that does not say so; the page may then be https.
        ["http:", "https:"];

  // Read through URL so a default port ("host:443" for https) compares equal to none.
  const normalise = (h: string) => {
    try {
      return new URL(`${sender.protocol}//${h}`).host;
    } catch {
      return null;
    }
  };
  const sameHost = [...hosts].some((h) => normalise(h) === sender.host);
  return sameHost && schemes.includes(sender.protocol) ? "allowed" : "cross-site";
}

/**
 * Throws a 403 with a Portuguese message when a write comes from another site. Called by the
 * guards (requireUser, requireApiUser), the api() wrapper and the visitor forms' actions.
 * Remix 2 refuses a cross-site *document* POST itself (empty 500, before any action runs);
 * this check covers what it does not: `?_data=` submissions, resource routes and the API,
 * and `Sec-Fetch-Site` when a browser leaves Origin out.
 */
export function assertSameOrigin(request: Request) {
  if (originDecision(request) === "cross-site") {
    throw json({ message: apiT("cross_site_refused") }, { status: 403 });
  }
}

/**
 * For the server entry (scripts/server.js), before Remix sees the request: the 403 for a write
 * from another site, or null. Remix's own check on document POSTs would answer an empty 500.
 */
export function crossSiteRefusal(request: Request): Response | null {
  if (originDecision(request) !== "cross-site" && !remixWouldRefuse(request)) return null;
  return json({ message: apiT("cross_site_refused") }, { status: 403, headers: { "Cache-Control": "no-store" } });
}

/**
 * Remix's own check on a document write (a page's form posted without `?_data`): the Origin's
 * host must be exactly the first X-Forwarded-Host, or else the Host (a default port written out
 * or another letter case is a mismatch there). It refuses with an empty 500; the same requests get
 * the 403 here. The API and the other resource routes are not checked by Remix.
 */
function remixWouldRefuse(request: Request) {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api/") || url.searchParams.has("_data")) return false;
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
  return originHost !== (forwarded || request.headers.get("Host") || url.host);
}
