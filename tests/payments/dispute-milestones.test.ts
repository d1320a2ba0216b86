import { beforeAll, describe, expect, it } from "vitest";
import * as disputesRoute from "~/routes/api+/contracts+/$id.disputes";
import * as proposalsRoute from "~/routes/api+/contracts+/$id.milestones.proposals";
import { createSession } from "~/services/accounts/sessions.server";
import { getContract } from "~/services/contracts/contracts.server";
import { openDispute } from "~/services/contracts/disputes.server";
import { decideDispute } from "~/services/operator/disputes.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { answerMilestone, proposeMilestone, splitMilestones } from "~/services/payments/milestones.server";
import { notificationsOf, outcome } from "../support/market";
import { drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import { post, signedInOperator } from "../operator/support";
import { escrow, fund, hired, milestonesOf } from "./support";

// Disputes on contracts paid by milestones: one open at a time, a new one possible on a later
// milestone once the earlier one is decided; while one is open every move is frozen, milestone
// proposals and splits included; the history keeps each line's value of its moment.

beforeAll(() => escrow(1_000));

const opening = { reason: "quality", statement: "A entrega não tem as páginas combinadas." };
const decision = (kind: string, more: Record<string, unknown> = {}) => ({
  decision: kind,
  reason: "Decisão tomada a partir das provas enviadas pelas duas partes.",
  ...more,
});

async function twoMilestones() {
  const setup = await hired();
  const price = (await milestonesOf(setup.id))[0].amount_cents;
  await splitMilestones(setup.owner, setup.id, {
    milestones: [
      { title: "Primeira parte", amount_cents: price / 2, days: 5 },
      { title: "Segunda parte", amount_cents: price / 2, days: 5 },
    ],
  });
  return { ...setup, price };
}

describe("a dispute per milestone", () => {
  it("a later milestone's money is disputable once the first dispute is decided; one open at a time (409)", async () => {
    const op = await signedInOperator();
    const { owner, applicant, id } = await twoMilestones();
    const [first, second] = await milestonesOf(id);
    await fund(owner, id);
    const one = await openDispute(owner, id, opening);
    expect(one.dispute.milestone_id).toBe(first.id);
    await decideDispute(op.user, one.dispute.id, decision("complete"));
    expect((await getContract(owner, id)).status).toBe("in_progress");

    await fund(owner, id);
    expect((await getContract(applicant, id)).allowed_actions).toContain("open_dispute");
    const token = (await createSession(applicant.id)).token;
    const opened = await post(disputesRoute, `/api/contracts/${id}/disputes`, token, opening, { id });
    expect(opened.status).toBe(201);
    const contract = await getContract(owner, id);
    expect(contract.dispute).toMatchObject({ status: "open", opened_by: "freelancer", milestone_id: second.id });
    expect(contract.allowed_actions).not.toContain("open_dispute");
    const again = await post(disputesRoute, `/api/contracts/${id}/disputes`, token, opening, { id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Há uma disputa aberta neste contrato: ele aguarda a decisão da equipe do Freela.");

    await decideDispute(
      op.user,
      contract.dispute!.id,
      decision("split", { freelancer_cents: second.amount_cents / 4 }),
    );
    const ended = await getContract(owner, id);
    expect(ended.status).toBe("cancelled");
    expect(ended.allowed_actions).not.toContain("open_dispute");
    expect(await outcome(openDispute(owner, id, opening))).toBe(409);
    expect(await checkLedger()).toEqual([]);
  });

  it("two sides opening at once: one dispute, the other 409", async () => {
    const { owner, applicant, id } = await twoMilestones();
    await fund(owner, id);
    const both = await Promise.all([openDispute(owner, id, opening), openDispute(applicant, id, opening)].map(outcome));
    expect(both.sort()).toEqual([200, 409]);
  });
});

describe("while a dispute is open", () => {
  it("freezes milestone proposals, their answers and splits (409 in Portuguese); history keeps its values", async () => {
    const { owner, applicant, id, price } = await twoMilestones();
    // A proposal made before the dispute cannot be answered during it.
    const proposal = await proposeMilestone(applicant, id, { title: "Ajustes extras", amount_cents: 10_000, days: 3 });
    await fund(owner, id);
    await openDispute(owner, id, opening);

    const token = (await createSession(owner.id)).token;
    const proposed = await post(
      proposalsRoute,
      `/api/contracts/${id}/milestones/proposals`,
      token,
      { title: "Mais uma etapa", amount_cents: 10_000, days: 3 },
      { id },
    );
    expect(proposed.status).toBe(409);
    expect(proposed.body.message).toBe(
      "Há uma disputa aberta neste contrato: ele aguarda a decisão da equipe do Freela.",
    );
    expect(await outcome(answerMilestone(owner, id, proposal.id, true))).toBe(409);
    expect(await outcome(answerMilestone(owner, id, proposal.id, false))).toBe(409);
    expect(
      await outcome(
        splitMilestones(owner, id, { milestones: [{ title: "Tudo de uma vez", amount_cents: price, days: 1 }] }),
      ),
    ).toBe(409);
    const frozen = await getContract(owner, id);
    expect(frozen.price_cents).toBe(price);
    expect(frozen.milestones.find((m) => m.id === proposal.id)?.status).toBe("proposed");
  });

  it("after it: a milestone added later does not rewrite the hire's line; a split decision shows the refund", async () => {
    const op = await signedInOperator();
    const { owner, applicant, id, price } = await twoMilestones();
    const proposal = await proposeMilestone(applicant, id, { title: "Ajustes extras", amount_cents: 10_000, days: 3 });
    await answerMilestone(owner, id, proposal.id, true);
    const contract = await getContract(owner, id);
    expect(contract.price_cents).toBe(price + 10_000);
    expect(contract.events[0]).toMatchObject({ kind: "created", amount_cents: price });
    expect(contract.events.find((e) => e.kind === "milestone_added")).toMatchObject({ amount_cents: 10_000 });

    await fund(owner, id);
    const { dispute } = await openDispute(applicant, id, opening);
    const half = price / 2;
    await decideDispute(op.user, dispute.id, decision("split", { freelancer_cents: half / 4 }));
    const after = await getContract(owner, id);
    expect(after.milestones[0]).toMatchObject({
      status: "released",
      released_cents: half / 4,
      refunded_cents: half - half / 4,
      fee_cents: half / 40,
      net_cents: half / 4 - half / 40,
    });
    // The amounts in both sides' notice and e-mail.
    const notice = (await notificationsOf(owner)).find((n) => n.kind === "contract_dispute_decided");
    expect(JSON.parse(notice!.detail!)).toMatchObject({ released_cents: half / 4, refunded_cents: half - half / 4 });
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail), limit: 1_000 });
    for (const who of [owner, applicant]) {
      const mails = sent.filter((m) => m.to === who.email && m.text.includes("decidiu a disputa"));
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toMatch(
        /375,00 liberados ao freelancer, R\$\s1\.125,00 devolvidos ao contratante\)\. Motivo: /,
      );
    }
    // The milestones never funded end with nothing to receive.
    expect(after.milestones.slice(1).map((m) => [m.status, m.fee_cents, m.net_cents])).toEqual([
      ["cancelled", 0, 0],
      ["cancelled", 0, 0],
    ]);
    expect(await checkLedger()).toEqual([]);
  });
});
