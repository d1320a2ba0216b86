// Money on two app servers over one PostgreSQL (payments on, Mercado Pago answered by the local
// stand-in): the same signed notification delivered to both servers at once credits the charge
// once; two payout requests at once, one on each server, make one payout and a 409.
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validApplication, validOpportunity } from "../../support/fixtures";
import { startMercadoPago, type MercadoPagoMock } from "../../payments/mercadopago-server";
import { apiUser } from "../crash/server";
import { twoServersFor, type TwoServers } from "./two-servers";

const TOKEN = "multinode-access-token";
const SECRET = "multinode-webhook-secret-0123456789";

const twoServers = twoServersFor("payments");
let mp: MercadoPagoMock;
let servers: TwoServers;
let bases: string[];

beforeAll(async () => {
  mp = await startMercadoPago({ token: TOKEN, secret: SECRET });
  servers = await twoServers("postgres", {
    PAYMENTS: "escrow",
    PAYMENTS_PROVIDER: "mercadopago",
    MERCADOPAGO_API_URL: mp.url,
    MERCADOPAGO_ACCESS_TOKEN: TOKEN,
    MERCADOPAGO_WEBHOOK_SECRET: SECRET,
  });
  bases = servers.bases;
}, 120_000);
afterAll(async () => {
  await mp?.close();
});

const query = <T>(text: string, values: unknown[] = []) => servers.rows<T>(text, values);

let counter = 0;
async function call(base: string, path: string, token: string, body?: unknown) {
  const res = await fetch(base + path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** A hire made through the API of the first server, its milestone charged by Mercado Pago. */
async function charged() {
  counter += 1;
  const [a] = bases;
  const merchant = await apiUser(a, `pay-m${counter}-${Date.now()}@example.com`, "merchant");
  const freelancer = await apiUser(a, `pay-f${counter}-${Date.now()}@example.com`, "freelancer");
  const opp = await call(a, "/api/opportunities", merchant.token, validOpportunity);
  const app = await call(
    a,
    `/api/opportunities/${opp.body.data.uuid}/applications`,
    freelancer.token,
    validApplication,
  );
  const id = app.body.data.id as string;
  const offer = (await call(a, `/api/applications/${id}`, merchant.token)).body.data.offers[0].id;
  expect((await call(a, `/api/applications/${id}/accept`, merchant.token, { offer_id: offer })).status).toBe(200);
  // Funding past IDENTITY_REQUIRED_ABOVE_CENTS asks who the merchant is first.
  const identity = {
    kind: "person",
    document: generateCpf(),
    legal_name: "Marina Contratante",
    birth_date: "1985-03-02",
  };
  expect((await call(a, "/api/identity", merchant.token, identity)).status).toBe(200);
  const charge = await call(a, `/api/contracts/${id}/charges`, merchant.token, {});
  expect(charge.status).toBe(201);
  const [row] = await query<{ provider_payment_id: string }>(
    "SELECT provider_payment_id FROM pix_charges WHERE id = $1",
    [charge.body.data.id],
  );
  return {
    merchant,
    freelancer,
    id,
    chargeId: charge.body.data.id as string,
    paymentId: Number(row.provider_payment_id),
  };
}

describe("payments on two servers over one PostgreSQL", () => {
  it("one notification delivered to both servers at once: credited once", async () => {
    for (let round = 0; round < 5; round++) {
      const { chargeId, paymentId } = await charged();
      mp.approve(paymentId);
      const n = mp.notification(paymentId);
      const answers = await Promise.all(bases.map((base) => mp.deliver(base, n)));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => a.body.outcome).sort()).toEqual(["duplicate", "processed"]);
      const received = await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM ledger_transactions WHERE charge_id = $1 AND kind = 'charge_received'",
        [chargeId],
      );
      expect(received[0].n).toBe(1);
    }
  });

  it("two payout requests at once, one on each server: one payout, one 409", async () => {
    for (let round = 0; round < 5; round++) {
      const { merchant, freelancer, id, paymentId } = await charged();
      mp.approve(paymentId);
      expect((await mp.deliver(bases[0], mp.notification(paymentId))).status).toBe(200);
      expect(
        (await call(bases[1], `/api/contracts/${id}/deliveries`, freelancer.token, { message: "Pronto." })).status,
      ).toBe(201);
      expect((await call(bases[0], `/api/contracts/${id}/approve`, merchant.token, {})).status).toBe(200);
      // Payouts go to the verified person: the freelancer's identity, verified, is the key.
      const cpf = generateCpf();
      await query(
        `INSERT INTO identities (user_id, kind, document, legal_name, birth_date, status, version, files_bytes,
           submitted_at, decided_at, created_at, updated_at)
         VALUES ($1, 'person', $2, 'Pessoa Recebedora', '1990-05-17', 'verified', 1, 0, now()::text, now()::text,
           now()::text, now()::text)`,
        [freelancer.id, cpf],
      );
      const key = { key_type: "cpf", pix_key: cpf, holder_name: "Pessoa Recebedora", holder_document: cpf };
      expect((await call(bases[1], "/api/payout-account", freelancer.token, key)).status).toBe(200);
      const statuses = await Promise.all(bases.map((base) => call(base, "/api/payouts", freelancer.token, {})));
      expect(statuses.map((s) => s.status).sort()).toEqual([201, 409]);
      const payouts = await query("SELECT id FROM payouts WHERE user_id = $1", [freelancer.id]);
      expect(payouts).toHaveLength(1);
    }
    const broken = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM (SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_cents) <> 0) t",
    );
    expect(broken[0].n).toBe(0);
  });
});
