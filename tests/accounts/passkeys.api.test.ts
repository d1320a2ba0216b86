import { describe, expect, it } from "vitest";
import { action as passkeySignInAction } from "~/routes/api+/_auth+/login_.passkey";
import { action as signInOptionsAction } from "~/routes/api+/_auth+/login_.passkey.options";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { action as optionsAction } from "~/routes/api+/_account+/passkeys.options";
import { action as addAction, loader as listLoader } from "~/routes/api+/_account+/passkeys._index";
import { action as oneAction } from "~/routes/api+/_account+/passkeys.$id";
import { config } from "~/config.server";
import { assertOperatorAccess } from "~/services/operator/operators.server";
import { findSession } from "~/services/accounts/sessions.server";
import { relyingParty } from "~/services/accounts/passkeys.server";
import { requestPasswordReset, resetPassword } from "~/services/accounts/accounts.server";
import { changePassword } from "~/services/accounts/password-change.server";
import { confirmTwoFactor, startTwoFactor, totpCode } from "~/services/accounts/two-factor.server";
import { db } from "../../db";
import { createUser, DEFAULT_PASSWORD } from "../../db/factories";
import { softAuthenticator, type SoftPasskey } from "../support/authenticator";
import { call, jsonRequest, mailsTo, signedInUser } from "../support/helpers";

// Passkeys (docs/product.md §1), through the API handlers on both engines, with a software
// authenticator (ES256, "none" attestation): adding one (the challenge is the account's, live,
// used once), usernameless sign-in without the TOTP step, a cloned authenticator's counter
// refused, removal, and the console's two-factor rule met by a passkey session.

const authenticator = () => softAuthenticator(relyingParty());
const post = (handler: typeof addAction, path: string, body: unknown, token?: string) =>
  call(handler, jsonRequest(path, body, { token }));

/** The options to add a passkey, after the fresh proof (the factory's password). */
async function registrationOptions(token: string, proof: Record<string, string> = { password: DEFAULT_PASSWORD }) {
  const res = await call(optionsAction, jsonRequest("/api/passkeys/options", proof, { token }));
  expect(res.status).toBe(200);
  return res.body.options as { challenge: string; user: { id: string }; rp: { id: string } };
}

async function signInOptions() {
  const res = await call(signInOptionsAction, jsonRequest("/api/login/passkey/options", {}));
  expect(res.status).toBe(200);
  return res.body.options as { challenge: string; rpId: string; allowCredentials?: unknown[] };
}

/** A signed-in account with one passkey added through the API. */
async function withPasskey(overrides: Parameters<typeof createUser>[1] = {}) {
  const acc = await signedInUser(overrides);
  const soft = authenticator();
  const { passkey, response } = soft.register(await registrationOptions(acc.token));
  const added = await post(addAction, "/api/passkeys", { response, name: "Notebook" }, acc.token);
  expect(added.status).toBe(201);
  return { ...acc, soft, passkey, id: added.body.data.id as string };
}

const signIn = (response: unknown) => post(passkeySignInAction, "/api/login/passkey", { response });

describe("adding a passkey", () => {
  it("hands out options for APP_URL's site, verifies the answer once, and lists the passkey", async () => {
    const acc = await signedInUser();
    const options = await registrationOptions(acc.token);
    expect(options.rp.id).toBe(new URL(config.APP_URL).hostname);
    const soft = authenticator();
    const { response } = soft.register(options);
    const added = await post(addAction, "/api/passkeys", { response, name: "  Meu celular " }, acc.token);
    expect(added.status).toBe(201);
    expect(added.body.message).toBe("Chave de acesso adicionada.");
    expect(added.body.data).toMatchObject({ id: response.id, name: "Meu celular", last_used_at: null });
    // The address is told: a passkey signs in alone.
    const told = (await mailsTo(acc.user.email)).filter(
      (m) => m.subject === "Freela: nova chave de acesso na sua conta",
    );
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('"Meu celular"');
    expect(told[0].text).toContain(`${config.APP_URL}/account/security`);

    // The same answer again: its challenge was spent.
    const replay = await post(addAction, "/api/passkeys", { response, name: "De novo" }, acc.token);
    expect(replay.status).toBe(422);
    expect(replay.body.message).toBe("Este pedido de chave de acesso expirou ou já foi usado. Tente de novo.");

    const list = await call(listLoader, jsonRequest("/api/passkeys", undefined, { token: acc.token }));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: response.id, name: "Meu celular", created_at: expect.any(String), last_used_at: null },
    ]);
    // The next options exclude it, so the same authenticator is not registered twice.
    const next = (await registrationOptions(acc.token)) as unknown as { excludeCredentials: { id: string }[] };
    expect(next.excludeCredentials.map((c) => c.id)).toEqual([response.id]);
  });

  it("refuses a challenge handed out to another account, an expired one, and a response for another site", async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const soft = authenticator();
    const bobs = soft.register(await registrationOptions(bob.token));
    const stolen = await post(addAction, "/api/passkeys", { response: bobs.response }, alice.token);
    expect(stolen.status).toBe(422);
    expect(stolen.body.message).toBe("Este pedido de chave de acesso expirou ou já foi usado. Tente de novo.");
    // Bob's challenge was not spent by Alice's attempt.
    expect((await post(addAction, "/api/passkeys", { response: bobs.response }, bob.token)).status).toBe(201);

    const late = soft.register(await registrationOptions(alice.token));
    await db.updateTable("webauthn_challenges").set({ expires_at: "2000-01-01T00:00:00.000Z" }).execute();
    expect((await post(addAction, "/api/passkeys", { response: late.response }, alice.token)).status).toBe(422);

    const elsewhere = softAuthenticator({ origin: "https://evil.example", rpID: "evil.example" });
    const phished = elsewhere.register(await registrationOptions(alice.token));
    const refused = await post(addAction, "/api/passkeys", { response: phished.response }, alice.token);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("Não foi possível adicionar a chave de acesso. Tente de novo.");
    const list = await call(listLoader, jsonRequest("/api/passkeys", undefined, { token: alice.token }));
    expect(list.body.data).toEqual([]);
  });

  it("answers 422 with a Portuguese message to malformed answers, and 401 without a session", async () => {
    const acc = await signedInUser();
    for (const bad of [
      {},
      { response: 42 },
      { response: "{not json" },
      { response: { id: "x", rawId: "x", type: "public-key", response: {} } },
      {
        response: {
          id: "***",
          rawId: "x",
          type: "public-key",
          response: { clientDataJSON: "a", attestationObject: "b" },
        },
      },
      {
        response: {
          id: "aa",
          rawId: "aa",
          type: "public-key",
          response: { clientDataJSON: "aa", attestationObject: "bb" },
        },
      },
    ]) {
      const res = await post(addAction, "/api/passkeys", bad, acc.token);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.message).toMatch(/chave de acesso/);
    }
    expect((await post(addAction, "/api/passkeys", {})).status).toBe(401);
  });
});

describe("adding a passkey asks for a fresh proof", () => {
  it("a session alone gets no options: the password is asked for, and a code when two-factor is on", async () => {
    const acc = await signedInUser();
    const options = (body: unknown) =>
      call(optionsAction, jsonRequest("/api/passkeys/options", body, { token: acc.token }));
    const none = await options({});
    expect(none.status).toBe(422);
    expect(none.body.errors.password).toBe("Informe a senha.");
    const wrong = await options({ password: "nao-e-a-senha" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    // Nothing handed out, so nothing to answer: no challenge of this account exists.
    expect(
      await db.selectFrom("webauthn_challenges").select("id").where("user_id", "=", acc.user.id).execute(),
    ).toEqual([]);

    expect((await call(optionsAction, jsonRequest("/api/passkeys/options", {}))).status).toBe(401);

    // With two-factor on, the password alone is not enough.
    const again = await signedInUser({ email: "com.codigo@example.com" });
    const { secret: secret2 } = await startTwoFactor(again.user, { password: DEFAULT_PASSWORD });
    await confirmTwoFactor(again.user, { code: totpCode(secret2) }, again.token);
    const noCode = await call(
      optionsAction,
      jsonRequest("/api/passkeys/options", { password: DEFAULT_PASSWORD }, { token: again.token }),
    );
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors.code).toBe("Digite o código.");
    const withCode = await registrationOptions(again.token, {
      password: DEFAULT_PASSWORD,
      code: totpCode(secret2, Date.now() + 30_000),
    });
    expect(withCode.challenge).toBeTruthy();
  });
});

describe("signing in with a passkey", () => {
  it("signs in without an e-mail or the TOTP step, opens a session marked with the passkey, and never twice with one challenge", async () => {
    const acc = await withPasskey();
    // Two-factor on: a passkey still signs in alone (it is both factors).
    await db
      .insertInto("two_factor")
      .values({
        user_id: acc.user.id,
        secret: "JBSWY3DPEHPK3PXP",
        confirmed_at: new Date().toISOString(),
        last_step: 0,
        created_at: new Date().toISOString(),
      })
      .execute();
    const options = await signInOptions();
    expect(options.rpId).toBe(new URL(config.APP_URL).hostname);
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = acc.soft.authenticate(acc.passkey, options);
    const ok = await signIn(response);
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(acc.user.id);
    expect(ok.body.token_type).toBe("Bearer");
    const me = await call(profileLoader, jsonRequest("/api/profile", undefined, { token: ok.body.access_token }));
    expect(me.status).toBe(200);
    expect((await findSession(ok.body.access_token))?.viaPasskey).toBe(true);
    expect((await findSession(acc.token))?.viaPasskey).toBe(false);

    const list = await call(listLoader, jsonRequest("/api/passkeys", undefined, { token: acc.token }));
    expect(list.body.data[0].last_used_at).toEqual(expect.any(String));

    // The same answer again (its challenge is spent), then a new answer to that spent challenge.
    const replay = await signIn(response);
    expect(replay.status).toBe(401);
    const again = await signIn(acc.soft.authenticate(acc.passkey, options));
    expect(again.status).toBe(401);
    expect(again.body.message).toBe("Este pedido de chave de acesso expirou ou já foi usado. Tente de novo.");
    // A challenge of registration is not one of sign-in.
    const proof = { password: DEFAULT_PASSWORD, code: totpCode("JBSWY3DPEHPK3PXP") };
    const wrongKind = await signIn(acc.soft.authenticate(acc.passkey, await registrationOptions(acc.token, proof)));
    expect(wrongKind.status).toBe(401);
  });

  it("refuses a cloned authenticator: a counter that does not grow past a non-zero stored one", async () => {
    const acc = await withPasskey();
    expect((await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()))).status).toBe(200);
    const stored = await db.selectFrom("passkeys").select("counter").where("id", "=", acc.id).executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);
    // A copy of the key answers with the counter it had: 1 again.
    const clone: SoftPasskey = { ...acc.passkey };
    const cloned = await signIn(acc.soft.authenticate(clone, await signInOptions(), { step: 0 }));
    expect(cloned.status).toBe(401);
    expect(cloned.body.message).toMatch(/^Esta chave de acesso foi recusada: o contador dela não avançou/);
    // A counter that went back is refused too; the real one, moving on, still works.
    const behind: SoftPasskey = { ...acc.passkey, counter: 0 };
    expect((await signIn(acc.soft.authenticate(behind, await signInOptions(), { step: 0 }))).status).toBe(401);
    expect((await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()))).status).toBe(200);
  });

  it("refuses an unknown passkey, a forged signature, a suspended or banned account", async () => {
    const acc = await withPasskey();
    const stranger = authenticator().register(await registrationOptions((await signedInUser()).token)).passkey;
    const unknown = await signIn(authenticator().authenticate(stranger, await signInOptions()));
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("Esta chave de acesso não está cadastrada no Freela. Entre com sua senha.");

    const forged = acc.soft.authenticate(acc.passkey, await signInOptions());
    forged.response.signature = Buffer.from("not a signature").toString("base64url");
    const refused = await signIn(forged);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe("Não foi possível entrar com a chave de acesso. Tente de novo ou use sua senha.");

    const future = new Date(Date.now() + 86_400_000).toISOString();
    await db.updateTable("users").set({ suspended_until: future }).where("id", "=", acc.user.id).execute();
    const suspended = await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()));
    expect(suspended.status).toBe(403);
    await db
      .updateTable("users")
      .set({ suspended_until: null, banned_at: new Date().toISOString() })
      .where("id", "=", acc.user.id)
      .execute();
    expect((await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()))).status).toBe(403);

    for (const bad of [{}, { response: null }, { response: "[]" }, { response: { id: "a".repeat(30_000) } }]) {
      const res = await post(passkeySignInAction, "/api/login/passkey", bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(422);
    }
  });

  it("lets an operator's passkey session into the console without TOTP; a password session is not", async () => {
    const op = await withPasskey({ account_type: "operator" });
    const passwordSession = await findSession(op.token);
    const ok = await signIn(op.soft.authenticate(op.passkey, await signInOptions()));
    const passkeySession = await findSession(ok.body.access_token);
    const saved = config.OPERATOR_TWO_FACTOR;
    config.OPERATOR_TWO_FACTOR = "required";
    try {
      await expect(assertOperatorAccess(passwordSession!.user, passwordSession!)).rejects.toMatchObject({
        status: 403,
      });
      await expect(assertOperatorAccess(passkeySession!.user, passkeySession!)).resolves.toBeUndefined();
    } finally {
      config.OPERATOR_TWO_FACTOR = saved;
    }
  });
});

describe("passkeys outlive the password: the owner is asked to review them", () => {
  it("a password change and a reset e-mail the account's passkeys with the link to the settings", async () => {
    const acc = await withPasskey({ email: "revisar@example.com" });
    await mailsTo(acc.user.email);
    await changePassword(acc.user, { password: DEFAULT_PASSWORD, new_password: "senha-nova-123" }, acc.token);
    await requestPasswordReset(acc.user.email);
    const mails = await mailsTo(acc.user.email);
    const token = decodeURIComponent(
      mails
        .map((m) => m.text)
        .join("\n")
        .match(/reset-password\?token=([\w%-]+)/)![1],
    );
    await resetPassword({ token, password: "senha-nova-456" });
    const told = [...mails, ...(await mailsTo(acc.user.email))].filter(
      (m) => m.subject === "Freela: sua senha foi alterada",
    );
    expect(told).toHaveLength(2);
    for (const mail of told) {
      expect(mail.text).toContain("Chaves de acesso entram sem senha");
      expect(mail.text).toContain("- Notebook");
      expect(mail.text).toContain(`${config.APP_URL}/account/security#passkeys`);
    }
    // Without passkeys, the e-mail says nothing of them.
    const plain = await signedInUser({ email: "sem.chaves@example.com" });
    await changePassword(plain.user, { password: DEFAULT_PASSWORD, new_password: "senha-nova-123" }, plain.token);
    const [mail] = await mailsTo(plain.user.email);
    expect(mail.text).not.toContain("Chaves de acesso");
  });
});

describe("renaming and removing a passkey", () => {
  it("renames and removes only the account's own, ending the other sessions opened with it", async () => {
    const acc = await withPasskey();
    const other = await signedInUser();
    const path = `/api/passkeys/${acc.id}`;
    const req = (method: string, token: string, body?: unknown) =>
      call(oneAction, jsonRequest(path, body, { method, token }), { id: acc.id });

    expect((await req("PATCH", acc.token, { name: "" })).status).toBe(422);
    expect((await req("PATCH", acc.token, { name: "x".repeat(61) })).body.errors.name).toBe(
      "Dê à chave de acesso um nome de 1 a 60 caracteres.",
    );
    expect((await req("PATCH", other.token, { name: "Minha" })).status).toBe(404);
    const renamed = await req("PATCH", acc.token, { name: "Chave do trabalho" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe("Chave de acesso renomeada.");

    const viaPasskey = await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()));
    expect((await req("DELETE", other.token)).status).toBe(404);
    const removed = await req("DELETE", acc.token);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe("Chave de acesso removida.");
    expect((await req("DELETE", acc.token)).body.message).toBe("Chave de acesso não encontrada.");
    // The session opened with it ended; the one removing it goes on; the passkey no longer signs in.
    const profile = (token: string) => call(profileLoader, jsonRequest("/api/profile", undefined, { token }));
    expect((await profile(viaPasskey.body.access_token)).status).toBe(401);
    expect((await profile(acc.token)).status).toBe(200);
    expect((await signIn(acc.soft.authenticate(acc.passkey, await signInOptions()))).status).toBe(401);
  });
});
