import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import * as page from "~/routes/admin+/payments";
import * as queuesRoute from "~/routes/api+/admin+/payments._index";
import * as confirmRoute from "~/routes/api+/admin+/payments.charges.$id.confirm";
import * as paidRoute from "~/routes/api+/admin+/payments.payouts.$id.paid";
import * as failedRoute from "~/routes/api+/admin+/payments.payouts.$id.failed";
import * as refundRoute from "~/routes/api+/admin+/payments.refunds.$id.paid";
import { approveContract, cancelContract } from "~/services/contracts/contracts.server";
import { issueCharge } from "~/services/payments/charges.server";
import { balancesOf, checkLedger } from "~/services/payments/ledger.server";
import { requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import { confirmPixReceipt } from "~/services/operator/payments.server";
import { signedInUser } from "../support/helpers";
import { outcome } from "../support/market";
import { deliver, e2eId, escrow, fund, hired, milestonesOf, verifiedPayee } from "../payments/support";
import { auditRows, get, post, postForm, signedInOperator } from "./support";

// The operator's payments desk: the three queues, each move with its audit row in the same
// transaction, one winner of two operators, and Portuguese refusals on the API and the page.

beforeAll(() => escrow(1_000));

const auditOf = async (target_id: string) => (await auditRows()).filter((r) => r.target_id === target_id);

async function chargeWaiting() {
  const { owner, applicant, id } = await hired();
  const { charge } = await issueCharge(owner, id);
  return { owner, applicant, id, charge };
}

async function payoutRequested() {
  const { owner, applicant, id } = await hired();
  await setPayoutAccount(applicant, {
    key_type: "email",
    pix_key: "recebe@example.com",
    holder_name: "Pessoa Recebedora",
    holder_document: await verifiedPayee(applicant),
  });
  await fund(owner, id);
  await deliver(applicant, id);
  await approveContract(owner, id);
  return { applicant, payout: await requestPayout(applicant) };
}

async function refundDue() {
  const { owner, id } = await hired();
  await fund(owner, id);
  await cancelContract(owner, id, { reason: "O projeto foi suspenso pela diretoria." });
  const refund = await db.selectFrom("refunds").selectAll().where("contract_id", "=", id).executeTakeFirstOrThrow();
  return { owner, refund };
}

describe("/api/admin/payments", () => {
  it("lists the three queues to an operator, oldest first; 404 to merchants and freelancers, 401 to visitors", async () => {
    const op = await signedInOperator();
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const { charge } = await chargeWaiting();
    const { payout } = await payoutRequested();
    const { refund } = await refundDue();

    const queues = await get(queuesRoute, "/api/admin/payments", op.token);
    expect(queues.status).toBe(200);
    expect(queues.body.payments).toBe("escrow");
    expect(queues.body.receipts.map((r: { id: string }) => r.id)).toContain(charge.id);
    const receipt = queues.body.receipts.find((r: { id: string }) => r.id === charge.id);
    expect(receipt).toMatchObject({ amount_cents: charge.amount_cents, txid: charge.txid });
    expect(receipt.merchant.email).toMatch(/@/);
    const listedPayout = queues.body.payouts.find((p: { id: string }) => p.id === payout.id);
    expect(listedPayout).toMatchObject({ pix_key: "recebe@example.com", amount_cents: payout.amount_cents });
    // An e-mail key with the manual provider: the operator checks its holder at the bank.
    expect(listedPayout).toMatchObject({ holder_check: "check_at_bank", verified_document: payout.holder_document });
    const listedRefund = queues.body.refunds.find((r: { id: string }) => r.id === refund.id);
    expect(listedRefund).toMatchObject({ amount_cents: refund.amount_cents });
    expect(listedRefund.charge_e2e_id).toMatch(/^E/);

    expect((await get(queuesRoute, "/api/admin/payments", merchant.token)).status).toBe(404);
    expect((await get(queuesRoute, "/api/admin/payments", freelancer.token)).status).toBe(404);
    expect((await get(queuesRoute, "/api/admin/payments")).status).toBe(401);
    const params = { id: charge.id };
    const path = `/api/admin/payments/charges/${charge.id}/confirm`;
    const body = { e2e_id: e2eId(), amount_cents: charge.amount_cents };
    expect((await post(confirmRoute, path, merchant.token, body, params)).status).toBe(404);
    expect((await post(confirmRoute, path, undefined, body, params)).status).toBe(401);
  });

  it("confirms a receipt once, with its audit row; bad input is a Portuguese 422, a second confirmation 409", async () => {
    const op = await signedInOperator();
    const { id, charge } = await chargeWaiting();
    const params = { id: charge.id };
    const path = `/api/admin/payments/charges/${charge.id}/confirm`;

    const badId = await post(
      confirmRoute,
      path,
      op.token,
      { e2e_id: "123", amount_cents: charge.amount_cents },
      params,
    );
    expect(badId.status).toBe(422);
    expect(badId.body.errors.e2e_id).toContain("identificador fim a fim");
    const wrongAmount = await post(confirmRoute, path, op.token, { e2e_id: e2eId(), amount_cents: 1 }, params);
    expect(wrongAmount.status).toBe(422);
    expect(wrongAmount.body.errors.amount_cents).toBe("O valor recebido é diferente do valor da cobrança.");
    const noAmount = await post(confirmRoute, path, op.token, { e2e_id: e2eId(), amount_cents: "muito" }, params);
    expect(noAmount.status).toBe(422);
    expect(await auditOf(charge.id)).toEqual([]);

    const e2e = e2eId();
    const ok = await post(confirmRoute, path, op.token, { e2e_id: e2e, amount_cents: charge.amount_cents }, params);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Recebimento confirmado.");
    expect(ok.body.data.settlement).toBe("funded");
    expect((await milestonesOf(id))[0].status).toBe("funded");
    const [row] = await auditOf(charge.id);
    expect(row).toMatchObject({ action: "charge.confirm", target_type: "charge", actor_id: op.user.id });
    expect(JSON.parse(row.after!)).toMatchObject({ status: "paid", e2e_id: e2e, amount_cents: charge.amount_cents });

    const again = await post(
      confirmRoute,
      path,
      op.token,
      { e2e_id: e2eId(), amount_cents: charge.amount_cents },
      params,
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Esta cobrança já foi paga.");
    expect(await auditOf(charge.id)).toHaveLength(1);

    const unknown = "00000000-0000-4000-8000-000000000999";
    const missing = await post(
      confirmRoute,
      `/api/admin/payments/charges/${unknown}/confirm`,
      op.token,
      { e2e_id: e2eId(), amount_cents: 100 },
      { id: unknown },
    );
    expect(missing.status).toBe(404);
    expect((await post(confirmRoute, "/x", op.token, {}, { id: "nope" })).status).toBe(404);
    expect(await checkLedger()).toEqual([]);
  });

  it("two operators confirming the same receipt at once: one wins, the other 409; credited and audited once", async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await signedInOperator("Ana Operadora"), await signedInOperator("Bruno Operador")];
      const { owner, charge } = await chargeWaiting();
      const statuses = await Promise.all(
        [a.user, b.user].map((who: UserRow) =>
          outcome(confirmPixReceipt(who, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents })),
        ),
      );
      expect(statuses.sort()).toEqual([200, 409]);
      expect(await auditOf(charge.id)).toHaveLength(1);
      expect((await balancesOf(owner)).held_cents).toBe(charge.amount_cents);
    }
    expect(await checkLedger()).toEqual([]);
  }, 60_000);

  it("marks a payout paid (end-to-end id) or failed (reason: the money returns), once each", async () => {
    const op = await signedInOperator();
    const first = await payoutRequested();
    const params = { id: first.payout.id };
    const paidPath = `/api/admin/payments/payouts/${first.payout.id}/paid`;
    expect((await post(paidRoute, paidPath, op.token, { e2e_id: "" }, params)).status).toBe(422);
    const e2e = e2eId();
    const paid = await post(paidRoute, paidPath, op.token, { e2e_id: e2e }, params);
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: "paid", e2e_id: e2e });
    expect((await balancesOf(first.applicant)).paid_out_cents).toBe(first.payout.amount_cents);
    const late = await post(failedRoute, paidPath, op.token, { reason: "Chave Pix encerrada no banco." }, params);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Este repasse já foi pago ou marcado como falho.");

    const second = await payoutRequested();
    const failPath = `/api/admin/payments/payouts/${second.payout.id}/failed`;
    const short = await post(failedRoute, failPath, op.token, { reason: "x" }, { id: second.payout.id });
    expect(short.status).toBe(422);
    expect(short.body.errors.reason).toBe("Explique o motivo em 5 a 500 caracteres.");
    const failed = await post(
      failedRoute,
      failPath,
      op.token,
      { reason: "Chave Pix encerrada no banco." },
      { id: second.payout.id },
    );
    expect(failed.status).toBe(200);
    expect((await balancesOf(second.applicant)).available_cents).toBe(second.payout.amount_cents);

    expect((await auditOf(first.payout.id)).map((r) => r.action)).toEqual(["payout.pay"]);
    const [failRow] = await auditOf(second.payout.id);
    expect(failRow).toMatchObject({ action: "payout.fail", reason: "Chave Pix encerrada no banco." });
    expect(await checkLedger()).toEqual([]);
  });

  it("records a refund's end-to-end id once", async () => {
    const op = await signedInOperator();
    const { owner, refund } = await refundDue();
    const path = `/api/admin/payments/refunds/${refund.id}/paid`;
    const e2e = e2eId();
    const ok = await post(refundRoute, path, op.token, { e2e_id: e2e }, { id: refund.id });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Estorno registrado.");
    expect((await balancesOf(owner)).refund_due_cents).toBe(0);
    const again = await post(refundRoute, path, op.token, { e2e_id: e2eId() }, { id: refund.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Este estorno já foi registrado.");
    expect((await auditOf(refund.id)).map((r) => r.action)).toEqual(["refund.record"]);
    expect(await checkLedger()).toEqual([]);
  });
});

describe("/admin/payments (page)", () => {
  it("shows the queues and works without JavaScript: refusals keep what was typed, a success redirects", async () => {
    const op = await signedInOperator();
    const { id, charge } = await chargeWaiting();
    const loaded = await get(page, "/admin/payments", op.token);
    expect(loaded.status).toBe(200);
    expect(loaded.body.receipts.map((r: { id: string }) => r.id)).toContain(charge.id);

    const wrong = await postForm(page, "/admin/payments", op.token, {
      intent: "confirm",
      id: charge.id,
      e2e_id: "E123",
      amount: "abc",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.e2e_id).toContain("identificador fim a fim");
    expect(wrong.body.errors.amount_cents).toBe("Informe o valor recebido.");
    expect(wrong.body.values).toMatchObject({ e2e_id: "E123", amount: "abc", id: charge.id, intent: "confirm" });

    const unknown = await postForm(page, "/admin/payments", op.token, { intent: "steal", id: charge.id });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Escolha uma ação válida para este pagamento.");

    const reais = (charge.amount_cents / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 });
    const done = await postForm(page, "/admin/payments", op.token, {
      intent: "confirm",
      id: charge.id,
      e2e_id: e2eId(),
      amount: reais,
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/payments");
    expect((await milestonesOf(id))[0].status).toBe("funded");

    const twice = await postForm(page, "/admin/payments", op.token, {
      intent: "confirm",
      id: charge.id,
      e2e_id: e2eId(),
      amount: reais,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("Esta cobrança já foi paga.");

    const merchant = await signedInUser({ account_type: "merchant" });
    expect((await get(page, "/admin/payments", merchant.token)).status).toBe(404);
  });

  it("records a refund from its form without JavaScript: a wrong id keeps what was typed, a success redirects", async () => {
    const op = await signedInOperator();
    const { owner, refund } = await refundDue();
    const loaded = await get(page, "/admin/payments", op.token);
    expect(loaded.body.refunds.map((r: { id: string }) => r.id)).toContain(refund.id);

    const wrong = await postForm(page, "/admin/payments", op.token, {
      intent: "refund",
      id: refund.id,
      e2e_id: "E123",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.e2e_id).toContain("identificador fim a fim");
    expect(wrong.body.values).toMatchObject({ e2e_id: "E123", id: refund.id, intent: "refund" });
    expect((await balancesOf(owner)).refund_due_cents).toBe(refund.amount_cents);

    const done = await postForm(page, "/admin/payments", op.token, {
      intent: "refund",
      id: refund.id,
      e2e_id: e2eId(),
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/payments");
    expect((await balancesOf(owner)).refund_due_cents).toBe(0);
    const after = await get(page, "/admin/payments", op.token);
    expect(after.body.refunds.map((r: { id: string }) => r.id)).not.toContain(refund.id);
    expect(await checkLedger()).toEqual([]);
  });
});
