import { json, redirect } from "@remix-run/node";
import type { UserRow } from "../../db/schema";
import { AppError } from "~/services/platform/errors.server";
import { apiT } from "~/services/platform/i18n.server";
import { getSession } from "./session.server";
import { assertOperatorAccess, OPERATOR_TWO_FACTOR_PAGE } from "~/services/operator/operators.server";
import { fixedT } from "~/services/platform/i18n.server";
import { assertSameOrigin, loginRedirect } from "./auth.server";
import { getRequestT } from "./i18n.server";
import { redirectWithSuccess } from "./toast.server";

// The operator's doors: /admin pages and /api/admin. A visitor is asked to sign in (pages) or
// gets a 401 (API); a merchant or freelancer gets the same 404 as for a path that does not exist,
// so the console is not even seen to be there. Whether the operator's sign-in is enough for the
// console (two-factor) is decided in one place: assertOperatorAccess.

/** Pages under /admin: the signed-in operator; visitors go to /login, anyone else gets 404. */
export async function requireOperator(request: Request): Promise<UserRow> {
  assertSameOrigin(request);
  const session = await getSession(request);
  if (!session) throw loginRedirect(request);
  try {
    await assertOperatorAccess(session.user, { viaPasskey: session.viaPasskey });
  } catch (error) {
    if (error instanceof AppError && error.status === 403) throw redirect(OPERATOR_TWO_FACTOR_PAGE);
    if (error instanceof AppError) throw new Response("Not Found", { status: error.status });
    throw error;
  }
  return session.user;
}

/** /api/admin: the operator behind the token or cookie; 401 without one, 404 for anyone else. */
export async function requireApiOperator(request: Request): Promise<UserRow> {
  assertSameOrigin(request);
  const session = await getSession(request);
  if (!session) throw json({ message: apiT("session_missing") }, { status: 401 });
  try {
    await assertOperatorAccess(session.user, { viaPasskey: session.viaPasskey });
  } catch (error) {
    if (error instanceof AppError) throw json({ message: apiT(error.key) }, { status: error.status });
    throw error;
  }
  return session.user;
}

/** Console forms: post/redirect/get with a success toast from the `admin` namespace, in the operator's language. */
export async function redirectWithAdminToast(request: Request, to: string, key: string) {
  const { lng } = await getRequestT(request);
  return redirectWithSuccess(to, fixedT(lng, "admin")(key));
}
