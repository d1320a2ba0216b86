import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { loader as stateLoader } from "~/routes/api+/_account+/two-factor._index";
import { action as setupAction } from "~/routes/api+/_account+/two-factor.setup";
import { action as confirmAction } from "~/routes/api+/_account+/two-factor.confirm";
import { action as regenerateAction } from "~/routes/api+/_account+/two-factor.recovery-codes";
import { totpCode, TOTP_PERIOD } from "~/services/accounts/two-factor.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";

// New recovery codes (docs/product.md §1), through the API on both engines: the password and a
// second factor first; ten new codes shown once; every earlier code stops working.

let n = 0;
const post = (handler: typeof setupAction, path: string, body: unknown, token?: string) =>
  call(handler, jsonRequest(path, body, { token }));
const login = (body: unknown) => call(loginAction, jsonRequest("/api/login", body));
const regenerate = (body: unknown, token: string) =>
  post(regenerateAction, "/api/two-factor/recovery-codes", body, token);

async function account() {
  const email = `codigos${++n}.${Date.now()}@example.com`;
  const user = await createUser(db, { email, password: "segredo123" });
  const token = (await login({ email, password: "segredo123" })).body.access_token as string;
  return { user, email, token };
}

/** The code of the app `steps` steps from now: each accepted code must be of a later step. */
const codeIn = (secret: string, steps: number) => totpCode(secret, Date.now() + steps * TOTP_PERIOD * 1000);

describe("new recovery codes", () => {
  it("asks the password and a code, gives ten new codes once, and the old ones stop working", async () => {
    const acc = await account();
    expect((await regenerate({ password: "segredo123", code: "123456" }, acc.token)).status).toBe(409);
    const setup = await post(setupAction, "/api/two-factor/setup", { password: "segredo123" }, acc.token);
    const secret = setup.body.data.secret as string;
    const confirmed = await post(confirmAction, "/api/two-factor/confirm", { code: totpCode(secret) }, acc.token);
    const old = confirmed.body.recovery_codes as string[];

    const wrongPassword = await regenerate({ password: "errada1234", code: codeIn(secret, 1) }, acc.token);
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors.password).toBe("Senha atual incorreta.");
    const wrongCode = await regenerate({ password: "segredo123", code: "000000" }, acc.token);
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body.errors.code).toBe("Código incorreto ou já usado.");
    for (const bad of [{}, { password: "segredo123" }, { password: 1, code: [] }]) {
      expect((await regenerate(bad, acc.token)).status).toBe(422);
    }

    const ok = await regenerate({ password: "segredo123", code: old[0] }, acc.token);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Novos códigos de recuperação gerados. Os anteriores não valem mais.");
    const fresh = ok.body.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    for (const code of fresh) expect(old).not.toContain(code);
    const state = await call(stateLoader, jsonRequest("/api/two-factor", undefined, { token: acc.token }));
    expect(state.body.data.recovery_codes_left).toBe(10);

    // At sign-in: an old code is refused, a new one works.
    const first = await login({ email: acc.email, password: "segredo123" });
    expect(first.status).toBe(202);
    const refused = await login({ challenge: first.body.challenge, code: old[1] });
    expect(refused.status).toBe(422);
    const signedIn = await login({ challenge: first.body.challenge, code: fresh[0] });
    expect(signedIn.status).toBe(200);
  });
});
