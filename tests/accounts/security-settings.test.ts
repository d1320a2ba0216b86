import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { totpCode } from "~/services/accounts/two-factor.server";
import * as securityPage from "~/routes/_account+/account.security";
import { recoveryCodesFile } from "~/components/accounts/two-factor";
import { topbarTitleKey } from "~/components/layout/shell";
import { createSession } from "~/services/accounts/sessions.server";
import { signedInUser } from "../support/helpers";
import { escrow, fund, hired } from "../payments/support";
import { get, postForm } from "../operator/support";

// The security settings page (/account/security), through its loader and its forms as a browser
// without JavaScript posts them.

describe("two-step set-up on a phone", () => {
  it("gives the otpauth:// link beside the key, and the recovery codes as a text file, never cached", async () => {
    const { token } = await signedInUser({ email: "celular@example.com" });
    const started = await postForm(securityPage, "/account/security", token, {
      intent: "two_factor_start",
      password: "freela123",
    });
    expect(started.status).toBe(302);

    const page = await get(securityPage, "/account/security", token);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const { secret, otpauth_uri } = page.body.twoFactor.enrollment;
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*celular%40example\.com\?/);
    expect(new URL(otpauth_uri).searchParams.get("secret")).toBe(secret);

    const confirmed = await postForm(securityPage, "/account/security", token, {
      intent: "two_factor_confirm",
      code: totpCode(secret),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("Cache-Control")).toBe("no-store");
    const codes: string[] = confirmed.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    const file = recoveryCodesFile(codes);
    expect(file.startsWith("data:text/plain;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(file.slice(file.indexOf(",") + 1))).toBe(`${codes.join("\r\n")}\r\n`);
  });
});

describe("the security page's frame", () => {
  it("is named in the top bar, for every account type", () => {
    for (const role of ["merchant", "freelancer", "operator"] as const) {
      expect(topbarTitleKey("/account/security", role)).toBe("nav.account_security");
    }
  });

  it("the other settings pages are named in the top bar too, in both languages", () => {
    const pages = { "/pages/profile-setting": "profile_settings", "/notifications": "notifications" };
    for (const [path, key] of Object.entries(pages)) {
      expect(topbarTitleKey(path, "freelancer")).toBe(`titles.${key}`);
      for (const lng of ["pt-BR", "en"]) {
        const titles = JSON.parse(readFileSync(`public/locales/${lng}/common.json`, "utf8")).titles;
        expect(titles[key], `${lng} ${key}`).toBeTruthy();
      }
    }
  });
});

describe("account deletion blocked by money", () => {
  it("names each balance that blocks it, its amount and where it is", async () => {
    escrow(1_000);
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    for (const who of [owner, applicant]) {
      const { token } = await createSession(who.id);
      const page = await get(securityPage, "/account/security", token);
      expect(page.body.deletion.blocker).toBeTruthy();
      expect(page.body.deletion.held).toEqual([{ kind: "escrow", amount_cents: expect.any(Number), contract_id: id }]);
      expect(page.body.deletion.held[0].amount_cents).toBeGreaterThan(0);
    }
  });
});
