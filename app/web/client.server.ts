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

/** Who sent the request, as the account services take it. */
export async function clientOf(request: Request): Promise<Client> {
  return { ip: clientIp(request), locale: await storedLocale(request), userAgent: request.headers.get("User-Agent") };
}
