import { readdir } from "node:fs/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { db, engine } from "../../db";
import type { ContractRow, UserRow } from "../../db/schema";
import { REVIEW_DAYS } from "~/lib/market-schemas";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import {
  acceptCancellation,
  allowedContractActions,
  approveContract,
  cancelContract,
  declineCancellation,
  deliverContract,
  getContract,
  getContractFile,
  listContracts,
  requestCancellation,
  requestChanges,
  runContractSchedule,
  type ContractAction,
} from "~/services/contracts/contracts.server";
import { addDisputeStatement, openDispute } from "~/services/contracts/disputes.server";
import { readAttachment } from "~/services/platform/uploads.server";
import { issueCharge } from "~/services/payments/charges.server";
import { PNG_1X1 } from "../support/fixtures";
import { brokenInvariants, freelancer, negotiation, notificationsOf, outcome } from "../support/market";

const DAY = 86_400_000;
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** A merchant and a freelancer just after the hire: the contract in progress. */
async function hired() {
  const { owner, applicant, application, opportunity } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, opportunity, id: application.id };
}

async function contractRow(id: string) {
  return db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

const filesOf = (id: string) => db.selectFrom("contract_files").selectAll().where("contract_id", "=", id).execute();

/** Contract files in the store (the folder on SQLite, the table on PostgreSQL). */
async function storedFileCount() {
  if (engine === "postgres") {
    const { n } = await db
      .selectFrom("photos")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "like", "c\\_%")
      .executeTakeFirstOrThrow();
    return Number(n);
  }
  return (await readdir(process.env.UPLOADS_DIR!).catch(() => [])).filter((name) => name.startsWith("c_")).length;
}

/** The schedule looks at every contract: the ones of earlier tests are ended first. */
async function onlyNewContracts() {
  await db
    .updateTable("contracts")
    .set({ status: "cancelled" })
    .where("status", "in", ["in_progress", "delivered"])
    .execute();
}

const deliver = (user: UserRow, id: string, files: Blob[] = []) =>
  deliverContract(user, id, { message: "Segue a primeira versão do site, com o catálogo completo." }, files);

describe("the hire", () => {
  it("creates the contract in the accept's transaction, on the agreed terms, due delivery_days later", async () => {
    const { owner, applicant, id } = await hired();
    const application = await getApplication(owner, id);
    const contract = await getContract(owner, id);
    expect(contract).toMatchObject({
      id,
      application_id: id,
      status: "in_progress",
      price_cents: application.price_cents,
      delivery_days: application.delivery_days,
      merchant: { id: owner.id },
      freelancer: { id: applicant.id },
      deliveries_count: 0,
      cancel_request: null,
      overdue: false,
    });
    expect(Date.parse(contract.due_at) - Date.parse(contract.created_at)).toBe(application.delivery_days * DAY);
    expect(contract.events.map((e) => e.kind)).toEqual(["created"]);
    expect(contract.allowed_actions).toEqual(["cancel", "open_dispute"]);
    expect((await getContract(applicant, id)).allowed_actions).toEqual(["deliver", "cancel", "open_dispute"]);
  });

  it("is seen by its two sides only: anyone else gets 404", async () => {
    const { id } = await hired();
    const stranger = await freelancer();
    expect(await outcome(getContract(stranger, id))).toBe(404);
    expect(await outcome(deliver(stranger, id))).toBe(404);
    expect(await outcome(approveContract(stranger, id))).toBe(404);
  });
});

describe("deliver, ask for changes, deliver again, approve", () => {
  it("records every round in the timeline and notifies the other side each time", async () => {
    const { owner, applicant, id } = await hired();
    const first = await deliver(applicant, id, [
      new File([PNG_1X1], "capa.png"),
      new File([PDF], "../../escopo final.pdf"),
    ]);
    expect(first).toMatchObject({ kind: "delivered", author: "freelancer", seq: 2 });
    expect(first.files.map((f) => [f.name, f.content_type])).toEqual([
      ["capa.png", "image/png"],
      ["escopo final.pdf", "application/pdf"],
    ]);
    let row = await contractRow(id);
    expect(row).toMatchObject({ status: "delivered", deliveries_count: 1, reminded_at: null });
    expect(Date.parse(row.review_due_at!) - Date.parse(row.delivered_at!)).toBe(REVIEW_DAYS * DAY);
    expect((await getContract(owner, id)).allowed_actions).toEqual([
      "approve",
      "request_changes",
      "request_cancellation",
      "open_dispute",
    ]);

    await requestChanges(owner, id, { message: "Faltou a página de contato e o rodapé com o endereço." });
    row = await contractRow(id);
    expect(row).toMatchObject({ status: "in_progress", review_due_at: null, delivered_at: null, deliveries_count: 1 });
    expect((await getContract(applicant, id)).allowed_actions).toEqual([
      "deliver",
      "request_cancellation",
      "open_dispute",
    ]);

    await deliver(applicant, id);
    await approveContract(owner, id);
    const done = await getContract(applicant, id);
    expect(done).toMatchObject({ status: "completed", ended_by: "merchant", deliveries_count: 2, review_due_at: null });
    expect(done.events.map((e) => [e.seq, e.kind, e.author])).toEqual([
      [1, "created", "system"],
      [2, "delivered", "freelancer"],
      [3, "changes_requested", "merchant"],
      [4, "delivered", "freelancer"],
      [5, "completed", "merchant"],
    ]);
    expect(done.events[2].message).toBe("Faltou a página de contato e o rodapé com o endereço.");
    expect(done.allowed_actions).toEqual([]);

    const toMerchant = (await notificationsOf(owner)).map((n) => n.kind).filter((k) => k.startsWith("contract_"));
    const toFreelancer = (await notificationsOf(applicant)).map((n) => n.kind).filter((k) => k.startsWith("contract_"));
    expect(toMerchant).toEqual(["contract_delivered", "contract_delivered"]);
    expect(toFreelancer.sort()).toEqual(["contract_changes_requested", "contract_completed"]);
  });

  it("serves a delivered file to the two sides only, and not through the public photo route", async () => {
    const { owner, applicant, id } = await hired();
    const event = await deliver(applicant, id, [new File([PDF], "proposta.pdf")]);
    const fileId = event.files[0].id;
    for (const user of [owner, applicant]) {
      const file = await getContractFile(user, id, fileId);
      expect(file).toMatchObject({ name: "proposta.pdf", contentType: "application/pdf" });
      expect(Buffer.from(file.body).equals(PDF)).toBe(true);
    }
    expect(await outcome(getContractFile(await freelancer(), id, fileId))).toBe(404);
    // Another contract's file is not found through this one.
    const other = await hired();
    expect(await outcome(getContractFile(other.owner, other.id, fileId))).toBe(404);
  });

  it("checks files by content and count, and keeps nothing of a refused delivery", async () => {
    const { applicant, id } = await hired();
    const fake = new File([Buffer.from("not really a pdf, just text")], "relatorio.pdf", { type: "application/pdf" });
    const refused = await deliver(applicant, id, [new File([PNG_1X1], "ok.png"), fake]).catch((e) => e);
    expect(refused).toMatchObject({ status: 422, fieldErrors: { files: "file_invalid_type" } });
    const tooMany = Array.from({ length: 11 }, (_, i) => new File([PNG_1X1], `${i}.png`));
    expect(await deliver(applicant, id, tooMany).catch((e) => e)).toMatchObject({
      status: 422,
      fieldErrors: { files: "files_too_many" },
    });
    const big = new File([Buffer.alloc(10 * 1024 * 1024 + 1)], "grande.zip");
    expect(await outcome(deliver(applicant, id, [big]))).toBe(413);
    expect(await outcome(deliverContract(applicant, id, { message: "   " }))).toBe(422);
    // An empty message and a refused file: both in one answer, the message saying it is required.
    expect(await deliverContract(applicant, id, { message: "" }, [fake]).catch((e) => e)).toMatchObject({
      status: 422,
      fieldErrors: { message: "delivery_message_required", files: "file_invalid_type" },
    });
    expect(await filesOf(id)).toEqual([]);
    expect(await contractRow(id)).toMatchObject({ status: "in_progress", deliveries_count: 0, events_count: 1 });
  });

  it("removes the stored files when the delivery loses a race", async () => {
    const { owner, applicant, id } = await hired();
    await cancelContract(owner, id, { reason: "O projeto foi adiado pela diretoria." });
    const before = await storedFileCount();
    expect(await outcome(deliver(applicant, id, [new File([PNG_1X1], "a.png")]))).toBe(409);
    expect(await filesOf(id)).toEqual([]);
    expect(await storedFileCount()).toBe(before);
  });
});

describe("cancelling", () => {
  it("before any delivery: the merchant cancels or the freelancer withdraws, each with a reason", async () => {
    const a = await hired();
    expect(await outcome(cancelContract(a.owner, a.id, { reason: "" }))).toBe(422);
    await cancelContract(a.owner, a.id, { reason: "O projeto foi adiado pela diretoria." });
    expect(await contractRow(a.id)).toMatchObject({
      status: "cancelled",
      ended_by: "merchant",
      end_reason: "O projeto foi adiado pela diretoria.",
    });
    expect((await notificationsOf(a.applicant)).map((n) => n.kind)).toContain("contract_cancelled");

    const b = await hired();
    await cancelContract(b.applicant, b.id, { reason: "Não vou conseguir cumprir o prazo." });
    expect(await contractRow(b.id)).toMatchObject({ status: "cancelled", ended_by: "freelancer" });
    expect((await notificationsOf(b.owner)).map((n) => n.kind)).toContain("contract_cancelled");
  });

  it("after a delivery takes both sides: a request the other side accepts or declines", async () => {
    const { owner, applicant, id } = await hired();
    await deliver(applicant, id);
    expect(await outcome(cancelContract(owner, id, { reason: "Não gostei do resultado." }))).toBe(409);
    await requestCancellation(owner, id, { reason: "Não gostei do resultado final." });
    expect((await getContract(owner, id)).cancel_request).toEqual({
      by: "merchant",
      reason: "Não gostei do resultado final.",
    });
    // The one who asked cannot answer, nor ask twice.
    expect(await outcome(acceptCancellation(owner, id))).toBe(409);
    expect(await outcome(requestCancellation(owner, id, { reason: "De novo, por favor." }))).toBe(409);
    expect((await getContract(applicant, id)).allowed_actions).toEqual([
      "accept_cancellation",
      "decline_cancellation",
      "open_dispute",
    ]);
    await declineCancellation(applicant, id);
    expect(await contractRow(id)).toMatchObject({ status: "delivered", cancel_requested_by: null });

    await requestCancellation(applicant, id, { reason: "Acho melhor encerrarmos aqui." });
    await acceptCancellation(owner, id);
    expect(await contractRow(id)).toMatchObject({
      status: "cancelled",
      ended_by: "freelancer",
      end_reason: "Acho melhor encerrarmos aqui.",
      cancel_requested_by: null,
    });
    const kinds = (await getContract(owner, id)).events.map((e) => e.kind);
    expect(kinds).toEqual([
      "created",
      "delivered",
      "cancel_requested",
      "cancel_declined",
      "cancel_requested",
      "cancel_accepted",
    ]);
    expect((await notificationsOf(owner)).map((n) => n.kind)).toEqual(
      expect.arrayContaining(["contract_cancel_declined", "contract_cancel_requested"]),
    );
  });
});

/** A contract forced into a state, for the table below. */
async function inState(state: Partial<ContractRow>) {
  const setup = await hired();
  if (Object.keys(state).length) await db.updateTable("contracts").set(state).where("id", "=", setup.id).execute();
  return setup;
}

const STATES: Record<string, Partial<ContractRow>> = {
  in_progress: {},
  delivered: { status: "delivered", deliveries_count: 1, review_due_at: new Date(Date.now() + 9 * DAY).toISOString() },
  "in_progress after a delivery": { deliveries_count: 1 },
  "delivered, merchant asked to cancel": {
    status: "delivered",
    deliveries_count: 1,
    cancel_requested_by: "merchant",
    cancel_request_reason: "Motivo qualquer",
  },
  "delivered, under dispute": {
    status: "delivered",
    deliveries_count: 1,
    review_due_at: new Date(Date.now() + 9 * DAY).toISOString(),
    disputed_at: new Date().toISOString(),
  },
  completed: { status: "completed", deliveries_count: 1 },
  cancelled: { status: "cancelled" },
};

const ACTIONS: Record<ContractAction, (user: UserRow, id: string) => Promise<unknown>> = {
  deliver: (user, id) => deliver(user, id),
  approve: approveContract,
  request_changes: (user, id) => requestChanges(user, id, { message: "Ajustar as cores do cabeçalho." }),
  cancel: (user, id) => cancelContract(user, id, { reason: "Motivo de teste suficiente." }),
  request_cancellation: (user, id) => requestCancellation(user, id, { reason: "Motivo de teste suficiente." }),
  accept_cancellation: acceptCancellation,
  decline_cancellation: declineCancellation,
  fund: (user, id) => issueCharge(user, id),
  open_dispute: (user, id) =>
    openDispute(user, id, { reason: "quality", statement: "A entrega não segue o combinado." }),
  add_dispute_statement: (user, id) => addDisputeStatement(user, id, { statement: "Mais um fato sobre a entrega." }),
};

describe("allowedContractActions agrees with the moves (every action, side and state)", () => {
  for (const [name, state] of Object.entries(STATES)) {
    for (const side of ["merchant", "freelancer"] as const) {
      it(`${side}, ${name}`, async () => {
        const listed = await (async () => {
          const s = await inState(state);
          const user = side === "merchant" ? s.owner : s.applicant;
          return allowedContractActions(user, {
            ...(await contractRow(s.id)),
            merchant: { id: s.owner.id },
            freelancer: { id: s.applicant.id },
          });
        })();
        for (const action of Object.keys(ACTIONS) as ContractAction[]) {
          const s = await inState(state);
          const user = side === "merchant" ? s.owner : s.applicant;
          const status = await outcome(ACTIONS[action](user, s.id));
          expect([action, status === 200]).toEqual([action, listed.includes(action)]);
          if (status !== 200) expect([403, 409]).toContain(status);
        }
      });
    }
  }
});

describe("races: one winner, 409 for the other", () => {
  it("a double click on approve", async () => {
    const { owner, applicant, id } = await hired();
    await deliver(applicant, id);
    const results = await Promise.all([outcome(approveContract(owner, id)), outcome(approveContract(owner, id))]);
    expect(results.sort()).toEqual([200, 409]);
    expect((await getContract(owner, id)).events.filter((e) => e.kind === "completed")).toHaveLength(1);
  });

  it("approve against a change request, and a delivery against a cancellation", async () => {
    const a = await hired();
    await deliver(a.applicant, a.id);
    const moves = await Promise.all([
      outcome(approveContract(a.owner, a.id)),
      outcome(requestChanges(a.owner, a.id, { message: "Trocar a fonte dos títulos." })),
    ]);
    expect(moves.sort()).toEqual([200, 409]);

    const b = await hired();
    const other = await Promise.all([
      outcome(deliver(b.applicant, b.id)),
      outcome(cancelContract(b.owner, b.id, { reason: "Mudança de planos na empresa." })),
    ]);
    expect(other.sort()).toEqual([200, 409]);
    const events = (await getContract(b.owner, b.id)).events;
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
  });
});

describe("the schedule", () => {
  beforeEach(onlyNewContracts);

  it("reminds the merchant at 5 days left, then completes the delivery after 14 days, once", async () => {
    const { owner, applicant, id } = await hired();
    await deliver(applicant, id);
    const deliveredAt = Date.parse((await contractRow(id)).delivered_at!);

    expect(await runContractSchedule(new Date(deliveredAt + 8 * DAY))).toEqual({
      completed: 0,
      reminded: 0,
      overdue: 0,
    });
    expect(await runContractSchedule(new Date(deliveredAt + 9 * DAY + 60_000))).toMatchObject({ reminded: 1 });
    expect(await runContractSchedule(new Date(deliveredAt + 10 * DAY))).toMatchObject({ reminded: 0 });
    expect((await notificationsOf(owner)).filter((n) => n.kind === "contract_review_reminder")).toHaveLength(1);

    // Two server processes running the schedule at once: the contract is completed once.
    const at = new Date(deliveredAt + REVIEW_DAYS * DAY + 1000);
    const runs = await Promise.all([runContractSchedule(at), runContractSchedule(at)]);
    expect(runs.map((r) => r.completed).sort()).toEqual([0, 1]);
    const contract = await getContract(owner, id);
    expect(contract).toMatchObject({ status: "completed", ended_by: "system" });
    expect(contract.events.at(-1)).toMatchObject({ kind: "auto_completed", author: "system" });
    for (const user of [owner, applicant]) {
      expect((await notificationsOf(user)).filter((n) => n.kind === "contract_auto_completed")).toHaveLength(1);
    }
  });

  it("a change request stops the clock; a new delivery starts it again", async () => {
    const { owner, applicant, id } = await hired();
    await deliver(applicant, id);
    await requestChanges(owner, id, { message: "Ajustes no layout do celular." });
    expect(await runContractSchedule(new Date(Date.now() + 30 * DAY))).toMatchObject({ completed: 0 });
    expect((await contractRow(id)).status).toBe("in_progress");
  });

  it("does not complete a delivery while a cancellation request waits for an answer", async () => {
    const { owner, applicant, id } = await hired();
    await deliver(applicant, id);
    await requestCancellation(owner, id, { reason: "A entrega não atende ao escopo." });
    expect(await runContractSchedule(new Date(Date.now() + 20 * DAY))).toMatchObject({ completed: 0, reminded: 0 });
    expect((await contractRow(id)).status).toBe("delivered");
  });

  it("marks work past its due date as overdue, once, and tells both sides", async () => {
    const { owner, applicant, id } = await hired();
    const due = Date.parse((await contractRow(id)).due_at);
    expect(await runContractSchedule(new Date(due - 1000))).toMatchObject({ overdue: 0 });
    const runs = await Promise.all([
      runContractSchedule(new Date(due + 1000)),
      runContractSchedule(new Date(due + 2000)),
    ]);
    expect(runs.map((r) => r.overdue).sort()).toEqual([0, 1]);
    expect(await contractRow(id)).toMatchObject({ status: "in_progress" });
    expect((await contractRow(id)).overdue_at).not.toBeNull();
    expect((await getContract(owner, id)).overdue).toBe(true);
    for (const user of [owner, applicant]) {
      expect((await notificationsOf(user)).filter((n) => n.kind === "contract_overdue")).toHaveLength(1);
    }
    // Late work can still be delivered.
    expect(await outcome(deliver(applicant, id))).toBe(200);
  });
});

describe("listing", () => {
  it("lists the user's own contracts, filtered by status, with counts", async () => {
    const a = await hired();
    const b = await hired();
    await deliver(b.applicant, b.id);
    const mine = await listContracts(a.owner, {});
    expect(mine.data.map((c) => c.id)).toEqual([a.id]);
    expect(mine.counts).toEqual({ in_progress: 1, delivered: 0, completed: 0, cancelled: 0 });
    expect((await listContracts(b.applicant, { status: "delivered" })).data.map((c) => c.id)).toEqual([b.id]);
    expect((await listContracts(b.applicant, { status: "completed" })).data).toEqual([]);
    expect(await outcome(listContracts(a.owner, { status: "lost" }))).toBe(422);
  });
});

describe("after every test above", () => {
  it("every accepted application has its contract and every timeline is numbered 1…n", async () => {
    const missing = await db
      .selectFrom("applications")
      .leftJoin("contracts", "contracts.id", "applications.id")
      .select("applications.id")
      .where("applications.status", "=", "accepted")
      .where("contracts.id", "is", null)
      .execute();
    expect(missing).toEqual([]);
    const contracts = await db.selectFrom("contracts").select(["id", "events_count"]).execute();
    for (const c of contracts) {
      const seqs = (
        await db.selectFrom("contract_events").select("seq").where("contract_id", "=", c.id).orderBy("seq").execute()
      ).map((e) => e.seq);
      expect(seqs).toEqual(Array.from({ length: c.events_count }, (_, i) => i + 1));
    }
    const files = await db.selectFrom("contract_files").select("stored_name").execute();
    for (const f of files) expect(await readAttachment(f.stored_name)).not.toBeNull();
    expect(await brokenInvariants()).toEqual([]);
  });
});
