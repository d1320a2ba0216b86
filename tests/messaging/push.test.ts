import { createECDH, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { Database } from "../../db/schema";
import { approveContract, deliverContract } from "~/services/contracts/contracts.server";
import { acceptOffer, applyToOpportunity, getApplication } from "~/services/marketplace/applications.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { writeReview } from "~/services/reputation/reviews.server";
import { queueEmails, updateEmailSettings } from "~/services/messaging/email.server";
import {
  MAX_SUBSCRIPTIONS,
  PUSH_TTL_SECONDS,
  listSubscriptions,
  removeSubscription,
  subscribe,
  vapidKeys,
} from "~/services/messaging/push.server";
import { BACKOFF_BASE_MS, drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import { createOpportunity } from "../../db/factories";
import { freelancer, merchant, negotiation, validApplication } from "../support/market";
import { usePushService, type PushService } from "../support/push-service";
import { statementsOf } from "../support/statements";

// Web Push (docs/product.md, section 6): the devices' rules, and pushes delivered through a push
// service of our own (tests/support/push-service.ts) that checks the VAPID signature and decrypts
// each push as a browser would.

let service: PushService;
const mails: Mail[] = [];
usePushService((started) => (service = started));
beforeEach(async () => {
  await db.deleteFrom("outbox").execute();
  service.reset();
  mails.length = 0;
});

const drain = (at = new Date()) => drainOutbox({ at, send: async (mail) => void mails.push(mail) });
const subscribeDevice = async (user: { id: string }) => {
  const device = service.device();
  const json = await subscribe(user, { endpoint: device.endpoint, keys: device.keys }, "Mozilla/5.0 (X11) Chrome/131");
  return { device, json };
};
const rowsOf = (userId: string) =>
  db.selectFrom("outbox").select(["channel", "status", "next_attempt_at"]).where("user_id", "=", userId).execute();

/** A freelancer applies to `owner`'s new opportunity: `owner` is notified (application_received). */
async function applicationTo(owner: { id: string }, title = "Loja virtual para confeitaria") {
  const opportunity = await createOpportunity(db, { merchant_id: owner.id, title });
  const application = await applyToOpportunity(await freelancer(), opportunity.uuid, validApplication);
  return { opportunity, application };
}

const point = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString("base64url");
};
const keys = { p256dh: point(), auth: randomBytes(16).toString("base64url") };

describe("subscribing a device", () => {
  it("keeps the device once, updates it when it subscribes again, lists it by its service and removes it", async () => {
    const user = await merchant();
    const { device, json } = await subscribeDevice(user);
    expect(json).toMatchObject({ service: new URL(service.origin).host, user_agent: "Mozilla/5.0 (X11) Chrome/131" });
    const again = await subscribe(user, { endpoint: device.endpoint, keys: { ...device.keys, auth: keys.auth } });
    expect(again.id).toBe(json.id);
    const stored = await db.selectFrom("push_subscriptions").selectAll().where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.auth).toBe(keys.auth);

    // The push services browsers use are accepted as they are.
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://wns2-bl2p.notify.windows.com/w/?token=BQYAAA",
      "https://web.push.apple.com/QGx0",
    ]) {
      await subscribe(user, { endpoint, keys });
    }
    const list = await listSubscriptions(user);
    expect(list.map((s) => s.service).sort()).toEqual(
      [
        new URL(service.origin).host,
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "wns2-bl2p.notify.windows.com",
        "web.push.apple.com",
      ].sort(),
    );
    expect(JSON.stringify(list)).not.toContain("abc:def");

    const other = await merchant();
    await expect(removeSubscription(other, json.id)).rejects.toMatchObject({ status: 404 });
    await removeSubscription(user, json.id);
    expect(await listSubscriptions(user)).toHaveLength(4);
    await expect(removeSubscription(user, json.id)).rejects.toMatchObject({ status: 404 });
  });

  it.each([
    ["a host that is no push service", "https://push.example.com/abc", "endpoint"],
    ["a look-alike of a push service", "https://fcm.googleapis.com.example.com/abc", "endpoint"],
    ["an IPv4 literal", "https://142.250.78.10/fcm/send/abc", "endpoint"],
    ["an IPv6 literal", "https://[2800:3f0:4001::200a]/abc", "endpoint"],
    ["a private-network name", "https://push.localhost/abc", "endpoint"],
    ["plain http", "http://fcm.googleapis.com/fcm/send/abc", "endpoint"],
    ["another port", "https://fcm.googleapis.com:8443/fcm/send/abc", "endpoint"],
    ["a user in the address", "https://user:secret@fcm.googleapis.com/fcm/send/abc", "endpoint"],
    ["no URL at all", "não é um endereço", "endpoint"],
  ])("refuses %s (422 naming the endpoint)", async (_what, endpoint, field) => {
    const user = await merchant();
    await expect(subscribe(user, { endpoint, keys })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { [field]: "push_endpoint_invalid" },
    });
  });

  it("refuses keys that are not a P-256 point and a 16-byte secret, naming each field", async () => {
    const user = await merchant();
    const endpoint = "https://fcm.googleapis.com/fcm/send/keys";
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url");
    const compressed = createECDH("prime256v1");
    compressed.generateKeys();
    for (const [bad, fields] of [
      [{ p256dh: notOnCurve, auth: keys.auth }, { p256dh: "push_p256dh_invalid" }],
      [
        { p256dh: compressed.getPublicKey("base64url", "compressed"), auth: keys.auth },
        { p256dh: "push_p256dh_invalid" },
      ],
      [{ p256dh: keys.p256dh, auth: randomBytes(15).toString("base64url") }, { auth: "push_auth_invalid" }],
      [
        { p256dh: "***", auth: 16 },
        { p256dh: "push_p256dh_invalid", auth: "push_auth_invalid" },
      ],
    ] as const) {
      const error = await subscribe(user, { endpoint, keys: bad }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 422 });
      expect((error as { fieldErrors: unknown }).fieldErrors).toEqual(fields);
    }
    expect(await listSubscriptions(user)).toHaveLength(0);
  });

  it(`refuses an 11th device (409) and another account's endpoint (409)`, async () => {
    const user = await merchant();
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await subscribeDevice(user);
    await expect(subscribeDevice(user)).rejects.toMatchObject({ status: 409, key: "push_subscriptions_limit" });

    const first = await merchant();
    const { device } = await subscribeDevice(first);
    const second = await merchant();
    await expect(subscribe(second, { endpoint: device.endpoint, keys: device.keys })).rejects.toMatchObject({
      status: 409,
      key: "push_endpoint_taken",
    });
    expect(await listSubscriptions(second)).toHaveLength(0);
  });

  it("answers the same VAPID key pair whoever asks first", async () => {
    const [a, b] = await Promise.all([vapidKeys(), vapidKeys()]);
    expect(a).toEqual(b);
    const stored = await db.selectFrom("vapid_keys").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.public_key).toBe(a.publicKey);
    expect(Buffer.from(a.publicKey, "base64url")).toHaveLength(65);
  });
});

describe("pushes through the push service", () => {
  it("deliver a notification once to each device, encrypted and signed, beside its one e-mail", async () => {
    const owner = await merchant();
    const phone = await subscribeDevice(owner);
    const laptop = await subscribeDevice(owner);
    const { application } = await applicationTo(owner);
    expect((await rowsOf(owner.id)).map((r) => r.channel).sort()).toEqual(["email", "push"]);

    expect(await drain()).toEqual({ sent: 2, skipped: 0, retried: 0, failed: 0 });
    expect(service.rejected).toEqual([]);
    expect(mails.filter((m) => m.to === owner.email)).toHaveLength(1);
    expect(service.received.map((p) => p.endpoint).sort()).toEqual(
      [phone.device.endpoint, laptop.device.endpoint].sort(),
    );
    const { publicKey } = await vapidKeys();
    for (const push of service.received) {
      expect(push.ttl).toBe(PUSH_TTL_SECONDS);
      expect(push.urgency).toBe("normal");
      expect(push.vapid).toMatchObject({ aud: service.origin, key: publicKey });
      expect(push.vapid.sub).toMatch(/^(mailto:|https:)/);
      expect(push.payload).toEqual({
        title: "Freela",
        body: "João Freelancer se candidatou a “Loja virtual para confeitaria”",
        url: `/applications/${application.id}`,
      });
    }
    const devices = await db
      .selectFrom("push_subscriptions")
      .select("last_sent_at")
      .where("user_id", "=", owner.id)
      .execute();
    expect(devices.every((d) => d.last_sent_at !== null)).toBe(true);
    // Nothing more to send.
    expect(await drain()).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 0 });
    expect(service.received).toHaveLength(2);
  });

  it("keep the line short, in the recipient's language", async () => {
    const owner = await merchant();
    await db.updateTable("users").set({ locale: "en" }).where("id", "=", owner.id).execute();
    await subscribeDevice(owner);
    await applicationTo(owner, "Site ".repeat(40).trim());
    await drain();
    const payload = service.received[0]!.payload as { title: string; body: string };
    expect(payload.body.length).toBeLessThanOrEqual(120);
    expect(payload.body).toMatch(/^João Freelancer applied to/);
    expect(payload.body.endsWith("…")).toBe(true);
  });

  it("respect the push opt-out, queued before or after, and leave the e-mail alone", async () => {
    const owner = await merchant();
    await subscribeDevice(owner);
    await updateEmailSettings(owner, { push: { application_received: false } });
    await applicationTo(owner);
    expect((await rowsOf(owner.id)).map((r) => r.channel)).toEqual(["email"]);

    await updateEmailSettings(owner, { push: { application_received: true } });
    await applicationTo(owner);
    await updateEmailSettings(owner, { push: { application_received: false } });
    const result = await drain();
    expect(result).toMatchObject({ sent: 2, skipped: 1 });
    expect(service.received).toHaveLength(0);
    expect(mails.filter((m) => m.to === owner.email)).toHaveLength(2);
  });

  it("push nothing of what the moderation hid meanwhile", async () => {
    const owner = await merchant();
    await subscribeDevice(owner);
    const { opportunity } = await applicationTo(owner);
    await db
      .updateTable("opportunities")
      .set({ hidden_at: new Date().toISOString(), hidden_reason: "Conteúdo proibido" })
      .where("id", "=", opportunity.id)
      .execute();
    expect(await drain()).toMatchObject({ skipped: 1 });
    expect(service.received).toHaveLength(0);
  });

  it("forget a device the push service says is gone (410)", async () => {
    const owner = await merchant();
    const gone = await subscribeDevice(owner);
    const kept = await subscribeDevice(owner);
    service.gone(gone.device.endpoint);
    await applicationTo(owner);
    expect(await drain()).toMatchObject({ sent: 2, retried: 0 });
    expect(service.received.map((p) => p.endpoint)).toEqual([kept.device.endpoint]);
    expect((await listSubscriptions(owner)).map((s) => s.id)).toEqual([kept.json.id]);
  });

  it("try a failed push again with backoff, only to the devices it missed, never resending the e-mail", async () => {
    const owner = await merchant();
    await subscribeDevice(owner);
    await subscribeDevice(owner);
    await applicationTo(owner);
    service.fail(1);
    const at = new Date();
    expect(await drain(at)).toEqual({ sent: 1, skipped: 0, retried: 1, failed: 0 });
    expect(service.received).toHaveLength(1);
    const push = (await rowsOf(owner.id)).find((r) => r.channel === "push")!;
    expect(push).toMatchObject({
      status: "pending",
      next_attempt_at: new Date(at.getTime() + BACKOFF_BASE_MS).toISOString(),
    });
    // Not due yet.
    expect(await drain(new Date(at.getTime() + BACKOFF_BASE_MS - 1000))).toMatchObject({ sent: 0, retried: 0 });
    expect(await drain(new Date(at.getTime() + BACKOFF_BASE_MS))).toEqual({
      sent: 1,
      skipped: 0,
      retried: 0,
      failed: 0,
    });
    // Each device got it once, and the e-mail went once.
    expect(new Set(service.received.map((p) => p.endpoint)).size).toBe(2);
    expect(service.received).toHaveLength(2);
    expect(mails.filter((m) => m.to === owner.email)).toHaveLength(1);
  });

  it("go out once when two drains run at once", async () => {
    const owner = await merchant();
    await subscribeDevice(owner);
    await applicationTo(owner);
    await applicationTo(owner);
    const results = await Promise.all([drain(), drain()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(4);
    expect(service.received).toHaveLength(2);
    expect(mails.filter((m) => m.to === owner.email)).toHaveLength(2);
  });

  it("are queued in queueEmails' same two statements, whatever the devices and opt-outs", async () => {
    const users = await Promise.all([merchant(), merchant(), merchant()]);
    await subscribeDevice(users[0]!);
    await subscribeDevice(users[1]!);
    await updateEmailSettings(users[1]!, { push: { application_received: false } });
    await updateEmailSettings(users[2]!, { kinds: { application_received: false } });
    const list = users.map((u) => ({
      user_id: u.id,
      kind: "application_received" as const,
      application_id: null,
      opportunity_id: null,
    }));
    expect(await statementsOf(() => queueEmails(db as Kysely<Database>, list))).toBe(2);
    const rows = await db.selectFrom("outbox").select(["user_id", "channel"]).execute();
    const of = (i: number) =>
      rows
        .filter((r) => r.user_id === users[i]!.id)
        .map((r) => r.channel)
        .sort();
    expect(of(0)).toEqual(["email", "push"]);
    expect(of(1)).toEqual(["email"]);
    expect(of(2)).toEqual([]);
  });

  it("end with the account: its devices go with it", async () => {
    const owner = await merchant();
    await subscribeDevice(owner);
    await db.deleteFrom("users").where("id", "=", owner.id).execute();
    expect(await db.selectFrom("push_subscriptions").where("user_id", "=", owner.id).selectAll().execute()).toEqual([]);
  });
});

describe("new messages by push", () => {
  const pushRows = (userId: string) =>
    db
      .selectFrom("outbox")
      .select(["status", "items"])
      .where("user_id", "=", userId)
      .where("kind", "=", "message_received")
      .where("channel", "=", "push")
      .execute();

  it("go once per conversation while one waits, telling how many are unread, never their text", async () => {
    const { owner, applicant, application, opportunity } = await negotiation("pending");
    await subscribeDevice(owner);
    await sendMessage(applicant, application.id, { body: "Olá! Posso começar amanhã." });
    await sendMessage(applicant, application.id, { body: "Meu orçamento inclui o logotipo." });
    expect(await pushRows(owner.id)).toEqual([{ status: "pending", items: 1 }]);

    await drain(new Date(Date.now() + 60_000));
    const name = applicant.display_name ?? applicant.full_name;
    expect(service.received.map((p) => p.payload)).toEqual([
      {
        title: "Freela",
        body: `${name} enviou 2 mensagens sobre “${opportunity.title}”`,
        url: `/applications/${application.id}/messages`,
      },
    ]);
    // The e-mail of the conversation is its own row, gathered as before.
    const emails = await db
      .selectFrom("outbox")
      .select("items")
      .where("user_id", "=", owner.id)
      .where("kind", "=", "message_received")
      .where("channel", "=", "email")
      .execute();
    expect(emails).toEqual([{ items: 2 }]);

    // Once it went, the next message makes a new push.
    await sendMessage(applicant, application.id, { body: "Mais uma coisa." });
    expect((await pushRows(owner.id)).map((r) => r.status).sort()).toEqual(["pending", "sent"]);
  });

  it("go nowhere once read, opted out, or when the sender's profile was hidden", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await subscribeDevice(owner);
    await sendMessage(applicant, application.id, { body: "Olá!" });
    await listMessages(owner, application.id);
    // Read: neither the e-mail nor the push goes.
    expect(await drain()).toMatchObject({ sent: 0, skipped: 2 });
    expect(service.received).toHaveLength(0);

    await sendMessage(applicant, application.id, { body: "Tudo certo?" });
    await db
      .updateTable("users")
      .set({ profile_hidden_at: new Date().toISOString(), profile_hidden_reason: "Perfil falso" })
      .where("id", "=", applicant.id)
      .execute();
    // The e-mail goes; the push, which would carry the hidden profile's name to a lock screen, not.
    expect(await drain()).toMatchObject({ sent: 1, skipped: 1 });
    expect(service.received).toHaveLength(0);

    await updateEmailSettings(owner, { push: { message_received: false } });
    await sendMessage(applicant, application.id, { body: "Alô?" });
    expect(await pushRows(owner.id)).toEqual([
      { status: "skipped", items: 1 },
      { status: "skipped", items: 1 },
    ]);
  });

  it("are not queued without a device", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá!" });
    expect(await pushRows(owner.id)).toEqual([]);
  });
});

describe("hidden reviews", () => {
  it("are not pushed", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
    await acceptOffer(owner, application.id, { offer_id: offer.id });
    await deliverContract(applicant, application.id, { message: "Segue o trabalho pronto, com os arquivos-fonte." });
    await approveContract(owner, application.id);
    await subscribeDevice(applicant);
    await db.deleteFrom("outbox").execute();
    await writeReview(owner, application.id, { rating: 2, comment: "Atrasou a entrega." });
    await db
      .updateTable("reviews")
      .set({ hidden_at: new Date().toISOString(), hidden_reason: "Ofensa" })
      .where("contract_id", "=", application.id)
      .execute();
    expect(await drain()).toMatchObject({ sent: 1, skipped: 1 });
    expect(service.received).toHaveLength(0);
    expect(mails.filter((m) => m.to === applicant.email)).toHaveLength(1);
  });
});
