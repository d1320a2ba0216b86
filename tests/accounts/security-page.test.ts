import { describe, expect, it } from "vitest";
import { action as securityAction } from "~/routes/_account+/account.security";
import { action as endByLinkPage } from "~/routes/_auth+/sessions.end";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { postForm, toastOf } from "../operator/support";
import { call, jsonRequest, mailsTo } from "../support/helpers";

// The security page's forms as a browser without JavaScript posts them (the form's own fields,
// url-encoded), on both engines: the answer (redirect and toast, or the refusal on its form), and
// what it did. The browser stories (tests/e2e/password-change.spec.ts, sessions.spec.ts) run
// with JavaScript.

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

let n = 0;
async function account() {
  const email = `seguranca${++n}.${Date.now()}@example.com`;
  await createUser(db, { email, password: "segredo123" });
  const login = async (password = "segredo123", userAgent?: string) =>
    call(
      loginAction,
      jsonRequest("/api/login", { email, password }, { headers: userAgent ? { "User-Agent": userAgent } : {} }),
    );
  const token = (await login()).body.access_token as string;
  return {
    email,
    login,
    token,
    other: async (ua?: string) => (await login("segredo123", ua)).body.access_token as string,
  };
}
const alive = async (token: string) =>
  (await call(profileLoader, jsonRequest("/api/profile", undefined, { token }))).status;
const security = (token: string, fields: Record<string, string>) =>
  postForm({ action: securityAction }, "/account/security", token, fields);

describe("the security page's forms without JavaScript", () => {
  it("changes the password: a wrong current one refused on its form, a right one ends the other sessions", async () => {
    const acc = await account();
    const other = await acc.other();
    const wrong = await security(acc.token, {
      intent: "password_change",
      password: "senha-errada-1",
      new_password: "nova-senha-segura",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    expect(wrong.body.values.intent).toBe("password_change");
    expect(await alive(other)).toBe(200);

    const done = await security(acc.token, {
      intent: "password_change",
      password: "segredo123",
      new_password: "nova-senha-segura",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/account/security#password");
    expect(await toastOf(done)).toBe("Senha trocada. As outras sessões da conta foram encerradas.");
    expect(await alive(other)).toBe(401);
    expect(await alive(acc.token)).toBe(200);
    expect((await acc.login("nova-senha-segura")).status).toBe(200);
  });

  it("ends one session, then all the others, and this one goes on", async () => {
    const acc = await account();
    const firefox = await acc.other(FIREFOX_LINUX);
    const { public_id } = await db
      .selectFrom("sessions")
      .select("public_id")
      .where("user_agent", "=", FIREFOX_LINUX)
      .where(
        "user_id",
        "=",
        (await db.selectFrom("users").select("id").where("email", "=", acc.email).executeTakeFirstOrThrow()).id,
      )
      .executeTakeFirstOrThrow();
    const one = await security(acc.token, { intent: "end_session", session: public_id! });
    expect(one.status).toBe(302);
    expect(one.headers.get("Location")).toBe("/account/security#sessions");
    expect(await toastOf(one)).toBe("Sessão encerrada.");
    expect(await alive(firefox)).toBe(401);

    const others = [await acc.other(FIREFOX_LINUX), await acc.other()];
    const all = await security(acc.token, { intent: "end_others" });
    expect(all.status).toBe(302);
    expect(await toastOf(all)).toBe("As outras sessões foram encerradas.");
    for (const token of others) expect(await alive(token)).toBe(401);
    expect(await alive(acc.token)).toBe(200);
  });

  it("the sign-in notice's page ends that session once, signed out", async () => {
    const acc = await account();
    await acc.other(); // the first device: no notice
    const intruder = await acc.other(FIREFOX_LINUX);
    const mail = (await mailsTo(acc.email)).find((m) => /novo acesso à sua conta/.test(m.subject))!;
    const token = new URL(mail.text.match(/https?:\/\/\S+\/sessions\/end\S*/)![0]).searchParams.get("token")!;
    const end = () => postForm({ action: endByLinkPage }, "/sessions/end", undefined, { token });
    const ended = await end();
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ done: true, failure: null });
    expect(await alive(intruder)).toBe(401);
    expect(await alive(acc.token)).toBe(200);
    const again = await end();
    expect(again.body).toMatchObject({ done: false, failure: "Esta sessão já foi encerrada." });
  });
});
