import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createVerifiedIdentity } from "../../db/factories";
import * as acceptRoute from "~/routes/api+/applications+/$id.accept";
import * as applicationRoute from "~/routes/api+/applications+/$id";
import * as approveRoute from "~/routes/api+/contracts+/$id.approve";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import * as contractRoute from "~/routes/api+/contracts+/$id";
import * as deliveriesRoute from "~/routes/api+/contracts+/$id.deliveries";
import * as splitRoute from "~/routes/api+/contracts+/$id.milestones";
import * as proposalsRoute from "~/routes/api+/contracts+/$id.milestones.proposals";
import * as acceptMilestoneRoute from "~/routes/api+/contracts+/$id.milestones.$milestone.accept";
import * as financeRoute from "~/routes/api+/_account+/finance._index";
import * as csvRoute from "~/routes/api+/_account+/finance.statement[.]csv";
import * as receiptRoute from "~/routes/api+/_account+/finance.receipts.$id";
import * as payoutAccountRoute from "~/routes/api+/_account+/payout-account";
import * as payoutsRoute from "~/routes/api+/_account+/payouts";
import * as dashboardRoute from "~/routes/api+/_account+/dashboard";
import { confirmReceipt } from "~/services/payments/charges.server";
import { markPayoutPaid } from "~/services/payments/payouts.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { e2eId, escrow, operator } from "./support";

type Who = { token: string };
const get = (route: { loader: any }, path: string, who?: Who, params: Record<string, string> = {}) =>
  call(route.loader, jsonRequest(path, undefined, { token: who?.token }), params);
const send = (route: { action: any }, path: string, who: Who | undefined, body?: unknown, params = {}) =>
  call(route.action, jsonRequest(path, body ?? {}, { token: who?.token, method: "POST" }), params);

beforeAll(() => escrow(1_000));

async function hiredViaApi() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  await createVerifiedIdentity(db, m.user.id);
  const opp = await createOpportunity(db, { merchant_id: m.user.id });
  const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id, status: "pending" });
  const id = { id: app.id };
  const offer = (await get(applicationRoute, `/api/applications/${app.id}`, m, id)).body.data.offers[0];
  expect((await send(acceptRoute, `/api/applications/${app.id}/accept`, m, { offer_id: offer.id }, id)).status).toBe(
    200,
  );
  return { m, f, id, base: `/api/contracts/${app.id}`, price: app.price_cents };
}

describe("payments by the API alone", () => {
  it("split → fund by Pix → deliver → approve → payout → statements, CSV and receipts on both sides", async () => {
    const { m, f, id, base, price } = await hiredViaApi();
    const stranger = await signedInUser({ account_type: "merchant" });

    expect((await get(chargesRoute, `${base}/charges`, m, id)).body).toEqual({ data: null });
    expect((await get(chargesRoute, `${base}/charges`, stranger, id)).status).toBe(404);
    expect(
      (
        await send(
          splitRoute,
          `${base}/milestones`,
          m,
          { milestones: [{ title: "Tudo", amount_cents: 1, days: 3 }] },
          id,
        )
      ).status,
    ).toBe(422);
    const split = await send(
      splitRoute,
      `${base}/milestones`,
      m,
      {
        milestones: [
          { title: "Primeira metade", amount_cents: price / 2, days: 5 },
          { title: "Segunda metade", amount_cents: price / 2, days: 5 },
        ],
      },
      id,
    );
    expect(split.status).toBe(200);
    expect(split.body.data).toHaveLength(2);
    expect((await send(chargesRoute, `${base}/charges`, f, undefined, id)).status).toBe(403);
    const issued = await send(chargesRoute, `${base}/charges`, m, undefined, id);
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({ amount_cents: price / 2, status: "pending" });
    expect((await send(chargesRoute, `${base}/charges`, m, undefined, id)).status).toBe(200);
    await confirmReceipt(operator, issued.body.data.id, { e2e_id: e2eId(), amount_cents: price / 2 });

    const contract = (await get(contractRoute, base, f, id)).body.data;
    expect(contract.milestones.map((x: { status: string }) => x.status)).toEqual(["funded", "awaiting_funding"]);
    expect(contract.allowed_actions).toEqual(["deliver", "cancel", "open_dispute"]);
    expect(
      (await send(deliveriesRoute, `${base}/deliveries`, f, { message: "Primeira metade pronta." }, id)).status,
    ).toBe(201);
    expect((await send(approveRoute, `${base}/approve`, m, undefined, id)).status).toBe(200);

    // One more milestone, proposed by the freelancer and accepted by the merchant.
    const proposed = await send(
      proposalsRoute,
      `${base}/milestones/proposals`,
      f,
      { title: "Versão em inglês", amount_cents: 10_000, days: 3 },
      id,
    );
    expect(proposed.status).toBe(201);
    const params = { ...id, milestone: proposed.body.data.id };
    expect((await send(acceptMilestoneRoute, `${base}/milestones/x/accept`, f, undefined, params)).status).toBe(409);
    expect((await send(acceptMilestoneRoute, `${base}/milestones/x/accept`, m, undefined, params)).status).toBe(200);

    // The payout key, checked by type and check digits.
    const badKey = await send(payoutAccountRoute, "/api/payout-account", f, {
      key_type: "cpf",
      pix_key: "111.111.111-11",
      holder_name: "Júlia Recebedora",
      holder_document: "123.456.789-00",
    });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual({
      pix_key: "Esta chave não é um CPF válido.",
      holder_document: "Informe um CPF ou CNPJ válido do titular.",
    });
    expect(
      (
        await send(payoutAccountRoute, "/api/payout-account", m, {
          key_type: "evp",
          pix_key: "x",
          holder_name: "Maria",
          holder_document: "1",
        })
      ).status,
    ).toBe(403);
    // Payouts go to the verified person only (their CPF is the key's holder).
    await createVerifiedIdentity(db, f.user.id, { document: "52998224725" });
    const key = await send(payoutAccountRoute, "/api/payout-account", f, {
      key_type: "phone",
      pix_key: "(11) 98765-4321",
      holder_name: "Júlia Recebedora",
      holder_document: "529.982.247-25",
    });
    expect(key.body.data).toMatchObject({
      key_type: "phone",
      pix_key: "+5511987654321",
      holder_document: "52998224725",
    });

    const payout = await send(payoutsRoute, "/api/payouts", f);
    const net = price / 2 - Math.floor((price / 2) * 0.1);
    expect(payout).toMatchObject({ status: 201, body: { data: { amount_cents: net, status: "requested" } } });
    expect((await send(payoutsRoute, "/api/payouts", f)).status).toBe(409);
    await markPayoutPaid(operator, payout.body.data.id, { e2e_id: e2eId() });

    const fin = (await get(financeRoute, "/api/finance", f)).body;
    expect(fin.balances).toMatchObject({ available_cents: 0, paid_out_cents: net, held_cents: 0 });
    expect(fin.lines.map((l: { kind: string }) => l.kind)).toEqual([
      "payout_paid",
      "payout_requested",
      "release",
      "charge_received",
    ]);
    const release = fin.lines.find((l: { kind: string }) => l.kind === "release");
    expect(release).toMatchObject({
      amount_cents: price / 2,
      fee_cents: price / 2 - net,
      freelancer_cents: net,
      contract: { id: id.id },
    });
    const merchantFin = (await get(financeRoute, "/api/finance", m)).body;
    expect(merchantFin.balances).toMatchObject({ paid_in_cents: price / 2, held_cents: 0 });

    const receipt = await get(receiptRoute, "/api/finance/receipts/x", f, { id: fin.lines[0].id });
    expect(receipt.body.data).toMatchObject({
      kind: "payout_paid",
      amount_cents: net,
      payout: { pix_key: "+5511987654321" },
    });
    expect(receipt.body.data.e2e_id).toMatch(/^E\d{20}/);
    expect((await get(receiptRoute, "/api/finance/receipts/x", stranger, { id: fin.lines[0].id })).status).toBe(404);
    expect((await get(receiptRoute, "/api/finance/receipts/x", f, { id: "nada" })).status).toBe(404);

    const csv = await get(csvRoute, "/api/finance/statement.csv", f);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const rows = String(csv.body)
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(rows[0]).toBe(
      "data (horário de Brasília);tipo;contrato;etapa;valor;taxa;freelancer;estorno;id fim a fim;transação",
    );
    expect(rows).toHaveLength(5);
    // Dates on Brasília's clock as a spreadsheet reads them, not ISO UTC.
    const [day] = rows[1]!.split(";");
    expect(day).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(day).toBe(
      new Date(fin.lines[0].created_at)
        .toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" })
        .replace(", ", " "),
    );
    expect(rows[3]).toContain("Etapa liberada");

    const dashboard = (await get(dashboardRoute, "/api/dashboard", f)).body;
    expect(dashboard.figures ?? dashboard.data?.figures ?? dashboard).toMatchObject({
      paid_out_cents: net,
      available_cents: 0,
    });
    expect(await checkLedger()).toEqual([]);
  });

  it("answers 401 without a session and 404 for someone else's contract", async () => {
    const { base, id } = await hiredViaApi();
    const other = await signedInUser({ account_type: "merchant" });
    expect((await get(financeRoute, "/api/finance")).status).toBe(401);
    expect((await send(chargesRoute, `${base}/charges`, undefined, undefined, id)).status).toBe(401);
    expect((await send(chargesRoute, `${base}/charges`, other, undefined, id)).status).toBe(404);
    expect((await send(splitRoute, `${base}/milestones`, other, { milestones: [] }, id)).status).toBe(422);
    expect(
      (
        await send(
          proposalsRoute,
          `${base}/milestones/proposals`,
          other,
          { title: "Etapa extra", amount_cents: 100, days: 1 },
          id,
        )
      ).status,
    ).toBe(404);
  });
});
