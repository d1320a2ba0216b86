import type { HeadersFunction } from "@remix-run/node";
import { isProduction } from "~/config.server";

/**
 * Headers every response carries; pages add their CSP with a fresh nonce. A response that asked
 * for a stricter referrer policy (TOKEN_PAGE_HEADERS, a private file) keeps it.
 */
const STRICT_REFERRER_POLICIES = new Set(["no-referrer", "same-origin"]);

export function applySecurityHeaders(headers: Headers, nonce?: string) {
  headers.set("X-Content-Type-Options", "nosniff");
  if (!STRICT_REFERRER_POLICIES.has(headers.get("Referrer-Policy") ?? "")) {
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  }
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (isProduction) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  if (nonce !== undefined) {
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      // remix dev's live reload talks over a websocket.
      isProduction ? "connect-src 'self'" : "connect-src 'self' ws: wss:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ];
    headers.set("Content-Security-Policy", csp.join("; "));
  }
  return headers;
}

/**
 * Pages whose address holds a personal token sent by e-mail (the unsubscribe links, a password
 * reset or set-password link, an address confirmation, a sign-in notice's "end this session"):
 * the token is a credential of sorts, so the page is never kept by a cache, never sent to another
 * site in a Referer and never indexed. `same-origin`, not `no-referrer`: under `no-referrer` a
 * browser sends `Origin: null` with the page's own forms (reset the password, end the session),
 * which the cross-site check must refuse. Their loaders and actions answer with these headers (a script's
 * request for the data gets them from there), and their `headers` export is tokenPageHeaders.
 */
export const TOKEN_PAGE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
  "X-Robots-Tag": "noindex",
};

/** The HTML document of a token page carries TOKEN_PAGE_HEADERS too (Remix reads a route's `headers` export for it). */
export const tokenPageHeaders: HeadersFunction = () => TOKEN_PAGE_HEADERS;
