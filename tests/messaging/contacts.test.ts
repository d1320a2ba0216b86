import { describe, expect, it } from "vitest";
import { db } from "../../db";
import {
  applyToOpportunity,
  counterOffer,
  getApplication,
  listOpportunityApplications,
} from "~/services/marketplace/applications.server";
import { inviteFreelancer, listInvitations } from "~/services/marketplace/invitations.server";
import { CONTACT_MASK } from "~/services/messaging/contact-detector.server";
import { CONTACT_REPORT_THRESHOLD, countMaskedContacts } from "~/services/messaging/contacts.server";
import { listConversations } from "~/services/messaging/inbox.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { createOpportunity } from "../../db/factories";
import { freelancer, merchant, negotiation, validApplication } from "../support/market";

const PHONE = "Me chama no zap (11) 98765-4321";

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

/** Money paid in on the contract between the two (a funded milestone). */
async function fund(contractId: string) {
  await db
    .updateTable("milestones")
    .set({ status: "funded", funded_at: new Date().toISOString() })
    .where("contract_id", "=", contractId)
    .execute();
}

const openReportsOf = (userId: string) =>
  db
    .selectFrom("reports")
    .selectAll()
    .where("target_type", "=", "profile")
    .where("target_id", "=", userId)
    .where("status", "=", "open")
    .execute();

describe("contacts in messages before funding", () => {
  it("are refused once with the notice, and nothing is sent", async () => {
    const { applicant, application } = await negotiation("pending");
    expect(await refusalOf(sendMessage(applicant, application.id, { body: PHONE }))).toMatchObject({
      status: 422,
      key: "contact_detected",
      fieldErrors: { body: "contact_detected_notice" },
      body: { code: "contact_detected", kinds: ["app"] },
    });
    expect((await listMessages(applicant, application.id)).data).toEqual([]);
    expect(await countMaskedContacts(db, applicant.id)).toBe(0);
  });

  it("once confirmed, reach the other side masked (inbox too) while the sender reads what they wrote", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const sent = await sendMessage(applicant, application.id, { body: PHONE, confirm_contact: "1" });
    expect(sent.body).toBe(PHONE);
    expect((await listMessages(applicant, application.id)).data[0].body).toBe(PHONE);
    const seen = (await listMessages(owner, application.id)).data[0].body;
    expect(seen).toBe(CONTACT_MASK);
    expect(seen).not.toContain("98765");
    const inbox = await listConversations(owner, {});
    expect(inbox.data[0].last_message.body).toBe(CONTACT_MASK);
    expect((await listConversations(applicant, {})).data[0].last_message.body).toBe(PHONE);
    expect(await countMaskedContacts(db, applicant.id)).toBe(1);
    expect(await countMaskedContacts(db, applicant.id, new Date(Date.now() + 60_000).toISOString())).toBe(0);
  });

  it("leave ordinary messages alone", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Entrego dia 12/03/2026 por R$ 1.500,00, CEP 01310-100." });
    expect((await listMessages(owner, application.id)).data[0].body).toContain("R$ 1.500,00");
    expect(await countMaskedContacts(db, applicant.id)).toBe(0);
  });

  it("are allowed unmasked once a contract between the two is funded", async () => {
    const { owner, applicant, application } = await negotiation("accepted");
    await fund(application.id);
    const sent = await sendMessage(owner, application.id, { body: PHONE });
    expect(sent.body).toBe(PHONE);
    expect((await listMessages(applicant, application.id)).data[0].body).toBe(PHONE);
    expect(await countMaskedContacts(db, owner.id)).toBe(0);
  });

  it("are still masked while the contract waits for its money", async () => {
    const { owner, application } = await negotiation("accepted");
    expect(await refusalOf(sendMessage(owner, application.id, { body: PHONE }))).toMatchObject({ status: 422 });
  });
});

describe("contacts in applications, offers and invitations", () => {
  it("a cover letter: the notice, then masked for the merchant and as written for the freelancer", async () => {
    const owner = await merchant();
    const applicant = await freelancer();
    const opp = await createOpportunity(db, { merchant_id: owner.id });
    const letter = "Tenho experiência. Meu e-mail: joao.silva@gmail.com";
    const input = { ...validApplication, cover_letter: letter };
    expect(await refusalOf(applyToOpportunity(applicant, opp.uuid, input))).toMatchObject({
      status: 422,
      fieldErrors: { cover_letter: "contact_detected_notice" },
    });
    const sent = await applyToOpportunity(applicant, opp.uuid, { ...input, confirm_contact: true });
    expect(sent.cover_letter).toBe(letter);
    expect((await getApplication(owner, sent.id)).cover_letter).toBe(`Tenho experiência. Meu e-mail: ${CONTACT_MASK}`);
    const listed = await listOpportunityApplications(owner, opp.uuid, {});
    expect(listed.data[0].cover_letter).not.toContain("gmail");
    expect((await getApplication(applicant, sent.id)).cover_letter).toBe(letter);
  });

  it("an offer's note: masked for the other side only", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const terms = { price_cents: 150_000, delivery_days: 10, message: "Fechamos por fora, sai mais barato" };
    expect(await refusalOf(counterOffer(owner, application.id, terms))).toMatchObject({
      status: 422,
      fieldErrors: { message: "contact_detected_notice" },
    });
    const offer = await counterOffer(owner, application.id, { ...terms, confirm_contact: "on" });
    expect(offer.message).toBe(terms.message);
    const mine = await getApplication(owner, application.id);
    const theirs = await getApplication(applicant, application.id);
    expect(mine.offers.at(-1)!.message).toBe(terms.message);
    expect(theirs.offers.at(-1)!.message).toBe(`${CONTACT_MASK}, sai mais barato`);
  });

  it("an invitation: masked for the freelancer", async () => {
    const owner = await merchant();
    const invited = await freelancer();
    const opp = await createOpportunity(db, { merchant_id: owner.id });
    const message = "Gostei do seu perfil! wa.me/5511987654321";
    const input = { freelancer_id: invited.id, message };
    expect(await refusalOf(inviteFreelancer(owner, opp.uuid, input))).toMatchObject({ status: 422 });
    const sent = await inviteFreelancer(owner, opp.uuid, { ...input, confirm_contact: true });
    expect(sent.message).toBe(message);
    expect((await listInvitations(invited, {})).data[0].message).toBe(`Gostei do seu perfil! ${CONTACT_MASK}`);
    expect((await listInvitations(owner, {})).data[0].message).toBe(message);
  });
});

describe("repeated contacts", () => {
  it(`open one report of the account at ${CONTACT_REPORT_THRESHOLD} masked sends, however many arrive at once`, async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: PHONE, confirm_contact: true });
    expect(await openReportsOf(applicant.id)).toEqual([]);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sendMessage(applicant, application.id, { body: `${PHONE} (${i})`, confirm_contact: true }),
      ),
    );
    const reports = await openReportsOf(applicant.id);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ reason: "off_platform", author_id: applicant.id, status: "open" });
    expect(await countMaskedContacts(db, applicant.id)).toBe(7);
    // The other side is not reported for what it received.
    expect(await openReportsOf(owner.id)).toEqual([]);
  });

  it("count sends after the last report was resolved, so a dismissed one does not come back at once", async () => {
    const { applicant, application } = await negotiation("pending");
    for (let i = 0; i < CONTACT_REPORT_THRESHOLD; i++) {
      await sendMessage(applicant, application.id, { body: PHONE, confirm_contact: true });
    }
    const [report] = await openReportsOf(applicant.id);
    await db
      .updateTable("reports")
      .set({ status: "dismissed", resolved_at: new Date().toISOString() })
      .where("id", "=", report.id)
      .execute();
    await new Promise((r) => setTimeout(r, 5));
    await sendMessage(applicant, application.id, { body: PHONE, confirm_contact: true });
    expect(await openReportsOf(applicant.id)).toEqual([]);
  });
});
