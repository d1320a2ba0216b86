import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { DISPUTE_RESPONSE_DAYS } from "~/lib/disputes";
import { REVIEW_DAYS } from "~/lib/market-schemas";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import {
  approveContract,
  deliverContract,
  getContract,
  runContractSchedule,
} from "~/services/contracts/contracts.server";
import { addDisputeStatement, openDispute, runDisputeReminders } from "~/services/contracts/disputes.server";
import { decideDispute, getDisputeCase, listDisputes } from "~/services/operator/disputes.server";
import { PNG_1X1 } from "../support/fixtures";
import { brokenInvariants, negotiation, notificationsOf, outcome } from "../support/market";
import { auditCount, auditRows, signedInOperator } from "../operator/support";

const DAY = 86_400_000;

async function hired() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, id: application.id };
}

async function delivered() {
  const setup = await hired();
  await deliverContract(setup.applicant, setup.id, { message: "Segue a entrega completa do site." });
  return setup;
}

const contractRow = (id: string) =>
  db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const disputeOf = (id: string) =>
  db.selectFrom("disputes").selectAll().where("contract_id", "=", id).executeTakeFirstOrThrow();
/** The reminders look at every dispute: those of earlier tests are marked reminded first. */
const onlyNewDisputes = () =>
  db.updateTable("disputes").set({ reminded_at: new Date().toISOString() }).where("reminded_at", "is", null).execute();

const opening = { reason: "quality", statement: "A entrega não tem as páginas combinadas." };

describe("opening a dispute", () => {
  it("freezes the contract's moves and its automatic completion until an operator decides", async () => {
    const { owner, applicant, id } = await delivered();
    const png = new Blob([PNG_1X1], { type: "image/png" });
    const { dispute, event } = await openDispute(owner, id, opening, [png]);
    expect(dispute).toMatchObject({ status: "open", opened_by: "merchant", reason: "quality", decision: null });
    expect(Date.parse(dispute.respond_by) - Date.parse(dispute.created_at)).toBe(DISPUTE_RESPONSE_DAYS * DAY);
    expect(event).toMatchObject({ kind: "dispute_opened", author: "merchant", message: opening.statement });
    expect(event.files).toHaveLength(1);

    const seen = await getContract(applicant, id);
    expect(seen).toMatchObject({ disputed: true, dispute: { status: "open" } });
    expect(seen.allowed_actions).toEqual(["add_dispute_statement"]);
    expect(await outcome(approveContract(owner, id))).toBe(409);
    expect(await outcome(openDispute(applicant, id, opening))).toBe(409);
    expect((await notificationsOf(applicant)).map((n) => n.kind)).toContain("contract_dispute_opened");

    // Long past the review period: still delivered, waiting for the operator.
    const row = await contractRow(id);
    const late = new Date(Date.parse(row.review_due_at!) + REVIEW_DAYS * DAY);
    expect(await runContractSchedule(late)).toEqual({ completed: 0, reminded: 0, overdue: 0 });
    expect((await contractRow(id)).status).toBe("delivered");
    expect(await brokenInvariants()).toEqual([]);
  });

  it("only on a contract in progress or delivered, only by its sides, and once at a time", async () => {
    const { owner, applicant, id } = await hired();
    const stranger = (await negotiation("pending")).owner;
    expect(await outcome(openDispute(stranger, id, opening))).toBe(404);
    expect(await outcome(openDispute(owner, "not-a-uuid", opening))).toBe(404);
    expect(await outcome(openDispute(owner, id, { reason: "nope", statement: "x" }))).toBe(422);
    const both = await Promise.all([openDispute(owner, id, opening), openDispute(applicant, id, opening)].map(outcome));
    expect(both.sort()).toEqual([200, 409]);
    expect(await db.selectFrom("disputes").select("id").where("contract_id", "=", id).execute()).toHaveLength(1);

    const done = await delivered();
    await approveContract(done.owner, done.id);
    expect(await outcome(openDispute(done.owner, done.id, opening))).toBe(409);
  });
});

describe("statements", () => {
  it("come from both sides; the other side's first one is its answer, which stops the reminder", async () => {
    const { owner, applicant, id } = await delivered();
    await onlyNewDisputes();
    await openDispute(owner, id, opening);
    await addDisputeStatement(owner, id, { statement: "Acrescento o print da conversa." });
    expect((await disputeOf(id)).answered_at).toBeNull();
    const answer = await addDisputeStatement(applicant, id, { statement: "Entreguei tudo o que foi combinado." }, [
      new Blob([PNG_1X1], { type: "image/png" }),
    ]);
    expect(answer).toMatchObject({ kind: "dispute_statement", author: "freelancer" });
    expect((await disputeOf(id)).answered_at).not.toBeNull();
    const at = new Date(Date.parse((await disputeOf(id)).respond_by) - DAY);
    expect(await runDisputeReminders(at)).toBe(0);
    expect((await notificationsOf(owner)).map((n) => n.kind)).toContain("contract_dispute_statement");
  });

  it("the side that has not answered is reminded once, 2 days before the deadline, by one server", async () => {
    const { owner, applicant, id } = await delivered();
    await onlyNewDisputes();
    await openDispute(applicant, id, opening);
    const respondBy = Date.parse((await disputeOf(id)).respond_by);
    expect(await runDisputeReminders(new Date(respondBy - 3 * DAY))).toBe(0);
    const at = new Date(respondBy - 2 * DAY + 1000);
    const runs = await Promise.all([runDisputeReminders(at), runDisputeReminders(at)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runDisputeReminders(new Date(respondBy))).toBe(0);
    expect((await notificationsOf(owner)).filter((n) => n.kind === "contract_dispute_reminder")).toHaveLength(1);
    expect((await notificationsOf(applicant)).filter((n) => n.kind === "contract_dispute_reminder")).toHaveLength(0);
  });
});

describe("the operator's decision", () => {
  it("complete: final, shown to both sides, notified, one audit row; the queue and the record", async () => {
    const { owner, applicant, id } = await delivered();
    const { dispute } = await openDispute(owner, id, opening);
    const { user: operator } = await signedInOperator();

    const queue = await listDisputes({});
    expect(queue.data.map((d) => d.id)).toContain(dispute.id);
    const record = await getDisputeCase(dispute.id);
    expect(record.contract.events.map((e) => e.kind)).toEqual(["created", "delivered", "dispute_opened"]);
    expect(record.decisions).toEqual(["complete", "cancel"]);

    expect(await outcome(decideDispute(operator, dispute.id, { decision: "complete" }))).toBe(422);
    expect(await outcome(decideDispute(operator, dispute.id, { decision: "split", reason: "Metade." }))).toBe(422);
    expect(await outcome(decideDispute(operator, dispute.id, { decision: "toString", reason: "Motivo." }))).toBe(422);
    const before = await auditCount();
    const reason = "As páginas combinadas estão na entrega.";
    const decided = await decideDispute(operator, dispute.id, { decision: "complete", reason });
    expect(decided).toMatchObject({
      contract_status: "completed",
      dispute: { status: "decided", decision: "complete" },
    });
    expect(await auditCount()).toBe(before + 1);
    expect((await auditRows()).at(-1)).toMatchObject({
      action: "dispute.decide",
      target_type: "dispute",
      target_id: dispute.id,
      actor_id: operator.id,
      reason,
    });

    for (const user of [owner, applicant]) {
      const seen = await getContract(user, id);
      expect(seen).toMatchObject({
        status: "completed",
        disputed: false,
        dispute: { status: "decided", decision: "complete", decision_reason: reason },
      });
      expect(seen.events.at(-1)).toMatchObject({ kind: "dispute_decided", author: "system", message: reason });
      expect(seen.allowed_actions).toEqual([]);
      const notice = (await notificationsOf(user)).find((n) => n.kind === "contract_dispute_decided");
      expect(notice).toBeTruthy();
    }
    const mails = await db
      .selectFrom("outbox")
      .select("user_id")
      .where("kind", "=", "contract_dispute_decided")
      .execute();
    expect(mails.map((m) => m.user_id).sort()).toEqual([owner.id, applicant.id].sort());

    // Final: no second decision.
    expect(await outcome(decideDispute(operator, dispute.id, { decision: "cancel", reason: "Mudei de ideia." }))).toBe(
      409,
    );
    expect(
      await outcome(
        decideDispute(operator, "00000000-0000-4000-8000-000000000000", { decision: "cancel", reason: "Motivo." }),
      ),
    ).toBe(404);
    expect(await brokenInvariants()).toEqual([]);
  });

  it("cancel ends the contract with the reason", async () => {
    const { owner, applicant, id } = await hired();
    const { dispute } = await openDispute(applicant, id, opening);
    const { user: operator } = await signedInOperator();
    await decideDispute(operator, dispute.id, { decision: "cancel", reason: "O cliente sumiu do projeto." });
    expect(await contractRow(id)).toMatchObject({
      status: "cancelled",
      ended_by: "system",
      end_reason: "O cliente sumiu do projeto.",
      disputed_at: null,
    });
    expect((await getContract(owner, id)).dispute).toMatchObject({ decision: "cancel" });
  });

  it("two operators at once: one decides, the other gets 409, one audit row", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, id } = await delivered();
      const { dispute } = await openDispute(owner, id, opening);
      const [a, b] = await Promise.all([signedInOperator("Ana"), signedInOperator("Bia")]);
      const before = await auditCount();
      const results = await Promise.all([
        outcome(decideDispute(a.user, dispute.id, { decision: "complete", reason: "Entrega conforme." })),
        outcome(decideDispute(b.user, dispute.id, { decision: "cancel", reason: "Entrega incompleta." })),
      ]);
      expect(results.sort()).toEqual([200, 409]);
      expect(await auditCount()).toBe(before + 1);
    }
  });
});
