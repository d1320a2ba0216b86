import { describe, expect, it } from "vitest";
import * as securityPage from "~/routes/_account+/account.security";
import * as loginPage from "~/routes/_auth+/login";
import * as resetPage from "~/routes/_auth+/reset-password";
import { requestPasswordReset } from "~/services/accounts/accounts.server";
import { TOTP_PERIOD, totpCode } from "~/services/accounts/two-factor.server";
import { DEFAULT_PASSWORD } from "../../db/factories";
import { get, postForm, signedInOperator, toastOf } from "../operator/support";
import { mailsTo, signedInUser } from "../support/helpers";

// Two-factor sign-in's forms as a browser without JavaScript posts them (the form's own fields,
// url-encoded), on both engines: turning it on, new recovery codes and turning it off on the
// security page, and the login page's second step. The browser story (tests/e2e/two-factor.spec.ts)
// runs with JavaScript.

const codeIn = (secret: string, steps: number) => totpCode(secret, Date.now() + steps * TOTP_PERIOD * 1000);
const security = (token: string, fields: Record<string, string>) =>
  postForm(securityPage, "/account/security", token, fields);

describe("two-factor's page forms without JavaScript", () => {
  it("turns on (a wrong code kept on its form), new recovery codes, then off with a new recovery code", async () => {
    const { token } = await signedInUser();
    const start = await security(token, { intent: "two_factor_start", password: DEFAULT_PASSWORD });
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toBe("/account/security#two-factor");
    expect(await toastOf(start)).toMatch(/Leia o QR code/);
    const page = await get(securityPage, "/account/security", token);
    const { secret, qr_code } = page.body.twoFactor.enrollment;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qr_code).toBeTruthy();

    const wrong = await security(token, { intent: "two_factor_confirm", code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBe("Código incorreto ou já usado.");
    expect(wrong.body.values.intent).toBe("two_factor_confirm");
    const on = await security(token, { intent: "two_factor_confirm", code: totpCode(secret) });
    expect(on.status).toBe(200);
    const recovery: string[] = on.body.recoveryCodes;
    expect(recovery).toHaveLength(10);
    // Shown once: the page read again shows the state, not the codes.
    const after = await get(securityPage, "/account/security", token);
    expect(after.body.twoFactor).toMatchObject({ enabled: true, enrollment: null });
    expect(after.body.recoveryCodes).toBeUndefined();

    const refused = await security(token, { intent: "recovery_codes", password: DEFAULT_PASSWORD, code: "000000" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.code).toBe("Código incorreto ou já usado.");
    expect(refused.body.values.intent).toBe("recovery_codes");
    const again = await security(token, { intent: "recovery_codes", password: DEFAULT_PASSWORD, code: recovery[1] });
    expect(again.status).toBe(200);
    const fresh: string[] = again.body.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recovery[2]);

    const old = await security(token, { intent: "two_factor_disable", password: DEFAULT_PASSWORD, code: recovery[2] });
    expect(old.status).toBe(422);
    expect(old.body.errors.code).toBe("Código incorreto ou já usado.");
    expect(old.body.values.intent).toBe("two_factor_disable");
    const off = await security(token, { intent: "two_factor_disable", password: DEFAULT_PASSWORD, code: fresh[0] });
    expect(off.status).toBe(302);
    expect(off.headers.get("Location")).toBe("/account/security#two-factor");
    expect(await toastOf(off)).toBe("Verificação em duas etapas desativada.");
    expect((await get(securityPage, "/account/security", token)).body.twoFactor.enabled).toBe(false);
  });

  it("the login page's second step: a wrong code keeps the step and the e-mail, a right one goes where the visitor was going", async () => {
    const { user, token } = await signedInUser();
    await security(token, { intent: "two_factor_start", password: DEFAULT_PASSWORD });
    const { secret } = (await get(securityPage, "/account/security", token)).body.twoFactor.enrollment;
    expect((await security(token, { intent: "two_factor_confirm", code: totpCode(secret) })).status).toBe(200);

    const step = await postForm(loginPage, "/login", undefined, {
      email: user.email,
      password: DEFAULT_PASSWORD,
      redirectFrom: "/contracts",
    });
    expect(step.status).toBe(200);
    expect(step.body.twoFactor).toBe(true);
    expect(step.body.message).toBe("Falta uma etapa: digite o código do seu aplicativo autenticador.");
    // (The step says whose account it is from the e-mail it carries.)
    const carried = step.body.values;
    expect(carried).toMatchObject({ email: user.email, redirectFrom: "/contracts" });
    expect(carried.challenge).toBeTruthy();

    const wrong = await postForm(loginPage, "/login", undefined, { ...carried, code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBe("Código incorreto ou já usado.");
    expect(wrong.body.values).toMatchObject({
      challenge: carried.challenge,
      email: user.email,
      redirectFrom: "/contracts",
    });
    const signedIn = await postForm(loginPage, "/login", undefined, { ...carried, code: codeIn(secret, 1) });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/contracts");
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("freela_session="))).toBe(true);
  });
});

describe("an operator's first day without JavaScript", () => {
  it("sets the password from the one-time link's form and signs in with it", async () => {
    const { user } = await signedInOperator("Olga Operadora", { twoFactor: false });
    await requestPasswordReset(user.email);
    const text = (await mailsTo(user.email)).map((m) => m.text).join("\n");
    const token = decodeURIComponent(text.match(/reset-password\?token=([\w%-]+)/)![1]);
    const set = await postForm(resetPage, `/reset-password?token=${token}`, undefined, {
      token,
      password: "console-seguro-2026",
    });
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).toBe("/auth/login");
    expect(await toastOf(set)).toBe("Senha alterada com sucesso. Faça login com a nova senha.");
    const signedIn = await postForm(loginPage, "/auth/login", undefined, {
      email: user.email,
      password: "console-seguro-2026",
    });
    expect(signedIn.status).toBe(302);
    // Signed in; from there every console page sends them to the security page
    // (tests/operator/two-factor-required.test.ts).
    expect(signedIn.headers.get("Location")).toBe("/");
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("freela_session="))).toBe(true);
  });
});
