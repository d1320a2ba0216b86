import { describe, expect, it } from "vitest";
import { db, engine } from "../../db";
import { acceptOffer, getApplication, withdrawApplication } from "~/services/marketplace/applications.server";
import { approveContract, deliverContract } from "~/services/contracts/contracts.server";
import { getMessageFile, listMessages, sendMessage, unreadMessages } from "~/services/messaging/messages.server";
import { PNG_1X1 } from "../support/fixtures";
import { freelancer, negotiation, outcome } from "../support/market";
import { statementsOf } from "../support/statements";

const DAY = 86_400_000;

describe("messages of an application", () => {
  it("go both ways from the moment of applying, oldest first, with files", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá! Posso mandar o portfólio?" });
    const reply = await sendMessage(owner, application.id, { body: "Pode sim, obrigado." }, [
      new File([PNG_1X1], "briefing.png"),
    ]);
    expect(reply).toMatchObject({
      seq: 2,
      author: "merchant",
      files: [{ name: "briefing.png", content_type: "image/png" }],
    });
    const seen = await listMessages(applicant, application.id);
    expect(seen.data.map((m) => [m.seq, m.author, m.body])).toEqual([
      [1, "freelancer", "Olá! Posso mandar o portfólio?"],
      [2, "merchant", "Pode sim, obrigado."],
    ]);
    expect(seen).toMatchObject({ open: true, closes_at: null, unread_count: 1 });
    const file = await getMessageFile(applicant, application.id, reply.files[0].id);
    expect(Buffer.from(file.body).equals(PNG_1X1)).toBe(true);
  });

  it("are the two sides' only: anyone else gets 404, for the messages and the files", async () => {
    const { owner, application } = await negotiation("pending");
    const sent = await sendMessage(owner, application.id, { body: "Mensagem com anexo" }, [
      new File([PNG_1X1], "a.png"),
    ]);
    const stranger = await freelancer();
    expect(await outcome(listMessages(stranger, application.id))).toBe(404);
    expect(await outcome(sendMessage(stranger, application.id, { body: "Oi" }))).toBe(404);
    expect(await outcome(getMessageFile(stranger, application.id, sent.files[0].id))).toBe(404);
  });

  it("refuses empty or long text, too many files and files that are not what they say", async () => {
    const { applicant, application } = await negotiation("pending");
    expect(await outcome(sendMessage(applicant, application.id, { body: " " }))).toBe(422);
    expect(await outcome(sendMessage(applicant, application.id, { body: "x".repeat(4001) }))).toBe(422);
    const six = Array.from({ length: 6 }, (_, i) => new File([PNG_1X1], `${i}.png`));
    expect(await sendMessage(applicant, application.id, { body: "Arquivos" }, six).catch((e) => e)).toMatchObject({
      status: 422,
      fieldErrors: { files: "message_files_too_many" },
    });
    const fake = new File(["<html></html>"], "contrato.pdf");
    expect(await outcome(sendMessage(applicant, application.id, { body: "Arquivo" }, [fake]))).toBe(422);
    // No text and too many files: both at once.
    expect(await sendMessage(applicant, application.id, { body: "" }, six).catch((e) => e)).toMatchObject({
      status: 422,
      fieldErrors: { body: "message_body_required", files: "message_files_too_many" },
    });
    expect(await db.selectFrom("messages").selectAll().where("application_id", "=", application.id).execute()).toEqual(
      [],
    );
  });

  it("counts unread messages per conversation and in all; opening one marks it read", async () => {
    const a = await negotiation("pending");
    const b = await negotiation("pending", { merchant_id: a.owner.id });
    await sendMessage(a.applicant, a.application.id, { body: "Primeira" });
    await sendMessage(a.applicant, a.application.id, { body: "Segunda" });
    await sendMessage(b.applicant, b.application.id, { body: "Outra conversa" });
    await sendMessage(a.owner, a.application.id, { body: "Resposta" });
    // Answering reads the conversation up to the answer.
    expect(await unreadMessages(a.owner)).toEqual({ total: 1, by_application: { [b.application.id]: 1 } });
    expect(await unreadMessages(a.applicant)).toEqual({ total: 1, by_application: { [a.application.id]: 1 } });
    expect((await listMessages(a.owner, b.application.id)).unread_count).toBe(1);
    expect(await unreadMessages(a.owner)).toEqual({ total: 0, by_application: {} });
  });

  it("numbers messages sent at once without a gap or a double", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sendMessage(i % 2 ? owner : applicant, application.id, { body: `Mensagem ${i}` }),
      ),
    );
    const seqs = (await listMessages(owner, application.id)).data.map((m) => m.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("closes 30 days after the application or its contract ends", async () => {
    const withdrawn = await negotiation("pending");
    await withdrawApplication(withdrawn.applicant, withdrawn.application.id);
    expect(await outcome(sendMessage(withdrawn.owner, withdrawn.application.id, { body: "Que pena!" }))).toBe(200);
    const longAgo = new Date(Date.now() - 31 * DAY).toISOString();
    await db
      .updateTable("applications")
      .set({ updated_at: longAgo })
      .where("id", "=", withdrawn.application.id)
      .execute();
    expect(await outcome(sendMessage(withdrawn.owner, withdrawn.application.id, { body: "Ainda aí?" }))).toBe(409);
    expect((await listMessages(withdrawn.owner, withdrawn.application.id)).open).toBe(false);

    // A hire stays open while its contract runs, and 30 days after it ends.
    const hired = await negotiation("pending");
    const offer = (await getApplication(hired.owner, hired.application.id)).offers[0];
    await acceptOffer(hired.owner, hired.application.id, { offer_id: offer.id });
    await db.updateTable("applications").set({ updated_at: longAgo }).where("id", "=", hired.application.id).execute();
    expect(await outcome(sendMessage(hired.applicant, hired.application.id, { body: "Começando!" }))).toBe(200);
    await deliverContract(hired.applicant, hired.application.id, { message: "Pronto." });
    await approveContract(hired.owner, hired.application.id);
    const after = await listMessages(hired.owner, hired.application.id);
    expect(after.open).toBe(true);
    expect(Date.parse(after.closes_at!) - Date.now()).toBeGreaterThan(29 * DAY);
    await db.updateTable("contracts").set({ ended_at: longAgo }).where("id", "=", hired.application.id).execute();
    expect(await outcome(sendMessage(hired.applicant, hired.application.id, { body: "Obrigada!" }))).toBe(409);
  });
});

describe("the cost of a message", () => {
  // Sending is mostly round trips to the database (docs/performance.md, "Live updates"): the
  // write counter, the access check, the numbering with the message and its author's read mark
  // (one statement on PostgreSQL), its push, the e-mail it joins and the event, in one transaction.
  it("is a fixed number of statements once the conversation has an e-mail waiting", async () => {
    const { applicant, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Olá!" });
    // SQLite's write counter has a connection of its own (not counted here). One of them is the
    // push of the message (one INSERT … SELECT, whether or not the recipient has a device).
    const expected = engine === "postgres" ? 8 : 9;
    expect(await statementsOf(() => sendMessage(applicant, application.id, { body: "Tudo bem?" }))).toBe(expected);
    const { data } = await listMessages(applicant, application.id);
    expect(data.map((m) => [m.seq, m.body])).toEqual([
      [1, "Olá!"],
      [2, "Tudo bem?"],
    ]);
  });
});
