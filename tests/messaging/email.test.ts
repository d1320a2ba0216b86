import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import {
  acceptOffer,
  applyToOpportunity,
  counterOffer,
  getApplication,
  rejectApplication,
} from "~/services/marketplace/applications.server";
import {
  approveContract,
  cancelContract,
  deliverContract,
  requestChanges,
  runContractSchedule,
} from "~/services/contracts/contracts.server";
import {
  describeUnsubscribe,
  getEmailSettings,
  readUnsubscribeToken,
  unsubscribe,
  unsubscribeToken,
  updateEmailSettings,
} from "~/services/messaging/email.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { BACKOFF_BASE_MS, MAX_ATTEMPTS, drainOutbox } from "~/services/platform/outbox.server";
import { createOpportunity } from "../../db/factories";
import { freelancer, merchant, negotiation, outcome, validApplication } from "../support/market";
import { startSmtp } from "../support/smtp";

const MINUTE = 60_000;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

// Every test starts from an empty outbox and an empty mailbox.
beforeEach(async () => {
  await db.deleteFrom("outbox").execute();
  smtp.received.length = 0;
  smtp.refuse(0);
});

/** Drains as a server process would at `at` (now by default), through the test's SMTP server. */
const drain = (at = new Date(), limit?: number) => drainOutbox({ at, send: smtp.send, limit });
const later = (ms: number) => new Date(Date.now() + ms);
const outboxOf = (userId: string) => db.selectFrom("outbox").selectAll().where("user_id", "=", userId).execute();

/** The link to the app in an e-mail's text (the first one). */
const linkIn = (text: string) => text.match(new RegExp(`${config.APP_URL}/(applications|contracts)/[^\\s]+`))?.[0];

describe("e-mail notifications through SMTP", () => {
  it("tell each side of a negotiation, with the subject and a link to the application", async () => {
    const owner = await merchant();
    const applicant = await freelancer();
    const opportunity = await createOpportunity(db, { merchant_id: owner.id, title: "Loja virtual para confeitaria" });
    const application = await applyToOpportunity(applicant, opportunity.uuid, validApplication);
    await counterOffer(owner, application.id, { price_cents: 300_000, delivery_days: 14, message: "Fecha por 3 mil?" });
    const result = await drain();
    expect(result).toEqual({ sent: 2, skipped: 0, retried: 0, failed: 0 });

    const [received, countered] = smtp.received;
    expect(received.to).toEqual([owner.email]);
    expect(received.subject).toBe("Freela: João Freelancer se candidatou a “Loja virtual para confeitaria”");
    expect(linkIn(received.text)).toBe(`${config.APP_URL}/applications/${application.id}`);
    expect(received.text).toContain("Olá, Maria Contratante!");
    expect(countered.to).toEqual([applicant.email]);
    expect(countered.subject).toBe(
      "Freela: Maria Contratante enviou uma contraproposta em “Loja virtual para confeitaria”",
    );
    expect(linkIn(countered.text)).toBe(`${config.APP_URL}/applications/${application.id}`);
    // The unsubscribe link names the recipient and the kind, in the text and in the RFC 8058 headers.
    const unsubscribeLink = `${config.APP_URL}/unsubscribe/${unsubscribeToken(applicant.id, "offer_received")}`;
    expect(countered.text).toContain(unsubscribeLink);
    expect(countered.headers["list-unsubscribe"]).toBe(`<${unsubscribeLink}>`);
    expect(countered.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(countered.from).toBe("nao-responda@freela.local");

    // Nothing is sent twice.
    expect(await drain()).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 0 });
    expect((await outboxOf(applicant.id)).map((r) => r.status)).toEqual(["sent"]);
  });

  it("tell of the hire, a rejection, a delivery, a change request and the approval, linking the contract", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const lost = await negotiation("pending", { merchant_id: owner.id });
    const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
    await acceptOffer(owner, application.id, { offer_id: offer.id });
    await rejectApplication(owner, lost.application.id, {});
    await deliverContract(applicant, application.id, { message: "Primeira versão" });
    await requestChanges(owner, application.id, { message: "Troque as cores" });
    await deliverContract(applicant, application.id, { message: "Segunda versão" });
    await approveContract(owner, application.id);
    await drain();

    const mails = smtp.received.map((m) => [m.to[0], m.subject, linkIn(m.text)]);
    const contract = `${config.APP_URL}/contracts/${application.id}`;
    expect(mails).toEqual([
      [
        applicant.email,
        expect.stringMatching(/^Freela: Maria Contratante aceitou a proposta em “/),
        `${config.APP_URL}/applications/${application.id}`,
      ],
      [
        lost.applicant.email,
        expect.stringMatching(/^Freela: Sua candidatura a “.*” foi recusada$/),
        `${config.APP_URL}/applications/${lost.application.id}`,
      ],
      [owner.email, expect.stringMatching(/^Freela: João Freelancer enviou uma entrega em “/), contract],
      [applicant.email, expect.stringMatching(/^Freela: Maria Contratante pediu alterações em “/), contract],
      [owner.email, expect.stringMatching(/^Freela: João Freelancer enviou uma entrega em “/), contract],
      [applicant.email, expect.stringMatching(/^Freela: Maria Contratante aprovou a entrega de “/), contract],
    ]);
  });

  it("tell of a cancellation, and of the schedule's reminder and automatic completion", async () => {
    const cancelled = await negotiation("pending");
    const offer = (await getApplication(cancelled.owner, cancelled.application.id)).offers.at(-1)!;
    await acceptOffer(cancelled.owner, cancelled.application.id, { offer_id: offer.id });
    const delivered = await negotiation("pending");
    const other = (await getApplication(delivered.owner, delivered.application.id)).offers.at(-1)!;
    await acceptOffer(delivered.owner, delivered.application.id, { offer_id: other.id });
    await cancelContract(cancelled.owner, cancelled.application.id, { reason: "O projeto foi adiado" });
    await deliverContract(delivered.applicant, delivered.application.id, { message: "Pronto" });
    await drain();
    smtp.received.length = 0;

    // 10 days after the delivery: the reminder; 14 days after: the automatic completion.
    await runContractSchedule(new Date(Date.now() + 10 * 24 * 60 * MINUTE));
    await runContractSchedule(new Date(Date.now() + 15 * 24 * 60 * MINUTE));
    await drain();
    const contract = `${config.APP_URL}/contracts/${delivered.application.id}`;
    const mails = smtp.received.map((m) => [m.to[0], m.subject, linkIn(m.text)]);
    expect(mails).toEqual(
      expect.arrayContaining([
        [
          delivered.owner.email,
          expect.stringMatching(/^Freela: Faltam 5 dias para a entrega de “.*” ser aprovada automaticamente$/),
          contract,
        ],
        [
          delivered.owner.email,
          expect.stringMatching(/^Freela: O contrato de “.*” foi concluído automaticamente$/),
          contract,
        ],
        [
          delivered.applicant.email,
          expect.stringMatching(/^Freela: O contrato de “.*” foi concluído automaticamente$/),
          contract,
        ],
      ]),
    );
    const cancellation = await outboxOf(cancelled.applicant.id);
    expect(cancellation.map((r) => [r.kind, r.status])).toEqual(
      expect.arrayContaining([["contract_cancelled", "sent"]]),
    );
  });

  it("are written in the recipient's language when one is stored", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await updateEmailSettings(applicant, { locale: "en" });
    await counterOffer(owner, application.id, { price_cents: 250_000, delivery_days: 10 });
    await drain();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].subject).toMatch(/^Freela: Maria Contratante sent a counter-offer on “/);
    expect(smtp.received[0].text).toContain("Hello, João Freelancer!");
    expect(smtp.received[0].text).toContain("To stop e-mails of this kind (Counter-offer received)");
  });
});

describe("new messages", () => {
  it("make one e-mail per conversation for the messages of 10 minutes", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá!" });
    await sendMessage(applicant, application.id, { body: "Posso mandar o portfólio?" });
    expect(await drain()).toMatchObject({ sent: 1 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual([owner.email]);
    expect(smtp.received[0].subject).toMatch(/^Freela: João Freelancer enviou 2 mensagens sobre “/);
    expect(smtp.received[0].text).toContain(`${config.APP_URL}/applications/${application.id}/messages`);

    // Right after an e-mail, the next messages wait out the 10 minutes together.
    await sendMessage(applicant, application.id, { body: "Segue o link" });
    await sendMessage(applicant, application.id, { body: "E mais um" });
    expect(await drain(later(5 * MINUTE))).toMatchObject({ sent: 0 });
    expect(await drain(later(11 * MINUTE))).toMatchObject({ sent: 1 });
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[1].subject).toMatch(/enviou 4 mensagens sobre/);
    // Two conversations are two e-mails; the author is never e-mailed about their own message.
    expect((await outboxOf(applicant.id)).length).toBe(0);
  });

  it("join no waiting e-mail once the recipient turned message e-mails off, and join it again once back on", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá!" });
    await updateEmailSettings(owner, { kinds: { message_received: false } });
    await sendMessage(applicant, application.id, { body: "Ainda aí?" });
    expect((await outboxOf(owner.id)).map((r) => r.items)).toEqual([1]);
    await updateEmailSettings(owner, { kinds: { message_received: true } });
    await sendMessage(applicant, application.id, { body: "Segue o link" });
    expect((await outboxOf(owner.id)).map((r) => r.items)).toEqual([2]);
  });

  it("are not e-mailed once the recipient has read them", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá!" });
    await listMessages(owner, application.id);
    expect(await drain()).toEqual({ sent: 0, skipped: 1, retried: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
  });
});

describe("settings", () => {
  it("a kind turned off sends no e-mail, before or after the event", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await updateEmailSettings(applicant, { kinds: { offer_received: false } });
    await counterOffer(owner, application.id, { price_cents: 250_000, delivery_days: 10 });
    expect(await outboxOf(applicant.id)).toEqual([]);
    // The in-app notification still comes.
    expect(await db.selectFrom("notifications").select("kind").where("user_id", "=", applicant.id).execute()).toEqual([
      { kind: "offer_received" },
    ]);

    // Turned off between the event and the drain: skipped too.
    await sendMessage(owner, application.id, { body: "Oi" });
    await updateEmailSettings(applicant, { kinds: { message_received: false, offer_received: true } });
    expect(await drain()).toEqual({ sent: 0, skipped: 1, retried: 0, failed: 0 });
    expect(smtp.received).toEqual([]);
    expect((await getEmailSettings(applicant)).kinds).toMatchObject({
      offer_received: true,
      message_received: false,
      contract_delivered: true,
    });
  });

  it("refuses unknown kinds, values that are not booleans and unknown languages", async () => {
    const user = await freelancer();
    const refusal = (input: unknown) => updateEmailSettings(user, input).catch((e) => e);
    expect(await refusal({ kinds: { nope: false } })).toMatchObject({
      status: 422,
      fieldErrors: { kinds: "email_kinds_invalid" },
    });
    expect(await refusal({ kinds: { offer_received: "no" } })).toMatchObject({
      status: 422,
      fieldErrors: { kinds: "email_kinds_invalid" },
    });
    expect(await refusal({ kinds: ["offer_received"] })).toMatchObject({
      status: 422,
      fieldErrors: { kinds: "email_kinds_invalid" },
    });
    expect(await refusal({ locale: "fr" })).toMatchObject({
      status: 422,
      fieldErrors: { locale: "email_locale_invalid" },
    });
    expect(await refusal({ admin: true })).toMatchObject({ status: 422, key: "email_settings_invalid" });
    expect(await getEmailSettings(user)).toMatchObject({ locale: null, kinds: { offer_received: true } });
  });
});

describe("the drain", () => {
  it("tries again with exponential backoff when the SMTP server refuses, and gives up after the last attempt", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await counterOffer(owner, application.id, { price_cents: 250_000, delivery_days: 10 });
    const start = Date.now();
    smtp.refuse(1);
    expect(await drain(new Date(start))).toEqual({ sent: 0, skipped: 0, retried: 1, failed: 0 });
    let [row] = await outboxOf(applicant.id);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: new Date(start + BACKOFF_BASE_MS).toISOString(),
    });
    expect(row.last_error).toMatch(/451/);
    // Not before its time; then sent.
    expect(await drain(new Date(start + BACKOFF_BASE_MS - 1000))).toMatchObject({ sent: 0, retried: 0 });
    expect(await drain(new Date(start + BACKOFF_BASE_MS))).toMatchObject({ sent: 1 });
    [row] = await outboxOf(applicant.id);
    expect(row).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    expect(smtp.received.map((m) => m.to[0])).toEqual([applicant.email]);

    // A server that keeps refusing: waits of 1, 2, 4, … minutes, then the e-mail is given up.
    await counterOffer(applicant, application.id, { price_cents: 260_000, delivery_days: 10 });
    smtp.refuse(1000);
    let at = Date.now();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await drain(new Date(at));
      expect(result).toMatchObject(attempt < MAX_ATTEMPTS ? { retried: 1 } : { failed: 1 });
      const [failing] = await outboxOf(owner.id);
      if (attempt < MAX_ATTEMPTS) {
        waits.push(Date.parse(failing.next_attempt_at) - at);
        at = Date.parse(failing.next_attempt_at);
      } else {
        expect(failing).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
        expect(failing.last_error).toMatch(/451/);
      }
    }
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8].map((m) => m * MINUTE));
    expect(await drain(new Date(at + 24 * 60 * MINUTE))).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 0 });
  });

  it("claims each row for one drain only: drains running at once send every e-mail once", async () => {
    const owner = await merchant();
    const opportunity = await createOpportunity(db, { merchant_id: owner.id });
    const applicants = await Promise.all(Array.from({ length: 12 }, () => freelancer()));
    for (const applicant of applicants) await applyToOpportunity(applicant, opportunity.uuid, validApplication);
    const results = await Promise.all(Array.from({ length: 4 }, () => drain(new Date(), 5)));
    const more = await drain();
    expect(results.reduce((n, r) => n + r.sent, 0) + more.sent).toBe(12);
    expect(smtp.received).toHaveLength(12);
    const rows = await outboxOf(owner.id);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ["sent", 1]));
  });

  it("takes over a row whose drain died mid-send once its claim lapses", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await counterOffer(owner, application.id, { price_cents: 250_000, delivery_days: 10 });
    const stuck = new Date(Date.now() - 10 * MINUTE).toISOString();
    await db
      .updateTable("outbox")
      .set({ status: "sending", claim: "dead", locked_until: stuck, attempts: 1 })
      .execute();
    expect(await drain()).toMatchObject({ sent: 1 });
    expect((await outboxOf(applicant.id))[0]).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("unsubscribe links", () => {
  it("turn off the kind they name, for the user they name, without signing in", async () => {
    const user = await freelancer();
    const token = unsubscribeToken(user.id, "contract_delivered");
    expect(readUnsubscribeToken(token)).toEqual({ userId: user.id, kind: "contract_delivered" });
    expect(await describeUnsubscribe(token)).toEqual({ kind: "contract_delivered", unsubscribed: false });
    await unsubscribe(token);
    await unsubscribe(token);
    expect(await describeUnsubscribe(token)).toEqual({ kind: "contract_delivered", unsubscribed: true });
    expect((await getEmailSettings(user)).kinds).toMatchObject({ contract_delivered: false, offer_received: true });
  });

  it("refuse a token that was tampered with: 400, and nothing changes", async () => {
    const user = await freelancer();
    const other = await freelancer();
    const token = unsubscribeToken(user.id, "offer_received");
    const [, , sig] = token.split(".");
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    const tampered = [
      `${user.id}.offer_received.${flipped}`,
      `${other.id}.offer_received.${sig}`,
      `${user.id}.message_received.${sig}`,
      `${user.id}.offer_received`,
      `${user.id}.offer_received.${sig}.x`,
      `${user.id}.nope.${sig}`,
      "",
      "x".repeat(5000),
      token.toUpperCase(),
    ];
    for (const bad of tampered) {
      expect(readUnsubscribeToken(bad)).toBeNull();
      expect(await outcome(unsubscribe(bad))).toBe(400);
      expect(await outcome(describeUnsubscribe(bad))).toBe(400);
    }
    expect(
      await db.selectFrom("email_opt_outs").selectAll().where("user_id", "in", [user.id, other.id]).execute(),
    ).toEqual([]);
  });
});
