import { json, redirect } from "@remix-run/node";
import type { UserRow } from "../../db/schema";
import { assertSameOrigin } from "./csrf.server";
import { apiT } from "~/services/platform/i18n.server";
import { getOptionalUser } from "~/services/accounts/sessions.server";

export { safeRedirect } from "./redirects.server";

/** Pages: the signed-in user, or a redirect to /login that remembers where they were going. */
export async function requireUser(request: Request): Promise<UserRow> {
  // Every signed-in page action passes here, so cross-site form posts stop here too.
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (user) return user;
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  throw redirect(target === "/" ? "/login" : `/login?redirectFrom=${encodeURIComponent(target)}`);
}

/** Pages: merchants only; anyone else goes to the dashboard. */
export async function requireMerchant(request: Request): Promise<UserRow> {
  const user = await requireUser(request);
  if (user.account_type !== "merchant") throw redirect("/dashboard");
  return user;
}

export { assertSameOrigin };

/** Pages for visitors (login, register, forgot password): signed-in users go home. */
export async function redirectIfSignedIn(request: Request) {
  if (await getOptionalUser(request)) throw redirect("/");
}

/** The whole loader of a visitor page. */
export async function visitorLoader({ request }: { request: Request }) {
  await redirectIfSignedIn(request);
  return json(null);
}

/** API: the user behind the Bearer token or cookie, or a JSON 401. */
export async function requireApiUser(request: Request, messageKey = "session_missing"): Promise<UserRow> {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) throw json({ message: apiT(messageKey) }, { status: 401 });
  return user;
}

export async function requireApiRole(request: Request, role: UserRow["account_type"]) {
  const user = await requireApiUser(request);
  if (user.account_type !== role) throw json({ message: apiT("forbidden_role") }, { status: 403 });
  return user;
}
