import { json, redirect } from "@remix-run/node";
import type { MarketUser, UserRow } from "../../db/schema";
import { assertSameOrigin } from "./csrf.server";
import { apiT } from "~/services/platform/i18n.server";
import { getOptionalUser } from "./session.server";
import { mayDo, type Operation } from "~/services/platform/roles.server";
import { needsTerms, termsVersion } from "~/services/accounts/terms.server";

export { safeRedirect } from "./redirects.server";

/** A redirect to /login that remembers where the visitor was going. */
export function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  return redirect(target === "/" ? "/login" : `/login?redirectFrom=${encodeURIComponent(target)}`);
}

/**
 * Pages of the marketplace: the signed-in merchant or freelancer, or a redirect to /login that
 * remembers where they were going. Operators run the marketplace from /admin and are sent there.
 */
export async function requireUser(request: Request): Promise<MarketUser> {
  // Every signed-in page action passes here, so cross-site form posts stop here too.
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) throw loginRedirect(request);
  if (user.account_type === "operator") throw redirect("/admin");
  if (needsTerms(user)) throw termsRedirect(request);
  return user as MarketUser;
}

/** A redirect to the new version of the terms, remembering where the user was going. */
function termsRedirect(request: Request) {
  const url = new URL(request.url);
  // A form posted meanwhile is not replayed: the user comes back to the page, not to the post.
  const target = request.method === "GET" ? url.pathname + url.search : url.pathname;
  return redirect(`/termos/aceitar?redirectTo=${encodeURIComponent(target)}`);
}

/**
 * Pages of the account itself (its e-mail, sessions and two-factor sign-in), which operators have
 * too: the signed-in user of any kind, or a redirect to /login.
 */
export async function requireAccount(request: Request): Promise<UserRow> {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) throw loginRedirect(request);
  return user;
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

/**
 * API of the marketplace: the merchant or freelancer behind the Bearer token or cookie, or a
 * JSON 401. An operator's token reaches /api/admin only (403 here).
 */
/** The API of the account itself (sessions, two-factor): any signed-in user, operators included. */
export async function requireApiAccount(request: Request, messageKey = "session_missing"): Promise<UserRow> {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) throw json({ message: apiT(messageKey) }, { status: 401 });
  return user;
}

export async function requireApiUser(request: Request, messageKey = "session_missing"): Promise<MarketUser> {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) throw json({ message: apiT(messageKey) }, { status: 401 });
  if (user.account_type === "operator") throw json({ message: apiT("operator_not_marketplace") }, { status: 403 });
  // A new version of the terms: accepted by POST /api/terms/accept before anything else.
  if (needsTerms(user)) {
    throw json({ message: apiT("terms_not_accepted"), terms_version: termsVersion() }, { status: 403 });
  }
  return user as MarketUser;
}
