import { describe, expect, it } from "vitest";
import { EMAIL_KINDS, emailKindsFor } from "~/lib/email-kinds";
import * as keyRoute from "~/routes/api+/push.key";
import * as listRoute from "~/routes/api+/_account+/push-subscriptions._index";
import * as oneRoute from "~/routes/api+/_account+/push-subscriptions.$id";
import * as settingsRoute from "~/routes/api+/_account+/notification-settings";
import * as profileSettingsPage from "~/routes/_account+/pages.profile-setting";
import { getEmailSettings } from "~/services/messaging/email.server";
import { listSubscriptions, vapidKeys } from "~/services/messaging/push.server";
import { toastOf } from "../operator/support";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { usePushService, type PushService } from "../support/push-service";

// The push API (docs/product.md, section 6): the service's rules (tests/messaging/push.test.ts)
// with the API's statuses and Portuguese messages, and the settings form's push column.

const PATH = "/api/push-subscriptions";
let service: PushService;
usePushService((started) => (service = started));

const asJson = (d: ReturnType<typeof service.device>) => ({ endpoint: d.endpoint, keys: d.keys });

describe("the push API", () => {
  it("gives the public VAPID key to anyone, and answers 401 signed out for the devices", async () => {
    const key = await call(keyRoute.loader, jsonRequest("/api/push/key"));
    expect(key.status).toBe(200);
    expect(key.body.key).toBe((await vapidKeys()).publicKey);
    const id = "00000000-0000-4000-8000-000000000000";
    expect((await call(listRoute.loader, jsonRequest(PATH))).status).toBe(401);
    expect((await call(listRoute.action, jsonRequest(PATH, asJson(service.device())))).status).toBe(401);
    const signedOut = await call(oneRoute.action, jsonRequest(`${PATH}/${id}`, undefined, { method: "DELETE" }), {
      id,
    });
    expect(signedOut.status).toBe(401);
  });

  it("subscribes a device (201), lists it, removes it (404 once gone or another's)", async () => {
    const { user, token } = await signedInUser();
    const device = service.device();
    const created = await call(
      listRoute.action,
      jsonRequest(PATH, asJson(device), { token, headers: { "User-Agent": "Mozilla/5.0 ".repeat(40) } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Este aparelho vai receber as notificações.");
    expect(created.body.data).toMatchObject({ service: new URL(service.origin).host, last_sent_at: null });
    expect(created.body.data.user_agent).toHaveLength(200);
    expect(JSON.stringify(created.body)).not.toContain(device.endpoint);

    const list = await call(listRoute.loader, jsonRequest(PATH, undefined, { token }));
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([created.body.data.id]);

    const other = await signedInUser();
    const id = created.body.data.id as string;
    const del = (t: string) =>
      call(oneRoute.action, jsonRequest(`${PATH}/${id}`, undefined, { token: t, method: "DELETE" }), { id });
    const foreign = await del(other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Aparelho não encontrado.");
    const removed = await del(token);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe("Aparelho removido: ele não recebe mais notificações.");
    expect(await listSubscriptions(user)).toEqual([]);
    expect((await del(token)).status).toBe(404);
  });

  it("refuses bad devices with 422 naming each field in Portuguese, and another account's with 409", async () => {
    const { token } = await signedInUser();
    const bad = await call(
      listRoute.action,
      jsonRequest(PATH, { endpoint: "http://10.0.0.1/x", keys: { p256dh: "abc", auth: "" } }, { token }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Confira os dados da inscrição para notificações.");
    expect(bad.body.errors).toEqual({
      endpoint: "O endereço de entrega (endpoint) precisa ser https, na porta 443, de um serviço de push conhecido.",
      p256dh: "A chave p256dh precisa ser um ponto P-256 não comprimido (65 bytes em base64url).",
      auth: "O segredo auth precisa ter 16 bytes em base64url.",
    });
    const device = service.device();
    expect((await call(listRoute.action, jsonRequest(PATH, asJson(device), { token }))).status).toBe(201);
    const other = await signedInUser();
    const taken = await call(listRoute.action, jsonRequest(PATH, asJson(device), { token: other.token }));
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("Este aparelho já recebe as notificações de outra conta. Remova-o nela antes.");
  });

  it("reads and sets push kinds in /api/notification-settings, beside the e-mail ones", async () => {
    const { user, token } = await signedInUser();
    const read = await call(settingsRoute.loader, jsonRequest("/api/notification-settings", undefined, { token }));
    expect(Object.keys(read.body.settings.push).sort()).toEqual([...EMAIL_KINDS].sort());
    expect(Object.values(read.body.settings.push).every((on) => on === true)).toBe(true);
    const saved = await call(
      settingsRoute.action,
      jsonRequest("/api/notification-settings", { push: { offer_received: false } }, { token }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Preferências de e-mail salvas.");
    expect(saved.body.settings.push.offer_received).toBe(false);
    expect(saved.body.settings.kinds.offer_received).toBe(true);
    const bad = await call(
      settingsRoute.action,
      jsonRequest("/api/notification-settings", { push: { spam: true } }, { token }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.push).toMatch(/^Informe os tipos de push/);
    expect((await getEmailSettings(user)).push.offer_received).toBe(false);
  });
});

describe("the push column of the settings form, posted without JavaScript", () => {
  const form = (fields: [string, string][], token: string) =>
    new Request(BASE + "/pages/profile-setting", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Bearer ${token}` },
      body: new URLSearchParams(fields).toString(),
    });

  it("saves the checked push kinds (the others it offers off), and a form without the column leaves them", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const kinds = emailKindsFor("freelancer");
    const saved = await call(
      profileSettingsPage.action,
      form(
        [
          ["intent", "email"],
          ...kinds.map((k): [string, string] => ["kinds", k]),
          ["push_shown", "1"],
          ["push", "offer_received"],
        ],
        token,
      ),
    );
    expect(saved.status).toBe(302);
    expect(await toastOf(saved)).toBe("Preferências de e-mail salvas.");
    let settings = await getEmailSettings(user);
    expect(settings.push.offer_received).toBe(true);
    expect(settings.push.application_accepted).toBe(false);
    expect(settings.kinds.application_accepted).toBe(true);

    await call(
      profileSettingsPage.action,
      form([["intent", "email"], ...kinds.map((k): [string, string] => ["kinds", k])], token),
    );
    settings = await getEmailSettings(user);
    expect(settings.push.application_accepted).toBe(false);
  });

  it("removes a device with its own form", async () => {
    const { user, token } = await signedInUser();
    const device = service.device();
    const created = await call(listRoute.action, jsonRequest(PATH, asJson(device), { token }));
    const removed = await call(
      profileSettingsPage.action,
      form(
        [
          ["intent", "push_remove"],
          ["id", created.body.data.id],
        ],
        token,
      ),
    );
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe("/pages/profile-setting#email");
    expect(await toastOf(removed)).toBe("Aparelho removido: ele não recebe mais notificações.");
    expect(await listSubscriptions(user)).toEqual([]);
  });
});
