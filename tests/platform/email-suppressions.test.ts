import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import * as webhookRoute from "~/routes/api+/webhooks+/email.$provider";
import * as listApi from "~/routes/api+/admin+/email-suppressions._index";
import * as liftApi from "~/routes/api+/admin+/email-suppressions.lift";
import * as page from "~/routes/admin+/emails";
import * as root from "~/root";
import { requestPasswordReset } from "~/services/accounts/accounts.server";
import { requestEmailChange, verifyEmail } from "~/services/accounts/verification.server";
import { pruneEmailWebhookReceipts } from "~/services/platform/email-suppressions.server";
import { metrics } from "~/services/platform/metrics.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { BASE, call, mailsTo, signedInUser } from "../support/helpers";
import { auditRows, get, post, postForm, signedInOperator } from "../operator/support";

// E-mail that stays deliverable (docs/operations.md, "E-mails devolvidos"), on both engines: the
// provider's signed bounces and complaints suppress an address, the outbox sends it nothing more,
// its account sees the banner until the address changes, and the operator lifts it (audited).

const MAILGUN_KEY = "mailgun-signing-key-0123456789";
const GENERIC_SECRET = "generic-email-secret-0123456789";
const saved = { ...config };

beforeAll(() => {
  Object.assign(config, { MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, EMAIL_WEBHOOK_SECRET: GENERIC_SECRET });
});
afterAll(() => {
  Object.assign(config, saved);
});

let n = 0;
const nextEmail = (what: string) => `${what}${++n}.${Date.now()}@example.com`;
const seconds = () => String(Math.floor(Date.now() / 1000));

/** A Mailgun webhook body as Mailgun signs it: HMAC-SHA256(signing key, timestamp + token). */
function mailgunBody(
  event: Record<string, unknown>,
  { key = MAILGUN_KEY, timestamp = seconds(), token = `tok${++n}${Date.now()}0123456789` } = {},
) {
  const signature = createHmac("sha256", key)
    .update(timestamp + token)
    .digest("hex");
  return JSON.stringify({ signature: { timestamp, token, signature }, "event-data": { id: `ev${n}`, ...event } });
}

const hardBounce = (recipient: string) => ({
  event: "failed",
  severity: "permanent",
  recipient,
  "delivery-status": { code: 550, description: "5.1.1 The email account that you tried to reach does not exist" },
});

function deliver(provider: string, body: string, headers: Record<string, string> = {}) {
  return call(
    webhookRoute.action,
    new Request(`${BASE}/api/webhooks/email/${provider}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    }),
    { provider },
  );
}

/** The generic webhook: X-Freela-Signature sha256=HMAC(secret, "<timestamp>.<body>"). */
function genericHeaders(body: string, { secret = GENERIC_SECRET, timestamp = seconds() } = {}) {
  const hex = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "X-Freela-Timestamp": timestamp, "X-Freela-Signature": `sha256=${hex}` };
}

const suppressed = (email: string) =>
  db.selectFrom("email_suppressions").selectAll().where("email", "=", email).executeTakeFirst();
const flag = async (id: string) =>
  (await db.selectFrom("users").select("email_undeliverable_at").where("id", "=", id).executeTakeFirstOrThrow())
    .email_undeliverable_at;
const emailMetric = async (outcome: string) =>
  (await metrics.emails.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

describe("the provider's bounce and complaint notifications", () => {
  it("a permanent Mailgun failure suppresses the address: the outbox sends it nothing, counted as suppressed", async () => {
    const user = await createUser(db, { email: nextEmail("devolvido") });
    const answer = await deliver("mailgun", mailgunBody(hardBounce(user.email.toUpperCase())));
    expect(answer).toMatchObject({ status: 200, body: { received: true, outcome: "suppressed" } });
    expect(await suppressed(user.email)).toMatchObject({ reason: "bounce", source: "mailgun" });
    expect((await suppressed(user.email))!.detail).toMatch(/^550 5\.1\.1/);
    expect(await flag(user.id)).not.toBeNull();

    const before = await emailMetric("suppressed");
    await requestPasswordReset(user.email);
    expect(await mailsTo(user.email)).toEqual([]);
    const row = await db
      .selectFrom("outbox")
      .select(["status", "last_error"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "skipped", last_error: "suppressed" });
    expect(await emailMetric("suppressed")).toBe(before + 1);
  });

  it("a complaint suppresses; a temporary failure or a delivery is taken and ignored", async () => {
    const complained = nextEmail("spam");
    expect((await deliver("mailgun", mailgunBody({ event: "complained", recipient: complained }))).body.outcome).toBe(
      "suppressed",
    );
    expect(await suppressed(complained)).toMatchObject({ reason: "complaint" });

    const full = nextEmail("cheia");
    const temporary = { event: "failed", severity: "temporary", recipient: full };
    expect((await deliver("mailgun", mailgunBody(temporary))).body.outcome).toBe("ignored");
    expect((await deliver("mailgun", mailgunBody({ event: "delivered", recipient: full }))).body.outcome).toBe(
      "ignored",
    );
    expect(await suppressed(full)).toBeUndefined();
  });

  it("refuses a wrong signature or key (401), an old timestamp (401), a malformed body (400); a replay changes nothing", async () => {
    const email = nextEmail("forjado");
    const wrongKey = await deliver("mailgun", mailgunBody(hardBounce(email), { key: "another-key-0123456789" }));
    expect(wrongKey).toMatchObject({ status: 401, body: { message: "Assinatura da notificação inválida." } });
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    const stale = await deliver("mailgun", mailgunBody(hardBounce(email), { timestamp: old }));
    expect(stale.status).toBe(401);
    expect(stale.body.message).toMatch(/antiga|expir|atrasad/i);
    for (const body of ["", "{", "[]", JSON.stringify({ signature: {}, "event-data": {} }), "x".repeat(70_000)]) {
      const answer = await deliver("mailgun", body);
      expect([400, 413], body.slice(0, 20)).toContain(answer.status);
    }
    expect(await suppressed(email)).toBeUndefined();

    // The same notification twice (Mailgun retries; or an attacker replays it after a lift).
    const body = mailgunBody(hardBounce(email));
    expect((await deliver("mailgun", body)).body.outcome).toBe("suppressed");
    await db.deleteFrom("email_suppressions").where("email", "=", email).execute();
    expect((await deliver("mailgun", body)).body.outcome).toBe("duplicate");
    expect(await suppressed(email)).toBeUndefined();
    // Ids are forgotten after a few days (the signature's window is 5 minutes).
    const count = async () => (await db.selectFrom("email_webhook_receipts").select("id").execute()).length;
    const kept = await count();
    await pruneEmailWebhookReceipts(new Date(Date.now() + 4 * 86_400_000));
    expect(await count()).toBeLessThan(kept);
  });

  it("the same notification delivered twice at once is taken once", async () => {
    const email = nextEmail("duas-vezes");
    const body = mailgunBody(hardBounce(email));
    const answers = await Promise.all([deliver("mailgun", body), deliver("mailgun", body)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(["duplicate", "suppressed"]);
  });

  it("the generic webhook: signed body, bounce or complaint; 404 for an unknown provider or one without its secret", async () => {
    const email = nextEmail("generico");
    const body = JSON.stringify({ id: `g${Date.now()}`, type: "bounce", email, detail: "550 no such user" });
    expect(await deliver("generic", body, { "X-Freela-Signature": "sha256=00" })).toMatchObject({ status: 401 });
    const unsigned = await deliver("generic", body, genericHeaders(body, { secret: "wrong-secret-0123456789" }));
    expect(unsigned.status).toBe(401);
    expect(await deliver("generic", body, genericHeaders(body))).toMatchObject({
      status: 200,
      body: { outcome: "suppressed" },
    });
    expect(await suppressed(email)).toMatchObject({ reason: "bounce", source: "generic", detail: "550 no such user" });
    const bad = JSON.stringify({ id: "x", type: "explodiu", email });
    expect((await deliver("generic", bad, genericHeaders(bad))).status).toBe(400);

    expect((await deliver("sendgrid", body)).status).toBe(404);
    config.EMAIL_WEBHOOK_SECRET = undefined;
    try {
      expect((await deliver("generic", body, genericHeaders(body))).status).toBe(404);
    } finally {
      config.EMAIL_WEBHOOK_SECRET = GENERIC_SECRET;
    }
  });
});

describe("the account whose address bounced", () => {
  it("sees the banner until it changes to an address that works", async () => {
    const { user, token } = await signedInUser({ email: nextEmail("aviso"), password: "senha-antiga-1" });
    const banner = async () =>
      (await call(root.loader, new Request(`${BASE}/dashboard`, { headers: { Authorization: `Bearer ${token}` } })))
        .body.undeliverableEmail;
    expect(await banner()).toBe(false);
    await deliver("mailgun", mailgunBody(hardBounce(user.email)));
    expect(await banner()).toBe(true);

    // A change to another suppressed address keeps it; to a good one ends it.
    const alsoBad = nextEmail("tambem-ruim");
    await deliver("mailgun", mailgunBody({ event: "complained", recipient: alsoBad }));
    await requestEmailChange(user, { email: alsoBad, password: "senha-antiga-1" });
    // The confirmation link cannot reach a suppressed address: read it from the outbox's own row.
    expect(await mailsTo(alsoBad)).toEqual([]);
    const good = nextEmail("bom");
    const changed = await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    await requestEmailChange(changed, { email: good, password: "senha-antiga-1" });
    const [mail] = await mailsTo(good);
    await verifyEmail({ token: decodeURIComponent(mail!.text.match(/verify-email\?token=([\w%-]+)/)![1]) });
    expect(await flag(user.id)).toBeNull();
    expect(await banner()).toBe(false);
  });
});

describe("the operator's list", () => {
  it("lists and lifts an address (audited); a second lift at once finds nothing (404); members get 404", async () => {
    const { user: operator, token } = await signedInOperator();
    const owner = await createUser(db, { email: nextEmail("liberar") });
    await deliver("mailgun", mailgunBody(hardBounce(owner.email)));

    const list = await get(listApi, `/api/admin/email-suppressions?q=${owner.email}`, token);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ email: owner.email, reason: "bounce" })]);
    const pageData = await get(page, `/admin/emails?q=${owner.email}`, token);
    expect(pageData.body.suppressions).toHaveLength(1);

    const lifts = await Promise.all([
      post(liftApi, "/api/admin/email-suppressions/lift", token, { email: owner.email }),
      post(liftApi, "/api/admin/email-suppressions/lift", token, { email: ` ${owner.email.toUpperCase()} ` }),
    ]);
    expect(lifts.map((l) => l.status).sort()).toEqual([200, 404]);
    expect(await suppressed(owner.email)).toBeUndefined();
    expect(await flag(owner.id)).toBeNull();
    const audit = (await auditRows()).filter((r) => r.target_id === owner.email);
    expect(audit).toEqual([expect.objectContaining({ action: "email.unsuppress", actor_id: operator.id })]);
    expect(await mailsTo(owner.email)).toEqual([]);
    await requestPasswordReset(owner.email);
    expect(await mailsTo(owner.email)).toHaveLength(1);

    // The page's form, without JavaScript: a lift of an address no longer listed is refused, not a 500.
    const again = await postForm(page, "/admin/emails", token, { intent: "lift", email: owner.email });
    expect(again.status).toBe(404);
    for (const body of [{}, { email: 42 }, { email: "x".repeat(300) }]) {
      expect((await post(liftApi, "/api/admin/email-suppressions/lift", token, body)).status).toBe(404);
    }

    const member = await signedInUser();
    expect((await get(listApi, "/api/admin/email-suppressions", member.token)).status).toBe(404);
    expect((await post(liftApi, "/api/admin/email-suppressions/lift", member.token, { email: "a@b.co" })).status).toBe(
      404,
    );
  });
});
