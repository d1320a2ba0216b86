import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import * as numberRoute from "~/routes/api+/_account+/whatsapp._index";
import * as confirmRoute from "~/routes/api+/_account+/whatsapp.confirm";
import * as webhookRoute from "~/routes/api+/whatsapp.webhook";
import * as settingsRoute from "~/routes/api+/_account+/notification-settings";
import * as profileSettingsPage from "~/routes/_account+/pages.profile-setting";
import { toastOf } from "../operator/support";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { APP_SECRET, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN, sign, startWhatsappCloud } from "../support/whatsapp-cloud";

// The WhatsApp API (docs/product.md, section 6, "WhatsApp"): the service's rules
// (tests/messaging/whatsapp.test.ts) with the API's statuses and Portuguese messages, the Cloud
// API's webhook, and nothing of it while WhatsApp is off.

let cloud: Awaited<ReturnType<typeof startWhatsappCloud>>;
const turnOn = () =>
  Object.assign(config, {
    WHATSAPP_API_URL: cloud.origin,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_TOKEN: TOKEN,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  });
const turnOff = () =>
  Object.assign(config, {
    WHATSAPP_PHONE_NUMBER_ID: undefined,
    WHATSAPP_TOKEN: undefined,
    WHATSAPP_APP_SECRET: undefined,
    WHATSAPP_VERIFY_TOKEN: undefined,
  });

beforeAll(async () => {
  cloud = await startWhatsappCloud();
});
afterAll(async () => {
  turnOff();
  await cloud.close();
});
beforeEach(() => {
  turnOn();
  cloud.reset();
});

let n = 0;
const newPhone = () => `+55219${String(20_000_000 + ++n * 104_729 + Math.floor(Math.random() * 1000)).slice(-8)}`;

/** A number confirmed for `userId`, written as the confirmation leaves it. */
const confirmedNumber = (userId: string, phone: string, at = new Date().toISOString()) =>
  db
    .insertInto("whatsapp_numbers")
    .values({
      user_id: userId,
      phone,
      confirmed_at: at,
      created_at: at,
      code_hash: null,
      code_expires_at: null,
      codes_window_at: null,
      opted_out_at: null,
      unusable_at: null,
    })
    .execute();

const webhook = (body: unknown, signature?: string) => {
  const raw = JSON.stringify(body);
  return call(
    webhookRoute.action,
    jsonRequest("/api/whatsapp/webhook", raw, { headers: { "X-Hub-Signature-256": signature ?? sign(raw) } }),
  );
};
const change = (value: unknown) => ({
  object: "whatsapp_business_account",
  entry: [{ id: "1", changes: [{ field: "messages", value }] }],
});

describe("the WhatsApp API", () => {
  it("answers 404 to everything while WhatsApp is off, and the settings say nothing of it", async () => {
    turnOff();
    const { token } = await signedInUser();
    expect((await call(numberRoute.loader, jsonRequest("/api/whatsapp", undefined, { token }))).status).toBe(404);
    expect((await call(numberRoute.loader, jsonRequest("/api/whatsapp"))).status).toBe(404);
    expect(
      (await call(numberRoute.action, jsonRequest("/api/whatsapp", { phone: newPhone() }, { token }))).status,
    ).toBe(404);
    expect(
      (await call(confirmRoute.action, jsonRequest("/api/whatsapp/confirm", { code: "123456" }, { token }))).status,
    ).toBe(404);
    expect((await call(webhookRoute.loader, jsonRequest("/api/whatsapp/webhook?hub.mode=subscribe"))).status).toBe(404);
    expect((await webhook(change({}))).status).toBe(404);
    const settings = await call(settingsRoute.loader, jsonRequest("/api/notification-settings", undefined, { token }));
    expect(settings.body.settings).not.toHaveProperty("whatsapp");
    const refused = await call(
      settingsRoute.action,
      jsonRequest("/api/notification-settings", { whatsapp: { application_received: true } }, { token }),
    );
    expect(refused.status).toBe(422);
    expect(cloud.received).toEqual([]);
  });

  it("adds a number (201), confirms it, turns kinds on in the settings and removes it", async () => {
    const { user, token } = await signedInUser();
    expect((await call(numberRoute.action, jsonRequest("/api/whatsapp", { phone: newPhone() }))).status).toBe(401);
    const bad = await call(numberRoute.action, jsonRequest("/api/whatsapp", { phone: "abc" }, { token }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phone).toBe("Informe o número com o código do país, como +55 11 91234-5678.");

    const phone = newPhone();
    const added = await call(numberRoute.action, jsonRequest("/api/whatsapp", { phone }, { token }));
    expect(added.status).toBe(201);
    expect(added.body.message).toBe("Enviamos um código de 6 dígitos para o seu WhatsApp.");
    expect(added.body.data).toMatchObject({ phone, status: "pending" });
    const wrong = await call(confirmRoute.action, jsonRequest("/api/whatsapp/confirm", { code: "12" }, { token }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toBe("O código tem 6 dígitos.");
    const confirmed = await call(
      confirmRoute.action,
      jsonRequest("/api/whatsapp/confirm", { code: cloud.codeFor(phone) }, { token }),
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.status).toBe("confirmed");
    expect((await call(numberRoute.loader, jsonRequest("/api/whatsapp", undefined, { token }))).body.data.phone).toBe(
      phone,
    );

    const before = await call(settingsRoute.loader, jsonRequest("/api/notification-settings", undefined, { token }));
    expect(before.body.settings.whatsapp.application_received).toBe(false);
    expect(before.body.settings.kinds.application_received).toBe(true);
    const saved = await call(
      settingsRoute.action,
      jsonRequest("/api/notification-settings", { whatsapp: { application_received: true } }, { token }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.settings.whatsapp.application_received).toBe(true);
    const messages = await call(
      settingsRoute.action,
      jsonRequest("/api/notification-settings", { whatsapp: { message_received: true } }, { token }),
    );
    expect(messages.status).toBe(422);

    const removed = await call(
      numberRoute.action,
      jsonRequest("/api/whatsapp", undefined, { token, method: "DELETE" }),
    );
    expect(removed.status).toBe(200);
    const again = await call(numberRoute.action, jsonRequest("/api/whatsapp", undefined, { token, method: "DELETE" }));
    expect(again.status).toBe(404);
    expect(await db.selectFrom("whatsapp_numbers").where("user_id", "=", user.id).selectAll().execute()).toEqual([]);
  });
});

describe("the Cloud API's webhook", () => {
  it("answers the handshake with the right token alone", async () => {
    const ok = await call(
      webhookRoute.loader,
      jsonRequest(`/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`),
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(1158201444);
    const bad = await call(
      webhookRoute.loader,
      jsonRequest("/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1"),
    );
    expect(bad.status).toBe(403);
  });

  it("refuses a bad signature (401) and reads nothing of it", async () => {
    const { user } = await signedInUser();
    const phone = newPhone();
    await confirmedNumber(user.id, phone);
    const stop = change({ messages: [{ from: phone.slice(1), type: "text", text: { body: "STOP" } }] });
    expect((await webhook(stop, sign(JSON.stringify(stop), "another secret"))).status).toBe(401);
    expect((await webhook(stop, "sha256=")).status).toBe(401);
    const number = await db
      .selectFrom("whatsapp_numbers")
      .select("opted_out_at")
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    expect(number!.opted_out_at).toBeNull();
  });

  it("records statuses forward only, and a STOP (any case, trimmed) opts the number out", async () => {
    const { user } = await signedInUser();
    const phone = newPhone();
    const at = new Date().toISOString();
    await confirmedNumber(user.id, phone, at);
    await db
      .insertInto("whatsapp_sends")
      .values({
        id: "wamid.test1",
        outbox_id: "x",
        user_id: user.id,
        status: "accepted",
        created_at: at,
        updated_at: at,
      })
      .execute();
    const statuses = (s: string) =>
      change({ statuses: [{ id: "wamid.test1", status: s, recipient_id: phone.slice(1) }] });
    expect((await webhook(statuses("delivered"))).body).toMatchObject({ received: true, statuses: 1 });
    expect((await webhook(statuses("sent"))).body).toMatchObject({ statuses: 0 });
    await webhook(statuses("read"));
    expect(
      await db.selectFrom("whatsapp_sends").select("status").where("id", "=", "wamid.test1").executeTakeFirst(),
    ).toEqual({
      status: "read",
    });

    expect(
      (await webhook(change({ messages: [{ from: phone.slice(1), type: "text", text: { body: "olá" } }] }))).body,
    ).toMatchObject({ stops: 0 });
    const stopped = await webhook(
      change({ messages: [{ from: phone.slice(1), type: "text", text: { body: "  parar " } }] }),
    );
    expect(stopped.body).toMatchObject({ stops: 1 });
    const number = await db
      .selectFrom("whatsapp_numbers")
      .select("opted_out_at")
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    expect(number!.opted_out_at).not.toBeNull();
  });
});

describe("the WhatsApp card of the settings page, without JavaScript", () => {
  const PAGE = "/pages/profile-setting";
  const post = (fields: [string, string][], token: string) =>
    call(
      profileSettingsPage.action,
      new Request(BASE + PAGE, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Bearer ${token}` },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  const load = (token: string) => call(profileSettingsPage.loader, jsonRequest(PAGE, undefined, { token }));

  it("adds a number, keeps what was typed on a refusal, confirms it, turns kinds on in the table and removes it", async () => {
    const { token } = await signedInUser({ account_type: "freelancer" });
    expect((await load(token)).body.whatsapp).toEqual({ number: null });
    // A bad number: 422 naming the field, the text typed kept for the form.
    const refused = await post(
      [
        ["intent", "whatsapp_add"],
        ["phone", "+55 00 1234"],
      ],
      token,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.phone).toBeTruthy();
    expect(refused.body.values).toMatchObject({ intent: "whatsapp_add", phone: "+55 00 1234" });
    const phone = newPhone();
    const added = await post(
      [
        ["intent", "whatsapp_add"],
        ["phone", phone],
      ],
      token,
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`${PAGE}#whatsapp`);
    expect(await toastOf(added)).toBe("Enviamos um código de 6 dígitos para o seu WhatsApp.");
    expect((await load(token)).body.whatsapp.number).toMatchObject({ phone, status: "pending" });
    const code = cloud.codeFor(phone)!;
    const wrong = await post(
      [
        ["intent", "whatsapp_confirm"],
        ["code", code === "000000" ? "111111" : "000000"],
      ],
      token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.values.intent).toBe("whatsapp_confirm");
    const confirmed = await post(
      [
        ["intent", "whatsapp_confirm"],
        ["code", code],
      ],
      token,
    );
    expect(confirmed.status).toBe(302);
    const page = (await load(token)).body;
    expect(page.whatsapp.number.status).toBe("confirmed");
    expect(page.email.whatsapp.offer_received).toBe(false);
    // The table's WhatsApp column: the box ticked turns its kind on, the others stay off.
    const saved = await post(
      [
        ["intent", "email"],
        ["kinds", "offer_received"],
        ["push_shown", "1"],
        ["whatsapp_shown", "1"],
        ["whatsapp", "offer_received"],
      ],
      token,
    );
    expect(saved.status).toBe(302);
    const after = (await load(token)).body.email.whatsapp;
    expect(after.offer_received).toBe(true);
    expect(after.contract_changes_requested).toBe(false);
    // A form without the column leaves the WhatsApp kinds as they are.
    await post(
      [
        ["intent", "email"],
        ["kinds", "offer_received"],
      ],
      token,
    );
    expect((await load(token)).body.email.whatsapp.offer_received).toBe(true);
    const removed = await post([["intent", "whatsapp_remove"]], token);
    expect(removed.status).toBe(302);
    expect(await toastOf(removed)).toBe("Número de WhatsApp removido.");
    expect((await load(token)).body.whatsapp).toEqual({ number: null });
  });

  it("shows nothing of WhatsApp while it is off", async () => {
    turnOff();
    const { token } = await signedInUser();
    expect((await load(token)).body.whatsapp).toBeNull();
  });
});
