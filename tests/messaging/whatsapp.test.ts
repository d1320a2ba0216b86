import type { Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { Database } from "../../db/schema";
import { config } from "~/config.server";
import { applyToOpportunity } from "~/services/marketplace/applications.server";
import { getEmailSettings, queueEmails, updateEmailSettings } from "~/services/messaging/email.server";
import {
  addNumber,
  confirmNumber,
  getNumber,
  normalizePhone,
  removeNumber,
  whatsappToday,
} from "~/services/messaging/whatsapp.server";
import { BACKOFF_BASE_MS, drainOutbox } from "~/services/platform/outbox.server";
import { EXPORT_KINDS, exportSource } from "~/services/accounts/export-kinds.server";
import { createOpportunity, createUser } from "../../db/factories";
import { freelancer, validApplication } from "../support/market";
import { statementsOf } from "../support/statements";
import { PHONE_NUMBER_ID, TOKEN, startWhatsappCloud } from "../support/whatsapp-cloud";

// WhatsApp alerts (docs/product.md, section 6, "WhatsApp"): the numbers' rules, the codes' limits
// under bursts, the kinds (off by default), the alerts delivered through a stand-in of the Cloud
// API (tests/support/whatsapp-cloud.ts) under the daily caps.

let cloud: Awaited<ReturnType<typeof startWhatsappCloud>>;
const saved = { ...config };

beforeAll(async () => {
  cloud = await startWhatsappCloud();
  config.WHATSAPP_API_URL = cloud.origin;
  config.WHATSAPP_PHONE_NUMBER_ID = PHONE_NUMBER_ID;
  config.WHATSAPP_TOKEN = TOKEN;
});
afterAll(async () => {
  Object.assign(config, {
    WHATSAPP_API_URL: saved.WHATSAPP_API_URL,
    WHATSAPP_PHONE_NUMBER_ID: saved.WHATSAPP_PHONE_NUMBER_ID,
    WHATSAPP_TOKEN: saved.WHATSAPP_TOKEN,
    WHATSAPP_DAILY_PER_USER: saved.WHATSAPP_DAILY_PER_USER,
    WHATSAPP_DAILY_TOTAL: saved.WHATSAPP_DAILY_TOTAL,
  });
  await cloud.close();
});
beforeEach(async () => {
  await db.deleteFrom("outbox").execute();
  await db.deleteFrom("whatsapp_daily").execute();
  cloud.reset();
  config.WHATSAPP_DAILY_PER_USER = 10;
  config.WHATSAPP_DAILY_TOTAL = 1000;
});

let phones = 0;
/** A Brazilian mobile number no other test uses. */
const newPhone = () => `+55119${String(10_000_000 + ++phones * 7919 + Math.floor(Math.random() * 1000)).slice(-8)}`;
const drain = (at = new Date()) => drainOutbox({ at, send: async () => {} });

/** An owner with a confirmed number and, unless told otherwise, application_received turned on. */
async function confirmedOwner(locale: string | null = null, on = true) {
  const owner = await createUser(db, { account_type: "merchant", locale });
  const phone = newPhone();
  await addNumber(owner, { phone });
  await confirmNumber(owner, { code: cloud.codeFor(phone)! });
  if (on) await updateEmailSettings(owner, { whatsapp: { application_received: true } });
  return { owner, phone };
}

async function applicationTo(owner: { id: string }, title = "Loja virtual para confeitaria") {
  const opportunity = await createOpportunity(db, { merchant_id: owner.id, title });
  const application = await applyToOpportunity(await freelancer(), opportunity.uuid, validApplication);
  return { opportunity, application };
}

const whatsappRows = (userId: string) =>
  db
    .selectFrom("outbox")
    .select(["status", "last_error", "next_attempt_at"])
    .where("user_id", "=", userId)
    .where("channel", "=", "whatsapp")
    .execute();

describe("numbers", () => {
  it("are written as E.164, a Brazilian number as people type it too", () => {
    expect(normalizePhone("(11) 91234-5678")).toBe("+5511912345678");
    expect(normalizePhone("+55 11 91234 5678")).toBe("+5511912345678");
    expect(normalizePhone("00351 912 345 678")).toBe("+351912345678");
    expect(normalizePhone("+1 (415) 555-0100")).toBe("+14155550100");
    expect(normalizePhone("12345")).toBeNull();
    expect(normalizePhone("+0 11 1234 5678")).toBeNull();
  });

  it.each([
    ["nothing", "", "whatsapp_phone_required"],
    ["letters", "meu número", "whatsapp_phone_invalid"],
    ["too many digits", "+1234567890123456", "whatsapp_phone_invalid"],
    ["a Brazilian area code with a 0", "+55 10 91234-5678", "whatsapp_phone_br_invalid"],
    ["a Brazilian 9-digit number not starting with 9", "+55 11 81234-5678", "whatsapp_phone_br_invalid"],
  ])("refuses %s (422 naming the phone)", async (_what, phone, message) => {
    const user = await createUser(db, { account_type: "merchant" });
    await expect(addNumber(user, { phone })).rejects.toMatchObject({ status: 422, fieldErrors: { phone: message } });
    expect(cloud.received).toHaveLength(0);
  });

  it("are confirmed by the code sent in the user's language; a wrong or expired code is refused", async () => {
    const user = await createUser(db, { account_type: "merchant", locale: "es" });
    const phone = newPhone();
    const added = await addNumber(user, { phone });
    expect(added).toMatchObject({ phone, status: "pending" });
    expect(cloud.received).toEqual([expect.objectContaining({ to: phone, template: "freela_codigo", language: "es" })]);
    const code = cloud.codeFor(phone)!;
    expect(code).toMatch(/^\d{6}$/);
    const stored = await db
      .selectFrom("whatsapp_numbers")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(stored.code_hash).not.toContain(code);
    const wrong = code === "000000" ? "111111" : "000000";
    await expect(confirmNumber(user, { code: wrong })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { code: "whatsapp_code_wrong" },
    });
    await expect(confirmNumber(user, { code: "12ab" })).rejects.toMatchObject({ status: 422 });
    expect(await confirmNumber(user, { code })).toMatchObject({ phone, status: "confirmed" });
    await expect(confirmNumber(user, { code })).rejects.toMatchObject({ status: 409 });

    // An expired code, after a new number.
    const other = newPhone();
    await addNumber(user, { phone: other });
    await db
      .updateTable("whatsapp_numbers")
      .set({ code_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", user.id)
      .execute();
    await expect(confirmNumber(user, { code: cloud.codeFor(other)! })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { code: "whatsapp_code_expired" },
    });
    await removeNumber(user);
    await expect(removeNumber(user)).rejects.toMatchObject({ status: 404 });
  });

  it("get at most 3 codes an hour, even from a burst of 20", async () => {
    const user = await createUser(db, { account_type: "merchant" });
    const phone = newPhone();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => addNumber(user, { phone })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 429, key: "whatsapp_codes_limit" });
    }
    expect(cloud.received).toHaveLength(3);
    // The platform's day counts the 3 codes that went, not the 17 refused.
    expect(await whatsappToday()).toEqual({ sent: 3, cap: 1000 });
    // An hour later, a code again.
    await db
      .updateTable("whatsapp_numbers")
      .set({ codes_window_at: new Date(Date.now() - 3_600_001).toISOString() })
      .where("user_id", "=", user.id)
      .execute();
    await addNumber(user, { phone });
  });

  it("give a code 5 tries, even to a burst of 20 guesses", async () => {
    const user = await createUser(db, { account_type: "merchant" });
    const phone = newPhone();
    await addNumber(user, { phone });
    const code = cloud.codeFor(phone)!;
    const wrong = code === "000000" ? "111111" : "000000";
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => confirmNumber(user, { code: wrong })));
    const statuses = results.map((r) => (r as PromiseRejectedResult).reason.status as number);
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    await expect(confirmNumber(user, { code })).rejects.toMatchObject({ status: 429 });
  });

  it("take from the platform's day, not the person's: at the cap no code goes (429)", async () => {
    config.WHATSAPP_DAILY_PER_USER = 1;
    const user = await createUser(db, { account_type: "merchant" });
    await addNumber(user, { phone: newPhone() });
    await addNumber(user, { phone: newPhone() });
    config.WHATSAPP_DAILY_TOTAL = 2;
    await expect(addNumber(user, { phone: newPhone() })).rejects.toMatchObject({
      status: 429,
      key: "whatsapp_daily_cap",
    });
    expect(cloud.received).toHaveLength(2);
    // A code that does not go gives its slot back.
    config.WHATSAPP_DAILY_TOTAL = 3;
    cloud.fail(1);
    await expect(addNumber(user, { phone: newPhone() })).rejects.toMatchObject({ status: 502 });
    expect(await whatsappToday()).toEqual({ sent: 2, cap: 3 });
  });

  it("is confirmed on one account: the one who proves it with a code takes it", async () => {
    const first = await createUser(db, { account_type: "merchant" });
    const second = await createUser(db, { account_type: "merchant" });
    const phone = newPhone();
    await addNumber(first, { phone });
    await confirmNumber(first, { code: cloud.codeFor(phone)! });
    await addNumber(second, { phone });
    // Until the second proves it, the first keeps it.
    expect(await getNumber(first)).toMatchObject({ phone, status: "confirmed" });
    await confirmNumber(second, { code: cloud.codeFor(phone)! });
    expect(await getNumber(first)).toBeNull();
    expect(await getNumber(second)).toMatchObject({ phone, status: "confirmed" });
    const confirmed = await db
      .selectFrom("whatsapp_numbers")
      .select("user_id")
      .where("phone", "=", phone)
      .where("confirmed_at", "is not", null)
      .execute();
    expect(confirmed).toEqual([{ user_id: second.id }]);

    // Two accounts confirming it at once: it ends on one of them; a loser is told (409).
    const third = await createUser(db, { account_type: "merchant" });
    await addNumber(first, { phone });
    const firstCode = cloud.codeFor(phone)!;
    await addNumber(third, { phone });
    const thirdCode = cloud.codeFor(phone)!;
    const results = await Promise.allSettled([
      confirmNumber(first, { code: firstCode }),
      confirmNumber(third, { code: thirdCode }),
    ]);
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, key: "whatsapp_number_taken" });
    }
    const owners = await db
      .selectFrom("whatsapp_numbers")
      .select("user_id")
      .where("phone", "=", phone)
      .where("confirmed_at", "is not", null)
      .execute();
    expect(owners).toHaveLength(1);
  });

  it("is refused when WhatsApp says it is not on WhatsApp", async () => {
    const user = await createUser(db, { account_type: "merchant" });
    const phone = newPhone();
    cloud.notOnWhatsapp(phone);
    await expect(addNumber(user, { phone })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { phone: "whatsapp_phone_not_on_whatsapp" },
    });
  });
});

describe("alerts", () => {
  it("are off by default for every kind, and go once, as the template in the user's language", async () => {
    const { owner, phone } = await confirmedOwner("en", false);
    expect(Object.values((await getEmailSettings(owner)).whatsapp!).every((on) => on === false)).toBe(true);
    await applicationTo(owner);
    expect(await whatsappRows(owner.id)).toEqual([]);

    await updateEmailSettings(owner, { whatsapp: { application_received: true } });
    const { application } = await applicationTo(owner, "Site para padaria");
    cloud.reset();
    expect((await drain()).sent).toBeGreaterThanOrEqual(1);
    expect(cloud.received).toHaveLength(1);
    const [message] = cloud.received;
    expect(message).toMatchObject({ to: phone, template: "freela_alerta", language: "en_US" });
    expect(message!.parameters[0]).toContain("Site para padaria");
    expect(message!.parameters[1]).toBe(`${config.APP_URL}/applications/${application.id}`);
    await drain(new Date(Date.now() + 60 * 60_000));
    expect(cloud.received).toHaveLength(1);
    expect(
      await db.selectFrom("whatsapp_sends").select("status").where("id", "=", message!.id).executeTakeFirst(),
    ).toEqual({
      status: "accepted",
    });
    // The code and the alert.
    expect(await whatsappToday()).toEqual({ sent: 2, cap: 1000 });
  });

  it("stop at the user's daily cap exactly, and are skipped, never retried", async () => {
    config.WHATSAPP_DAILY_PER_USER = 2;
    const { owner } = await confirmedOwner();
    for (let i = 0; i < 3; i++) await applicationTo(owner);
    cloud.reset();
    await drain();
    expect(cloud.received).toHaveLength(2);
    const rows = await whatsappRows(owner.id);
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(2);
    expect(rows.filter((r) => r.status === "skipped")).toEqual([
      expect.objectContaining({ status: "skipped", last_error: "daily cap" }),
    ]);
  });

  it("stop at the platform's daily cap, with two drains at once", async () => {
    // The owners' two codes and three alerts.
    config.WHATSAPP_DAILY_TOTAL = 5;
    const a = await confirmedOwner();
    const b = await confirmedOwner();
    for (let i = 0; i < 3; i++) {
      await applicationTo(a.owner);
      await applicationTo(b.owner);
    }
    cloud.reset();
    await Promise.all([
      drainOutbox({ send: async () => {}, limit: 4 }),
      drainOutbox({ send: async () => {}, limit: 4 }),
    ]);
    await drain();
    expect(cloud.received).toHaveLength(3);
    const rows = [...(await whatsappRows(a.owner.id)), ...(await whatsappRows(b.owner.id))];
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(3);
    expect(rows.filter((r) => r.status === "skipped" && r.last_error === "daily cap")).toHaveLength(3);
    expect(await whatsappToday()).toEqual({ sent: 5, cap: 5 });
  });

  it("are retried after a 500, and a number not on WhatsApp is marked unusable", async () => {
    const { owner, phone } = await confirmedOwner();
    await applicationTo(owner);
    cloud.reset();
    cloud.fail(1);
    const at = new Date();
    await drain(at);
    expect((await whatsappRows(owner.id))[0]).toMatchObject({ status: "pending" });
    // The code alone: the alert that failed gave its slot back.
    expect(await whatsappToday(at)).toEqual({ sent: 1, cap: 1000 });
    await drain(new Date(at.getTime() + BACKOFF_BASE_MS));
    expect((await whatsappRows(owner.id))[0]).toMatchObject({ status: "sent" });

    await applicationTo(owner);
    cloud.notOnWhatsapp(phone);
    await drain(new Date(at.getTime() + BACKOFF_BASE_MS));
    expect((await whatsappRows(owner.id)).filter((r) => r.status === "skipped")).toEqual([
      expect.objectContaining({ last_error: "not on WhatsApp" }),
    ]);
    const number = await db
      .selectFrom("whatsapp_numbers")
      .select("unusable_at")
      .where("user_id", "=", owner.id)
      .executeTakeFirst();
    expect(number!.unusable_at).not.toBeNull();
    // No more rows for an unusable number.
    await applicationTo(owner);
    expect(await whatsappRows(owner.id)).toHaveLength(2);
  });

  it("tell nothing of content hidden by the moderation when they go", async () => {
    const { owner } = await confirmedOwner();
    const { opportunity } = await applicationTo(owner, "Um título escondido");
    await db
      .updateTable("opportunities")
      .set({ hidden_at: new Date().toISOString() })
      .where("id", "=", opportunity.id)
      .execute();
    cloud.reset();
    await drain();
    expect(cloud.received).toEqual([]);
    expect((await whatsappRows(owner.id))[0]).toMatchObject({ status: "skipped" });
  });

  it("are queued in queueEmails' same two statements", async () => {
    const a = await confirmedOwner();
    const b = await confirmedOwner(null, false);
    const list = [a.owner, b.owner].map((u) => ({
      user_id: u.id,
      kind: "application_received" as const,
      application_id: null,
      opportunity_id: null,
    }));
    expect(await statementsOf(() => queueEmails(db as Kysely<Database>, list))).toBe(2);
    expect(await whatsappRows(a.owner.id)).toHaveLength(1);
    expect(await whatsappRows(b.owner.id)).toHaveLength(0);
  });

  it("are in the person's copy of their data: the number, its dates and the kinds on, never the code", async () => {
    const { owner, phone } = await confirmedOwner();
    const settings = (await EXPORT_KINDS["settings.json"](exportSource(owner))) as Record<string, unknown>;
    expect(settings.whatsapp_number).toMatchObject({ phone, opted_out_at: null });
    expect(settings.whatsapp_turned_on).toEqual([expect.objectContaining({ kind: "application_received" })]);
    expect(JSON.stringify(settings)).not.toContain("code_hash");
  });

  it("end with the account: the number goes with it", async () => {
    const { owner } = await confirmedOwner();
    await db.deleteFrom("users").where("id", "=", owner.id).execute();
    expect(await db.selectFrom("whatsapp_numbers").where("user_id", "=", owner.id).selectAll().execute()).toEqual([]);
  });
});
