import { describe, expect, it } from "vitest";
import { loader as inboxApi } from "~/routes/api+/_account+/conversations";
import { INBOX_PREVIEW_CHARS, listConversations } from "~/services/messaging/inbox.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { createSession } from "~/services/accounts/sessions.server";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { freelancer, negotiation, offersFor, outcome } from "../support/market";

// The inbox (docs/product.md, "Mensagens"), on both engines: every conversation of the user with
// messages, newest message first, the other person, the opportunity, the last message, the
// unread count; the unread filter; nobody else's conversations; the API twin.

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A freelancer in two conversations with two merchants, the second one the latest. */
async function twoConversations() {
  const first = await negotiation("pending", { title: "Loja virtual para confeitaria" });
  const { applicant } = first;
  const opp = await createOpportunity(db, { title: "Identidade visual de cafeteria" });
  const second = await createApplication(db, {
    opportunity: opp,
    freelancer_id: applicant.id,
    status: "pending",
    offers: offersFor("pending"),
  });
  const otherOwner = await db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", opp.merchant_id)
    .executeTakeFirstOrThrow();
  await sendMessage(applicant, first.application.id, { body: "Olá! Posso mandar o portfólio?" });
  await tick();
  await sendMessage(first.owner, first.application.id, { body: "Pode sim.\n\nObrigado!" });
  await tick();
  await sendMessage(otherOwner, second.id, { body: "Você faria o logo também?" });
  await tick();
  await sendMessage(otherOwner, second.id, { body: "E o cardápio?" });
  return { applicant, first, second, otherOwner, opp };
}

describe("the inbox", () => {
  it("lists every conversation, newest message first, with the other side, the opportunity and what is unread", async () => {
    const { applicant, first, second, otherOwner } = await twoConversations();
    const inbox = await listConversations(applicant, {});
    expect(inbox.data.map((c) => c.application_id)).toEqual([second.id, first.application.id]);
    expect(inbox.data[0]).toMatchObject({
      side: "freelancer",
      opportunity: { title: "Identidade visual de cafeteria" },
      other: { id: otherOwner.id },
      last_message: { body: "E o cardápio?", mine: false, hidden: false },
      messages_count: 2,
      unread: 2,
    });
    // Whitespace folded to one line.
    expect(inbox.data[1]!.last_message.body).toBe("Pode sim. Obrigado!");
    expect(inbox.data[1]!.unread).toBe(1);
    expect(inbox.unread_conversations).toBe(2);
    expect(inbox.meta).toMatchObject({ page: 1, total: 2 });

    // The merchant's side of the first one: the freelancer, and their own last message.
    const owner = await listConversations(first.owner, {});
    expect(owner.data).toHaveLength(1);
    expect(owner.data[0]).toMatchObject({
      side: "merchant",
      other: { id: applicant.id },
      last_message: { body: "Pode sim. Obrigado!", mine: true },
      unread: 0,
    });

    // Reading a conversation clears its count; the filter keeps only those with unread.
    await listMessages(applicant, second.id);
    const unread = await listConversations(applicant, { filter: "unread" });
    expect(unread.data.map((c) => c.application_id)).toEqual([first.application.id]);
    expect(unread.unread_conversations).toBe(1);
    expect(unread.meta.total).toBe(1);

    // Someone else sees none of it.
    const stranger = await freelancer();
    expect((await listConversations(stranger, {})).data).toEqual([]);
  });

  it("cuts a long last message at a word, and says when an operator hid it", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const long = `${"palavra ".repeat(40)}fim`;
    await sendMessage(applicant, application.id, { body: long });
    const shown = (await listConversations(owner, {})).data[0]!;
    expect(Array.from(shown.last_message.body).length).toBeLessThanOrEqual(INBOX_PREVIEW_CHARS + 1);
    expect(shown.last_message.body.endsWith("palavra…")).toBe(true);

    await db.updateTable("messages").set({ hidden_at: new Date().toISOString(), hidden_reason: "spam" }).execute();
    const hidden = (await listConversations(owner, {})).data[0]!;
    expect(hidden.last_message).toMatchObject({ body: "", hidden: true });
    // A hidden message is not counted as unread either.
    expect(hidden.unread).toBe(0);
  });

  it("answers the API with the same list, and 422 in Portuguese for a filter or page it does not know", async () => {
    const { applicant, second } = await twoConversations();
    const { token } = await createSession(applicant.id);
    const ok = await call(inboxApi, jsonRequest("/api/conversations?filter=unread&per_page=1", undefined, { token }));
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((c: { application_id: string }) => c.application_id)).toEqual([second.id]);
    expect(ok.body.meta).toMatchObject({ per_page: 1, total: 2, total_pages: 2 });
    const bad = await call(inboxApi, jsonRequest("/api/conversations?filter=lidas", undefined, { token }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.filter).toBe('O filtro "filter" aceita all ou unread.');
    expect((await call(inboxApi, jsonRequest("/api/conversations?page=0", undefined, { token }))).status).toBe(422);
    expect((await call(inboxApi, jsonRequest("/api/conversations"))).status).toBe(401);
    expect(await outcome(listConversations(applicant, { per_page: "1000" }))).toBe(422);
  });
});
