import { signedCookie } from "./cookie.server";
import type { UserRow } from "../../db/schema";
import { noteUser } from "~/services/platform/log.server";
import { findSession, revokeSession, SESSION_DAYS } from "~/services/accounts/sessions.server";
import { mirrorCookie } from "./mirror.server";
import { clientIp } from "./client.server";

// The session a request carries: the signed cookie of browsers or the Bearer token of API clients.

export const sessionCookie = signedCookie("freela_session", SESSION_DAYS * 24 * 60 * 60);

/**
 * The cookies that sign a browser in with the token of a session just created (login() makes
 * it): the session cookie, and the one-time mirror of the token for the page's script. Every
 * login gets a new session; one this browser still carried is ended, not reused.
 */
export async function browserSignIn(request: Request, token: string): Promise<Headers> {
  const previous = await getRequestToken(request);
  if (previous && previous !== token) await revokeSession(previous);
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie.serialize(token));
  headers.append("Set-Cookie", await mirrorCookie.serialize(token));
  return headers;
}

/**
 * Signs out the client of a request, page or API: its session row is deleted, so the token is
 * dead for every client that holds it. Returns the Set-Cookie that clears a browser's cookie.
 */
export async function endSession(request: Request): Promise<string> {
  const token = await getRequestToken(request);
  if (token) await revokeSession(token);
  return sessionCookie.serialize("", { maxAge: 0 });
}

/** The token a request carries: a Bearer header (API clients) or the signed cookie (browsers). */
export async function getRequestToken(request: Request): Promise<string | null> {
  const auth = request.headers.get("Authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || null;
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value ? value : null;
}

/** A request's session: its user, its token, and whether it was opened with a passkey. */
export type RequestSession = { user: UserRow; token: string; viaPasskey: boolean };

const resolved = new WeakMap<Request, Promise<RequestSession | null>>();

/** The signed-in user of a request, looked up once per request. */
export function getSession(request: Request) {
  let found = resolved.get(request);
  if (!found) {
    found = (async () => {
      const token = await getRequestToken(request);
      if (!token) return null;
      const found = await findSession(token, { ip: clientIp(request) });
      if (found) noteUser(request, found.user.id);
      return found ? { ...found, token } : null;
    })();
    resolved.set(request, found);
  }
  return found;
}

export async function getOptionalUser(request: Request) {
  return (await getSession(request))?.user ?? null;
}
