import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { confirmTwoFactor, startTwoFactor, totpCode } from "~/services/accounts/two-factor.server";
import * as adminIndex from "~/routes/admin+/_index";
import * as reportsPage from "~/routes/admin+/reports._index";
import * as metricsApi from "~/routes/api+/admin+/metrics";
import * as securityPage from "~/routes/_account+/account.security";
import * as twoFactorApi from "~/routes/api+/_account+/two-factor._index";
import * as sessionsApi from "~/routes/api+/_account+/sessions._index";
import { get, signedInOperator } from "./support";

// The console requires two-factor sign-in of its operators (OPERATOR_TWO_FACTOR=required, the
// default): until an operator turns it on, every console page sends them to their security
// settings and the console's API answers 403; their account's own pages and API stay open.

afterEach(() => {
  config.OPERATOR_TWO_FACTOR = "required";
});

describe("two-factor sign-in for operators", () => {
  it("is asked before the console, and the console opens once it is on", async () => {
    const { user, token } = await signedInOperator("Otávio Sem Código", { twoFactor: false });
    for (const [route, path] of [
      [adminIndex, "/admin"],
      [reportsPage, "/admin/reports"],
    ] as const) {
      const page = await get(route, path, token);
      expect(page.status).toBe(302);
      expect(page.headers.get("Location")).toBe("/account/security#two-factor");
    }
    const api = await get(metricsApi, "/api/admin/metrics", token);
    expect(api.status).toBe(403);
    expect(api.body.message).toBe("O console exige a verificação em duas etapas: ative-a em /account/security.");

    // The account's own page and API are open to the operator, and say why they are there.
    const settings = await get(securityPage, "/account/security", token);
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ operatorMustEnroll: true, twoFactor: { enabled: false } });
    expect((await get(twoFactorApi, "/api/two-factor", token)).body).toMatchObject({ data: { enabled: false } });
    expect((await get(sessionsApi, "/api/sessions", token)).status).toBe(200);

    // Turning it on (the password, then a code from the app) opens the console.
    const { secret } = await startTwoFactor(user, { password: "freela123" });
    await confirmTwoFactor(user, { code: totpCode(secret) }, token);
    expect((await get(adminIndex, "/admin", token)).status).toBe(200);
    expect((await get(metricsApi, "/api/admin/metrics", token)).status).toBe(200);
    expect((await get(securityPage, "/account/security", token)).body).toMatchObject({ operatorMustEnroll: false });
  });

  it("is not asked with OPERATOR_TWO_FACTOR=off", async () => {
    config.OPERATOR_TWO_FACTOR = "off";
    const { token } = await signedInOperator("Olívia Demonstração", { twoFactor: false });
    expect((await get(adminIndex, "/admin", token)).status).toBe(200);
    expect((await get(metricsApi, "/api/admin/metrics", token)).status).toBe(200);
    expect((await get(securityPage, "/account/security", token)).body).toMatchObject({ operatorMustEnroll: false });
  });
});
