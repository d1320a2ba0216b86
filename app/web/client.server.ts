import { config } from "~/config.server";
import type { Client } from "~/services/accounts/accounts.server";
import { storedLocale } from "./i18n.server";

/**
 * The client address, or null when it is unknown. remix-serve does not hand the socket to
 * Remix, so the address can only come from a proxy: with TRUST_PROXY set, the last
 * X-Forwarded-For entry (the one the proxy appended; earlier ones are the client's own words).
 * Without a trusted proxy the header is ignored — any client could write it — and the
 * per-address limits are skipped rather than shared by everyone; the per-e-mail and per-user
 * limits still hold.
 */
export function clientIp(request: Request): string | null {
  if (!config.TRUST_PROXY) return null;
  return request.headers.get("X-Forwarded-For")?.split(",").pop()?.trim() || null;
}

/**
 * Where the client is, as the trusted proxy says in PLACE_HEADER (a city or country name or
 * code, cut to 80 characters, control characters dropped); null when no proxy is trusted, no
 * header is configured or it is empty. Never looked up from the address.
 */
export function clientPlace(request: Request): string | null {
  if (!config.TRUST_PROXY || !config.PLACE_HEADER) return null;
  const place = request.headers
    .get(config.PLACE_HEADER)
    // eslint-disable-next-line no-control-regex
    ?.replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  // "XX" and "T1" are what Cloudflare writes for an unknown country and Tor.
  return place && place !== "XX" && place !== "T1" ? place.slice(0, 80) : null;
}

/** Who sent the request, as the account services take it. */
export async function clientOf(request: Request): Promise<Client> {
  return {
    ip: clientIp(request),
    place: clientPlace(request),
    locale: await storedLocale(request),
    userAgent: request.headers.get("User-Agent"),
  };
}
