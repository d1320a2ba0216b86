import { db } from "../../db";
import { signedInUser } from "../support/helpers";
import { call, jsonRequest } from "../support/helpers";
import { getToast } from "~/web/toast.server";

// Operator fixtures shared by the console's tests.

/** The authenticator key of the operators made here (base32). */
export const OPERATOR_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/**
 * An operator account with a live session, made as operator:create makes them, with two-factor
 * sign-in on (the console requires it); `twoFactor: false` for one that has not turned it on.
 */
export async function signedInOperator(name = "Olga Operadora", { twoFactor = true } = {}) {
  const signedIn = await signedInUser({ account_type: "operator", full_name: name });
  if (twoFactor) {
    const at = new Date().toISOString();
    await db
      .insertInto("two_factor")
      .values({
        user_id: signedIn.user.id,
        secret: OPERATOR_TOTP_SECRET,
        confirmed_at: at,
        last_step: 0,
        created_at: at,
      })
      .execute();
  }
  return signedIn;
}

/** Rows of the audit log, oldest first. */
export function auditRows() {
  return db.selectFrom("audit_log").selectAll().orderBy("created_at").orderBy("id").execute();
}

export async function auditCount() {
  const row = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type Route = { loader?: any; action?: any };

/** GET through a route's loader (page or API) as the bearer of `token`. */
export function get(route: Route, path: string, token?: string, params: Record<string, string> = {}) {
  return call(route.loader, jsonRequest(path, undefined, { token }), params);
}

/** POST JSON through a route's action as the bearer of `token`. */
export function post(route: Route, path: string, token: string | undefined, body: unknown, params = {}) {
  return call(route.action, jsonRequest(path, body, { token, method: "POST" }), params);
}

/** POST a page form (url-encoded) through a route's action as the bearer of `token`. */
export function postForm(
  route: Route,
  path: string,
  token: string | undefined,
  fields: Record<string, string>,
  params = {},
) {
  return call(
    route.action,
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }),
    params,
  );
}

/** The toast an answer carries to the next page (its signed freela_toast cookie), as the page shows it. */
export async function toastOf(answer: { headers: Headers }) {
  const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("freela_toast="));
  if (!cookie) return null;
  const { toast } = await getToast(new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }));
  return toast?.message ?? null;
}
