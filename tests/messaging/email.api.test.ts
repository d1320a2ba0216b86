import { describe, expect, it } from "vitest";
import { db } from "../../db";
import * as settingsRoute from "~/routes/api+/_account+/notification-settings";
import * as languageRoute from "~/routes/language";
import * as profileSettingsPage from "~/routes/_account+/pages.profile-setting";
import * as unsubscribeRoute from "~/routes/_account+/unsubscribe.$token";
import { EMAIL_KINDS } from "~/lib/email-kinds";
import { getEmailSettings, unsubscribeToken } from "~/services/messaging/email.server";
import { toastOf } from "../operator/support";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { emailKindsFor } from "~/lib/email-kinds";

const PATH = "/api/notification-settings";

function form(path: string, fields: [string, string][], token?: string, headers: Record<string, string> = {}) {
  return new Request(BASE + path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("e-mail settings by the API", () => {
  it("answer 401 signed out", async () => {
    const read = await call(settingsRoute.loader, jsonRequest(PATH));
    expect(read.status).toBe(401);
    expect(read.body.message).toMatch(/[Ss]essão|login|entrar/);
    expect((await call(settingsRoute.action, jsonRequest(PATH, { kinds: {} }))).status).toBe(401);
  });

  it("read every kind on by default, turn some off and back on, and set the language", async () => {
    const { user, token } = await signedInUser();
    const read = await call(settingsRoute.loader, jsonRequest(PATH, undefined, { token }));
    expect(read.status).toBe(200);
    expect(read.body.settings.locale).toBeNull();
    expect(Object.keys(read.body.settings.kinds).sort()).toEqual([...EMAIL_KINDS].sort());
    expect(Object.values(read.body.settings.kinds).every((on) => on === true)).toBe(true);

    const off = await call(
      settingsRoute.action,
      jsonRequest(PATH, { kinds: { message_received: false, contract_overdue: false }, locale: "en" }, { token }),
    );
    expect(off.status).toBe(200);
    expect(off.body.message).toBe("Preferências de e-mail salvas.");
    expect(off.body.settings).toMatchObject({
      locale: "en",
      kinds: { message_received: false, contract_overdue: false, offer_received: true },
    });
    const on = await call(
      settingsRoute.action,
      jsonRequest(PATH, { kinds: { message_received: true }, locale: null }, { token }),
    );
    expect(on.body.settings).toMatchObject({
      locale: null,
      kinds: { message_received: true, contract_overdue: false },
    });
    expect(await getEmailSettings(user)).toEqual(on.body.settings);
  });

  it("refuse bad input with 422 and a Portuguese message per field; bad bodies 400/415; other methods 405", async () => {
    const { token } = await signedInUser();
    const bad = async (body: unknown) => call(settingsRoute.action, jsonRequest(PATH, body, { token }));
    const unknownKind = await bad({ kinds: { spam: false } });
    expect(unknownKind.status).toBe(422);
    expect(unknownKind.body.message).toBe("Preferências de e-mail inválidas.");
    expect(unknownKind.body.errors.kinds).toMatch(/^Informe os tipos de e-mail/);
    expect((await bad({ kinds: { offer_received: 1 } })).status).toBe(422);
    expect((await bad({ kinds: "todos" })).status).toBe(422);
    const locale = await bad({ locale: "fr" });
    expect(locale.status).toBe(422);
    expect(locale.body.errors.locale).toBe("Escolha o idioma dos e-mails: pt-BR, en ou es.");
    expect((await bad({ admin: true })).body.errors.form).toBe("Envie apenas “kinds” e “locale”.");
    expect((await bad("{nope")).status).toBe(400);
    expect((await bad([])).status).toBe(400);
    const plain = await call(
      settingsRoute.action,
      jsonRequest(PATH, "kinds=x", { token, headers: { "Content-Type": "text/plain" } }),
    );
    expect(plain.status).toBe(415);
    expect((await call(settingsRoute.action, jsonRequest(PATH, {}, { token, method: "PUT" }))).status).toBe(405);
  });
});

describe("the settings form of /pages/profile-setting", () => {
  it("saves the checked kinds (the others it offers off) and the language, with a redirect back", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const page = await call(profileSettingsPage.loader, jsonRequest("/pages/profile-setting", undefined, { token }));
    expect(page.body.email.kinds.offer_received).toBe(true);
    const fields: [string, string][] = [
      ["intent", "email"],
      ["kinds", "offer_received"],
      ["kinds", "contract_changes_requested"],
      ["locale", "en"],
    ];
    const saved = await call(profileSettingsPage.action, form("/pages/profile-setting", fields, token));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/pages/profile-setting#email");
    const settings = await getEmailSettings(user);
    expect(settings.locale).toBe("en");
    // A freelancer's form offers only a freelancer's kinds: the merchant's stay as they were.
    const on = Object.entries(settings.kinds)
      .filter(([, on]) => on)
      .map(([k]) => k)
      .sort();
    expect(on).toEqual(
      [
        "offer_received",
        "contract_changes_requested",
        ...emailKindsFor("merchant").filter((k) => !emailKindsFor("freelancer").includes(k)),
      ].sort(),
    );
  });

  it("a merchant's and a freelancer's form, posted without JavaScript, save without their own kind, in English", async () => {
    // The browser story (tests/e2e/email.spec.ts) saves the same forms with JavaScript.
    const own = { merchant: "application_received", freelancer: "invitation_received" } as const;
    for (const role of ["merchant", "freelancer"] as const) {
      const { token } = await signedInUser({ account_type: role });
      const load = () => call(profileSettingsPage.loader, jsonRequest("/pages/profile-setting", undefined, { token }));
      const before = (await load()).body.email;
      expect(before.locale ?? "pt-BR").toBe("pt-BR");
      expect(before.kinds[own[role]]).toBe(true);
      // The form's checkboxes as a browser posts them: the checked ones only, the own kind left out.
      const fields: [string, string][] = [
        ["intent", "email"],
        ...emailKindsFor(role)
          .filter((k) => k !== own[role])
          .map((k): [string, string] => ["kinds", k]),
        ["locale", "en"],
      ];
      const saved = await call(profileSettingsPage.action, form("/pages/profile-setting", fields, token));
      expect(saved.status).toBe(302);
      expect(saved.headers.get("Location")).toBe("/pages/profile-setting#email");
      expect(await toastOf(saved)).toBe("Preferências de e-mail salvas.");
      const after = (await load()).body.email;
      expect(after.locale).toBe("en");
      expect(after.kinds[own[role]]).toBe(false);
      expect(after.kinds.offer_received).toBe(true);
    }
  });

  it("offers each side only the kinds it can receive", () => {
    expect(emailKindsFor("merchant")).toContain("application_received");
    expect(emailKindsFor("merchant")).not.toContain("invitation_received");
    expect(emailKindsFor("freelancer")).toContain("invitation_received");
    expect(emailKindsFor("freelancer")).not.toContain("application_received");
    // Both sides get what concerns both.
    for (const role of ["merchant", "freelancer"] as const) {
      expect(emailKindsFor(role)).toEqual(expect.arrayContaining(["offer_received", "message_received"]));
    }
  });

  it("answers 422 with the message in the visitor's language for an unknown kind, changing nothing", async () => {
    const { user, token } = await signedInUser();
    const refused = await call(
      profileSettingsPage.action,
      form(
        "/pages/profile-setting",
        [
          ["intent", "email"],
          ["kinds", "spam"],
        ],
        token,
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: "Preferências de e-mail inválidas.", values: { intent: "email" } });
    expect(Object.values((await getEmailSettings(user)).kinds).every(Boolean)).toBe(true);
  });

  it("picking a language while signed in makes it the language of the e-mails", async () => {
    const { user, token } = await signedInUser();
    const answer = await call(
      languageRoute.action,
      form(
        "/language",
        [
          ["lng", "en"],
          ["redirectTo", "/dashboard"],
        ],
        token,
      ),
    );
    expect(answer.status).toBe(302);
    expect((await getEmailSettings(user)).locale).toBe("en");
  });
});

describe("unsubscribe links", () => {
  it("GET asks without changing anything; POST turns the kind off, signed out", async () => {
    const { user } = await signedInUser();
    const token = unsubscribeToken(user.id, "message_received");
    const path = `/unsubscribe/${token}`;
    const asked = await call(unsubscribeRoute.loader, new Request(BASE + path), { token });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ ok: true, kind: "message_received", unsubscribed: false });
    expect(asked.headers.get("Cache-Control")).toBe("no-store");
    expect((await getEmailSettings(user)).kinds.message_received).toBe(true);

    const done = await call(unsubscribeRoute.action, form(path, []), { token });
    expect(done.body).toEqual({ ok: true, kind: "message_received", unsubscribed: true });
    expect((await getEmailSettings(user)).kinds).toMatchObject({ message_received: false, offer_received: true });
  });

  it("takes the one-click POST of a mail program (RFC 8058)", async () => {
    const { user } = await signedInUser();
    const token = unsubscribeToken(user.id, "contract_review_reminder");
    const oneClick = await call(
      unsubscribeRoute.action,
      form(`/unsubscribe/${token}`, [["List-Unsubscribe", "One-Click"]]),
      { token },
    );
    expect(oneClick.status).toBe(200);
    expect((await getEmailSettings(user)).kinds.contract_review_reminder).toBe(false);
  });

  it("answers a tampered token with a 400 page in Portuguese, and changes nothing", async () => {
    const { user } = await signedInUser();
    const token = unsubscribeToken(user.id, "offer_received");
    const tampered = token.replace("offer_received", "message_received");
    for (const handler of [unsubscribeRoute.loader, unsubscribeRoute.action]) {
      const request =
        handler === unsubscribeRoute.loader
          ? new Request(`${BASE}/unsubscribe/${tampered}`)
          : form(`/unsubscribe/${tampered}`, []);
      const refused = await call(handler, request, { token: tampered });
      expect(refused.status).toBe(400);
      expect(refused.body.ok).toBe(false);
      expect(refused.body.message).toMatch(/^Este link para cancelar e-mails é inválido ou foi alterado/);
    }
    expect(await db.selectFrom("email_opt_outs").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
  });
});
