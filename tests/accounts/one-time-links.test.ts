import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { action as forgotAction } from "~/routes/_auth+/forgot-password";
import { login, requestPasswordReset, resetPassword } from "~/services/accounts/accounts.server";
import { changePassword } from "~/services/accounts/password-change.server";
import {
  confirmTwoFactor,
  completeTwoFactorLogin,
  startTwoFactor,
  totpCode,
} from "~/services/accounts/two-factor.server";
import { requestEmailChange, verifyEmail } from "~/services/accounts/verification.server";
import { createOperator } from "~/services/operator/operators.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import { db, statements } from "../../db";
import { createUser } from "../../db/factories";
import { BASE, call, mailsTo } from "../support/helpers";

// One-time links die with the password and the address they were sent under (docs/product.md,
// "Contas e sessões"), on both engines: any password set (reset, change, set-password link) and
// any address change end every unused reset and set-password link of the account, and its
// pending address change; a new operator:create link replaces the earlier one. And the reset
// e-mail goes through the outbox: /forgot-password runs the same statements and gives the same
// answer for an address with an account and one without.

let n = 0;
const nextEmail = (what: string) => `${what}${++n}.${Date.now()}@example.com`;

/** Asks for a reset link for `email` and reads it from the e-mail the outbox sends. */
async function resetLink(email: string) {
  await requestPasswordReset(email);
  const text = (await mailsTo(email)).map((m) => m.text).join("\n");
  const token = text.match(/reset-password\?token=([\w%-]+)/)?.[1];
  expect(token, `a reset link e-mailed to ${email}`).toBeTruthy();
  return decodeURIComponent(token!);
}

/** The token of a link sent to `to` (a confirmation or address-change e-mail). */
async function linkTo(to: string, path: string) {
  const [mail] = await mailsTo(to);
  return decodeURIComponent(mail.text.match(new RegExp(`${path}\\?token=([\\w%-]+)`))![1]);
}

const refused = { status: 422, fieldErrors: { token: "reset_invalid" } };

describe("reset and set-password links end with the password and the address", () => {
  it("using the newer of two reset links ends the older", async () => {
    const user = await createUser(db, { email: nextEmail("duas") });
    const older = await resetLink(user.email);
    const newer = await resetLink(user.email);
    expect(older).not.toBe(newer);
    await resetPassword({ token: newer, password: "nova-senha-123" });
    await expect(resetPassword({ token: older, password: "do-atacante-1" })).rejects.toMatchObject(refused);
    expect((await login({ email: user.email, password: "nova-senha-123" })).user.id).toBe(user.id);
  });

  it("a password change made while signed in ends the links asked for before it", async () => {
    const user = await createUser(db, { email: nextEmail("troca"), password: "senha-antiga-1" });
    const link = await resetLink(user.email);
    await changePassword(user, { password: "senha-antiga-1", new_password: "senha-nova-12" }, null);
    await expect(resetPassword({ token: link, password: "do-atacante-1" })).rejects.toMatchObject(refused);
    expect((await login({ email: user.email, password: "senha-nova-12" })).user.id).toBe(user.id);
  });

  it("an address change ends the links sent to the old address", async () => {
    const user = await createUser(db, { email: nextEmail("antigo"), password: "senha-antiga-1" });
    const link = await resetLink(user.email);
    const next = nextEmail("novo");
    await requestEmailChange(user, { email: next, password: "senha-antiga-1" });
    await verifyEmail({ token: await linkTo(next, "verify-email") });
    await expect(resetPassword({ token: link, password: "do-atacante-1" })).rejects.toMatchObject(refused);
  });

  it("a password reset or change ends a pending address change", async () => {
    for (const how of ["reset", "change"] as const) {
      const user = await createUser(db, { email: nextEmail(how), password: "senha-antiga-1" });
      const next = nextEmail("do-atacante");
      await requestEmailChange(user, { email: next, password: "senha-antiga-1" });
      const change = await linkTo(next, "verify-email");
      if (how === "reset") await resetPassword({ token: await resetLink(user.email), password: "senha-nova-12" });
      else await changePassword(user, { password: "senha-antiga-1", new_password: "senha-nova-12" }, null);
      await expect(verifyEmail({ token: change })).rejects.toMatchObject({ status: 422, key: "verification_used" });
      const row = await db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow();
      expect(row.email, how).toBe(user.email);
    }
  });

  it("a password change ends the second step of a sign-in begun with the old password", async () => {
    const user = await createUser(db, { email: nextEmail("etapa"), password: "senha-antiga-1" });
    const { secret } = await startTwoFactor(user, { password: "senha-antiga-1" });
    await confirmTwoFactor(user, { code: totpCode(secret) }, null);
    const begun = await login({ email: user.email, password: "senha-antiga-1" });
    const challenge = begun.twoFactor!.challenge;
    await changePassword(user, { password: "senha-antiga-1", new_password: "senha-nova-12" }, null);
    await expect(
      completeTwoFactorLogin({ challenge, code: totpCode(secret, Date.now() + 30_000) }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it("operator:create's new link replaces the earlier one, and a used link ends every other", async () => {
    const email = nextEmail("ops");
    const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
    const first = tokenOf((await createOperator({ email, name: "Olga Operadora" })).link);
    const second = tokenOf((await createOperator({ email, name: "Olga Operadora" })).link);
    await expect(resetPassword({ token: first, password: "do-atacante-1" })).rejects.toMatchObject(refused);
    await resetPassword({ token: second, password: "senha-do-console-1" });
    // A reset link asked for meanwhile ends when the set-password link is used, and vice versa.
    const third = tokenOf((await createOperator({ email, name: "Olga Operadora" })).link);
    const reset = await resetLink(email);
    await resetPassword({ token: reset, password: "senha-do-console-2" });
    await expect(resetPassword({ token: third, password: "do-atacante-1" })).rejects.toMatchObject(refused);
    expect((await login({ email, password: "senha-do-console-2" })).user.email).toBe(email);
  });
});

/** The SQL text of every statement `run` sends (values aside). */
async function sqlOf(run: () => Promise<unknown>) {
  const spy = statements ? vi.spyOn(statements, "prepare") : vi.spyOn(pg.Client.prototype, "query");
  try {
    await run();
    return spy.mock.calls.map(([query]) => (typeof query === "string" ? query : (query as { text: string }).text));
  } finally {
    spy.mockRestore();
  }
}

const forgot = (email: string) =>
  call(
    forgotAction,
    new Request(`${BASE}/forgot-password`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      body: new URLSearchParams({ email }),
    }),
  );

describe("/forgot-password", () => {
  it("answers an address with an account and one without alike, by the same statements", async () => {
    const user = await createUser(db, { email: nextEmail("existe") });
    let known: Awaited<ReturnType<typeof forgot>> | undefined;
    let unknown: Awaited<ReturnType<typeof forgot>> | undefined;
    const knownSql = await sqlOf(async () => (known = await forgot(user.email)));
    const unknownSql = await sqlOf(async () => (unknown = await forgot(nextEmail("ninguem"))));
    expect(known!.status).toBe(200);
    expect(unknown!.status).toBe(known!.status);
    expect(unknown!.body.sent).toEqual(known!.body.sent);
    expect(Object.keys(unknown!.body)).toEqual(Object.keys(known!.body));
    expect(knownSql.length).toBeGreaterThan(0);
    expect(unknownSql).toEqual(knownSql);
    // The link was queued only for the account.
    const queued = await db
      .selectFrom("outbox")
      .select("user_id")
      .where("kind", "=", "password_reset")
      .where("user_id", "=", user.id)
      .execute();
    expect(queued).toHaveLength(1);
  });

  it("sends nothing within the request: an SMTP failure is retried by the outbox, never a 500", async () => {
    const user = await createUser(db, { email: nextEmail("smtp") });
    const log = vi.spyOn(console, "info").mockImplementation(() => undefined);
    const answer = await forgot(user.email);
    const logged = log.mock.calls.map((c) => String(c[0])).join("\n");
    log.mockRestore();
    expect(answer.status).toBe(200);
    expect(logged).not.toContain("reset-password");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const failed = await drainOutbox({
      send: async () => {
        throw new Error("SMTP fora do ar");
      },
    });
    warn.mockRestore();
    expect(failed.retried).toBeGreaterThanOrEqual(1);
    const row = await db
      .selectFrom("outbox")
      .select(["status", "payload"])
      .where("user_id", "=", user.id)
      .where("kind", "=", "password_reset")
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
    expect(row.payload).toContain("/reset-password?token=");
    // Sent later, in Portuguese, from APP_URL; the link works; the payload is gone from the table.
    await db
      .updateTable("outbox")
      .set({ next_attempt_at: new Date().toISOString() })
      .where("status", "=", "pending")
      .execute();
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("Freela: redefinição de senha");
    const token = decodeURIComponent(mail.text.match(/reset-password\?token=([\w%-]+)/)![1]);
    await resetPassword({ token, password: "nova-senha-123" });
    const sent = await db
      .selectFrom("outbox")
      .select("payload")
      .where("user_id", "=", user.id)
      .where("kind", "=", "password_reset")
      .executeTakeFirstOrThrow();
    expect(sent.payload).toBeNull();
  });
});
