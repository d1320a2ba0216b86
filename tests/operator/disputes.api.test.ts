import { describe, expect, it } from "vitest";
import { createSession } from "~/services/accounts/sessions.server";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { deliverContract } from "~/services/contracts/contracts.server";
import * as openApi from "~/routes/api+/contracts+/$id.disputes";
import * as statementApi from "~/routes/api+/contracts+/$id.disputes.statements";
import * as contractApi from "~/routes/api+/contracts+/$id";
import * as queueApi from "~/routes/api+/admin+/disputes._index";
import * as caseApi from "~/routes/api+/admin+/disputes.$id";
import * as decisionApi from "~/routes/api+/admin+/disputes.$id.decision";
import { negotiation } from "../support/market";
import { auditCount, get, post, signedInOperator } from "./support";

/** A delivered contract and its two sides' tokens. */
async function deliveredContract() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  await deliverContract(applicant, application.id, { message: "Segue a entrega do site." });
  const [m, f] = await Promise.all([createSession(owner.id), createSession(applicant.id)]);
  return { id: application.id, merchant: m.token, freelancer: f.token };
}

const opening = { reason: "quality", statement: "Faltam as páginas que combinamos." };

describe("disputes by the API", () => {
  it("open → statement → queue → record → decision, seen by both sides", async () => {
    const c = await deliveredContract();
    const opened = await post(openApi, "/x", c.merchant, opening, { id: c.id });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      message: "Disputa aberta. A equipe do Freela vai analisar o contrato.",
      data: { disputed: true, dispute: { status: "open", opened_by: "merchant" } },
    });
    const again = await post(openApi, "/x", c.freelancer, opening, { id: c.id });
    expect(again.status).toBe(409);
    const answered = await post(statementApi, "/x", c.freelancer, { statement: "Entreguei tudo." }, { id: c.id });
    expect(answered.status).toBe(201);
    expect((await post(statementApi, "/x", c.freelancer, { statement: "" }, { id: c.id })).status).toBe(422);

    const operator = await signedInOperator();
    const queue = await get(queueApi, "/api/admin/disputes", operator.token);
    expect(queue.status).toBe(200);
    const item = queue.body.data.find((d: { contract_id: string }) => d.contract_id === c.id);
    expect(item).toMatchObject({ status: "open", contract_status: "delivered" });
    const record = await get(caseApi, "/x", operator.token, { id: item.id });
    expect(record.body.data.contract.events.map((e: { kind: string }) => e.kind)).toEqual([
      "created",
      "delivered",
      "dispute_opened",
      "dispute_statement",
    ]);

    const before = await auditCount();
    const bad = await post(decisionApi, "/x", operator.token, { decision: "complete", reason: "" }, { id: item.id });
    expect(bad.status).toBe(422);
    const reason = "A entrega cobre o que foi combinado.";
    const decided = await post(decisionApi, "/x", operator.token, { decision: "complete", reason }, { id: item.id });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({ contract_status: "completed", dispute: { decision: "complete" } });
    expect(await auditCount()).toBe(before + 1);
    const late = await post(decisionApi, "/x", operator.token, { decision: "cancel", reason }, { id: item.id });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Esta disputa já foi decidida por outro operador.");

    for (const token of [c.merchant, c.freelancer]) {
      const seen = await get(contractApi, "/x", token, { id: c.id });
      expect(seen.body.data).toMatchObject({
        status: "completed",
        dispute: { status: "decided", decision: "complete", decision_reason: reason },
      });
    }
  });

  it("the console's endpoints are 404 to merchants and freelancers, 401 to visitors", async () => {
    const c = await deliveredContract();
    const opened = await post(openApi, "/x", c.freelancer, opening, { id: c.id });
    const id = opened.body.data.dispute.id as string;
    for (const token of [c.merchant, c.freelancer]) {
      expect((await get(queueApi, "/api/admin/disputes", token)).status).toBe(404);
      expect((await get(caseApi, "/x", token, { id })).status).toBe(404);
      expect(
        (await post(decisionApi, "/x", token, { decision: "cancel", reason: "Quero cancelar." }, { id })).status,
      ).toBe(404);
    }
    expect((await get(queueApi, "/api/admin/disputes", undefined)).status).toBe(401);
    const operator = await signedInOperator();
    expect((await get(caseApi, "/x", operator.token, { id: "nope" })).status).toBe(404);
    expect((await get(queueApi, "/api/admin/disputes?status=whatever", operator.token)).status).toBe(422);
  });

  it("two operators deciding at once: one 200, one 409", async () => {
    const c = await deliveredContract();
    const opened = await post(openApi, "/x", c.merchant, opening, { id: c.id });
    const id = opened.body.data.dispute.id as string;
    const [a, b] = await Promise.all([signedInOperator("Ana"), signedInOperator("Bia")]);
    const results = await Promise.all([
      post(decisionApi, "/x", a.token, { decision: "complete", reason: "Entrega conforme." }, { id }),
      post(decisionApi, "/x", b.token, { decision: "cancel", reason: "Entrega incompleta." }, { id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
