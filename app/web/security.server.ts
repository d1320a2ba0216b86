import { isProduction } from "~/config.server";

/** Headers every response carries; pages add their CSP with a fresh nonce. */
export function applySecurityHeaders(headers: Headers, nonce?: string) {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
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
