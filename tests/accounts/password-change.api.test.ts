import { describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { action as passwordAction } from "~/routes/api+/_account+/password";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest, mailsTo } from "../support/helpers";

// Changing the password while signed in (docs/product.md §1), through the API on both engines:
// the current password first, the new one under the rule and different; the other sessions end,
// the current one goes on; the old password stops working, the new one signs in; the address is
// told.

let n = 0;
async function account() {
  const email = `troca.senha${++n}.${Date.now()}@example.com`;
  const user = await createUser(db, { email, password: "segredo123" });
  const login = async (password = "segredo123") => call(loginAction, jsonRequest("/api/login", { email, password }));
  const first = await login();
  expect(first.status).toBe(200);
  return { user, email, login, token: first.body.access_token as string };
}
const change = (body: unknown, token?: string) => call(passwordAction, jsonRequest("/api/password", body, { token }));
const profile = (token: string) => call(profileLoader, jsonRequest("/api/profile", undefined, { token }));

describe("changing the password", () => {
  it("asks the current password, keeps the rule, ends the other sessions and keeps this one", async () => {
    const acc = await account();
    const other = (await acc.login()).body.access_token as string;

    const wrong = await change({ password: "errada1234", new_password: "nova-senha-1" }, acc.token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    const short = await change({ password: "segredo123", new_password: "curta" }, acc.token);
    expect(short.status).toBe(422);
    expect(short.body.errors.new_password).toBe("A senha deve ter entre 8 e 72 caracteres.");
    const same = await change({ password: "segredo123", new_password: "segredo123" }, acc.token);
    expect(same.status).toBe(422);
    expect(same.body.errors.new_password).toBe("A nova senha precisa ser diferente da atual.");
    for (const bad of [{}, { password: 5, new_password: [] }, { password: "segredo123" }]) {
      expect((await change(bad, acc.token)).status).toBe(422);
    }
    expect((await change({ password: "segredo123", new_password: "nova-senha-1" })).status).toBe(401);
    // Nothing changed so far.
    expect((await profile(other)).status).toBe(200);

    const ok = await change({ password: "segredo123", new_password: "nova-senha-1" }, acc.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ended: 1, message: "Senha trocada. As outras sessões da conta foram encerradas." });
    expect((await profile(other)).status).toBe(401);
    expect((await profile(acc.token)).status).toBe(200);
    expect((await acc.login("segredo123")).status).toBe(401);
    expect((await acc.login("nova-senha-1")).status).toBe(200);

    // The account's address is told, with the way back should it not have been its owner.
    const told = (await mailsTo(acc.email)).filter((m) => m.subject === "Freela: sua senha foi alterada");
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(`${config.APP_URL}/forgot-password`);
  });

  it("has one winner when the same old password is used twice at once", async () => {
    const acc = await account();
    const results = await Promise.all([
      change({ password: "segredo123", new_password: "primeira-1" }, acc.token),
      change({ password: "segredo123", new_password: "segunda-22" }, acc.token),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    // The loser either read the old hash and lost the WHERE (409), or read the new one and its
    // "current" password no longer matched (422).
    expect([409, 422]).toContain(statuses[1]);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.ended).toBe(0);
    const told = await db
      .selectFrom("outbox")
      .select("id")
      .where("user_id", "=", acc.user.id)
      .where("kind", "=", "password_changed")
      .execute();
    expect(told).toHaveLength(1);
  });
});
