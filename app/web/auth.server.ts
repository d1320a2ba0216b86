import { json, redirect } from "@remix-run/node";
import type { UserRow } from "../../db/schema";
import { assertSameOrigin } from "./csrf.server";
import { apiT } from "~/services/platform/i18n.server";
import { getOptionalUser } from "./session.server";
import { mayDo, type Operation } from "~/services/platform/roles.server";

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

/**
 * Pages of one account type (the rule of `operation`, app/services/platform/roles.server.ts):
 * the signed-in user, or the other account type sent to `elsewhere`.
 */
export async function requireUserFor(request: Request, operation: Operation, elsewhere = "/dashboard") {
  const user = await requireUser(request);
  if (!mayDo(user, operation)) throw redirect(elsewhere);
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
