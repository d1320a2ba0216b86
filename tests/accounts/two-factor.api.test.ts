import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { loader as stateLoader } from "~/routes/api+/_account+/two-factor._index";
import { action as setupAction } from "~/routes/api+/_account+/two-factor.setup";
import { action as confirmAction } from "~/routes/api+/_account+/two-factor.confirm";
import { action as disableAction } from "~/routes/api+/_account+/two-factor.disable";
import { matchStep, TOTP_PERIOD, totpCode } from "~/services/accounts/two-factor.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";

// Two-factor sign-in (docs/product.md §1), through the API handlers on both engines: RFC 6238's
// test vectors, the ±1 step window, enrollment (password, QR, a confirming code, ten recovery
// codes once), the second call of POST /api/login, a code refused the second time, a recovery
// code working once, wrong codes counted like wrong passwords, and turning it off.

const RFC_SECRET = "12345678901234567890"; // RFC 6238 appendix B, SHA-1
const RFC_VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP", () => {
  it("gives RFC 6238's test vectors (8 digits), and their last 6 digits as the app's codes", () => {
    const rfc = new TOTP({ algorithm: "SHA1", digits: 8, period: 30, secret: Secret.fromLatin1(RFC_SECRET) });
    const base32 = Secret.fromLatin1(RFC_SECRET).base32;
    for (const [seconds, code] of RFC_VECTORS) {
      expect(rfc.generate({ timestamp: seconds * 1000 })).toBe(code);
      expect(totpCode(base32, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it("accepts a code one step early or late, not two", () => {
    const secret = new Secret({ size: 20 }).base32;
    const at = 1_800_000_000_000;
    const step = Math.floor(at / 1000 / TOTP_PERIOD);
    for (const delta of [-1, 0, 1]) {
      expect(matchStep(secret, totpCode(secret, at + delta * TOTP_PERIOD * 1000), at)).toBe(step + delta);
    }
    for (const delta of [-2, 2]) {
      expect(matchStep(secret, totpCode(secret, at + delta * TOTP_PERIOD * 1000), at)).toBeNull();
    }
  });
});

let counter = 0;
async function account() {
  const email = `duas.etapas${++counter}.${Date.now()}@example.com`;
  const user = await createUser(db, { email, password: "segredo123" });
  const res = await call(loginAction, jsonRequest("/api/login", { email, password: "segredo123" }));
  expect(res.status).toBe(200);
  return { user, email, token: res.body.access_token as string };
}

const post = (handler: typeof setupAction, path: string, body: unknown, token?: string) =>
  call(handler, jsonRequest(path, body, { token }));
const login = (body: unknown) => call(loginAction, jsonRequest("/api/login", body));
/** The code the app shows `steps` steps from now (the last accepted step is now's, after a confirm). */
const codeIn = (secret: string, steps: number) => totpCode(secret, Date.now() + steps * TOTP_PERIOD * 1000);

/** An account with two-factor on: its secret and recovery codes. */
async function enrolled() {
  const acc = await account();
  const setup = await post(setupAction, "/api/two-factor/setup", { password: "segredo123" }, acc.token);
  expect(setup.status).toBe(201);
  const secret = setup.body.data.secret as string;
  const confirmed = await post(confirmAction, "/api/two-factor/confirm", { code: totpCode(secret) }, acc.token);
  expect(confirmed.status).toBe(200);
  return { ...acc, secret, recovery: confirmed.body.recovery_codes as string[] };
}

describe("turning two-factor on", () => {
  it("asks the password, shows a QR and the key, and turns on with a right code: ten recovery codes, once", async () => {
    const acc = await account();
    const other = await login({ email: acc.email, password: "segredo123" });
    const wrongPassword = await post(setupAction, "/api/two-factor/setup", { password: "errada123" }, acc.token);
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors.password).toBe("Senha atual incorreta.");

    const early = await post(confirmAction, "/api/two-factor/confirm", { code: "123456" }, acc.token);
    expect(early.status).toBe(409);

    const setup = await post(setupAction, "/api/two-factor/setup", { password: "segredo123" }, acc.token);
    expect(setup.status).toBe(201);
    const { secret, otpauth_uri, qr_code } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/Freela:${encodeURIComponent(acc.email)}?issuer=Freela&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    // Kept sealed: the database never holds the key the app shows.
    const kept = await db
      .selectFrom("two_factor")
      .select("secret")
      .where("user_id", "=", acc.user.id)
      .executeTakeFirst();
    expect(kept!.secret).toMatch(/^v1\./);
    expect(kept!.secret).not.toContain(secret);
    // Not on until confirmed: the password alone still signs in.
    expect((await login({ email: acc.email, password: "segredo123" })).status).toBe(200);

    const wrong = await post(confirmAction, "/api/two-factor/confirm", { code: "000000" }, acc.token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBe("Código incorreto ou já usado.");
    for (const bad of [{}, { code: 42 }, { code: "" }, { code: "9".repeat(500) }]) {
      expect((await post(confirmAction, "/api/two-factor/confirm", bad, acc.token)).status).toBe(422);
    }

    const ok = await post(confirmAction, "/api/two-factor/confirm", { code: totpCode(secret) }, acc.token);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Verificação em duas etapas ativada. Guarde seus códigos de recuperação.");
    const codes = ok.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Only hashes are stored; the other session ended; the current one goes on.
    const stored = await db
      .selectFrom("recovery_codes")
      .select("code_hash")
      .where("user_id", "=", acc.user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    const profile = (token: string) => call(profileLoader, jsonRequest("/api/profile", undefined, { token }));
    expect((await profile(other.body.access_token)).status).toBe(401);
    expect((await profile(acc.token)).status).toBe(200);
    const state = await call(stateLoader, jsonRequest("/api/two-factor", undefined, { token: acc.token }));
    expect(state.body.data).toEqual({ enabled: true, pending: false, recovery_codes_left: 10 });
    expect((await post(setupAction, "/api/two-factor/setup", { password: "segredo123" }, acc.token)).status).toBe(409);
  });
});

describe("signing in with two-factor", () => {
  it("answers that a second step is needed, then signs in with a code, never twice with the same code", async () => {
    const acc = await enrolled();
    const first = await login({ email: acc.email, password: "segredo123" });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      two_factor_required: true,
      methods: ["totp", "recovery_code"],
      message: "Falta uma etapa: digite o código do seu aplicativo autenticador.",
    });
    expect(first.body.access_token).toBeUndefined();
    const challenge = first.body.challenge as string;

    const wrong = await login({ challenge, code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBe("Código incorreto ou já usado.");

    const code = codeIn(acc.secret, 1);
    const ok = await login({ challenge, code });
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toEqual(expect.any(String));
    expect(ok.body.user.email).toBe(acc.email);
    // The challenge is spent, and the same code does not work again, even with a new challenge.
    expect((await login({ challenge, code })).status).toBe(401);
    const again = await login({ email: acc.email, password: "segredo123" });
    const replay = await login({ challenge: again.body.challenge, code });
    expect(replay.status).toBe(422);
    // An older code (the confirming one's step) is refused too: steps only move forward.
    expect((await login({ challenge: again.body.challenge, code: codeIn(acc.secret, 0) })).status).toBe(422);
  });

  it("takes a recovery code once, in any case and with or without its dash", async () => {
    const acc = await enrolled();
    const challengeOf = async () => (await login({ email: acc.email, password: "segredo123" })).body.challenge;
    const code = acc.recovery[3];
    const ok = await login({ challenge: await challengeOf(), code: ` ${code.toUpperCase()} ` });
    expect(ok.status).toBe(200);
    const reused = await login({ challenge: await challengeOf(), code: code.replace("-", "") });
    expect(reused.status).toBe(422);
    const state = await call(stateLoader, jsonRequest("/api/two-factor", undefined, { token: ok.body.access_token }));
    expect(state.body.data.recovery_codes_left).toBe(9);
  });

  it("counts wrong codes like wrong passwords: 429 after five, and refuses a dead challenge", async () => {
    const acc = await enrolled();
    const { challenge } = (await login({ email: acc.email, password: "segredo123" })).body;
    for (let i = 0; i < 5; i++) expect((await login({ challenge, code: "000000" })).status).toBe(422);
    const limited = await login({ challenge, code: codeIn(acc.secret, 1) });
    expect(limited.status).toBe(429);
    // The password does not reset the count for an account with two-factor on.
    expect((await login({ email: acc.email, password: "segredo123" })).status).toBe(429);

    for (const bad of [
      { challenge: "x".repeat(43), code: "123456" },
      { challenge: "", code: "123456" },
    ]) {
      expect([401, 422]).toContain((await login(bad)).status);
    }
    expect((await login({ challenge: 42, code: "123456" })).status).toBe(422);
    expect((await login({ challenge: "x".repeat(43), code: "123456" })).body.message).toBe(
      "Esta etapa de login expirou. Entre de novo com sua senha.",
    );
  });
});

describe("turning two-factor off", () => {
  it("asks the password and a code; then the password alone signs in again", async () => {
    const acc = await enrolled();
    const off = (body: unknown) => post(disableAction, "/api/two-factor/disable", body, acc.token);
    expect((await off({ password: "errada123", code: codeIn(acc.secret, 1) })).status).toBe(422);
    const wrongCode = await off({ password: "segredo123", code: "000000" });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body.errors.code).toBe("Código incorreto ou já usado.");
    expect((await off({ password: "segredo123" })).status).toBe(422);
    const ok = await off({ password: "segredo123", code: acc.recovery[0] });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Verificação em duas etapas desativada.");
    expect((await off({ password: "segredo123", code: "123456" })).status).toBe(409);
    expect((await login({ email: acc.email, password: "segredo123" })).status).toBe(200);
    const rows = await db.selectFrom("recovery_codes").select("code_hash").where("user_id", "=", acc.user.id).execute();
    expect(rows).toHaveLength(0);
  });
});
