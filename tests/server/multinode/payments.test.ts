// Money on two app servers over one PostgreSQL (payments on, Mercado Pago answered by the local
// stand-in): the same signed notification delivered to both servers at once credits the charge
// once; two payout requests at once, one on each server, make one payout and a 409; both servers'
// schedules (every second) submit an hourly week, lapse an unfunded one and approve a reviewed one
// once each.
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validApplication, validOpportunity } from "../../support/fixtures";
import { startMercadoPago, type MercadoPagoMock } from "../../payments/mercadopago-server";
import { apiUser } from "../crash/server";
import { moreJobRuns } from "../../support/server";
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
    // The contracts' schedule every second on both servers, its runs in the log (moreJobRuns).
    CONTRACT_SCHEDULE_SECONDS: "1",
    JOBS_TRACE: "1",
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

/** An hourly opportunity and a proposal of R$ 60,00 an hour, up to 10 hours a week. */
const HOURLY = {
  opportunity: { ...validOpportunity, budget_type: "hourly", budget_min_cents: 5_000, budget_max_cents: 8_000 },
  application: { ...validApplication, price_cents: 6_000, weekly_cap_hours: 10 },
};

/**
 * A hire made through the API of the first server (a fixed one, or `terms`'), its milestone (an
 * hourly contract's first week) charged by Mercado Pago.
 */
async function charged(terms = { opportunity: validOpportunity, application: validApplication }) {
  counter += 1;
  const [a] = bases;
  const merchant = await apiUser(a, `pay-m${counter}-${Date.now()}@example.com`, "merchant");
  const freelancer = await apiUser(a, `pay-f${counter}-${Date.now()}@example.com`, "freelancer");
  const opp = await call(a, "/api/opportunities", merchant.token, terms.opportunity);
  const app = await call(
    a,
    `/api/opportunities/${opp.body.data.uuid}/applications`,
    freelancer.token,
    terms.application,
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

  it("an hourly week sent, an unfunded one lapsed and a reviewed one approved by the schedules: each once", async () => {
    const { merchant, freelancer, id, paymentId } = await charged(HOURLY);
    mp.approve(paymentId);
    expect((await mp.deliver(bases[1], mp.notification(paymentId))).status).toBe(200);
    const [week] = (await call(bases[0], `/api/contracts/${id}/weeks`, freelancer.token)).body.data;
    expect(week.status).toBe("open");
    const logged = await call(bases[1], `/api/contracts/${id}/weeks/${week.week_start}/entries`, freelancer.token, {
      day: week.week_start,
      minutes: 90,
      description: "Implementei a tela de login e os testes.",
    });
    expect(logged.status).toBe(201);
    const weeks = () =>
      query<{ id: string; status: string; milestone_id: string }>(
        "SELECT id, status, milestone_id FROM contract_weeks WHERE contract_id = $1 ORDER BY created_at, week_start",
        [id],
      );
    /** Waits (up to 10 s) until the contract's weeks are in `statuses`, oldest first. */
    const until = async (statuses: string[]) => {
      for (let i = 0; i < 100; i++) {
        if ((await weeks()).map((w) => w.status).join() === statuses.join()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await weeks()).map((w) => w.status)).toEqual(statuses);
    };

    // Its Monday 12:00 long past: one of the two schedules sends it, and the next week opens.
    await query("UPDATE contract_weeks SET week_start = '2020-01-06' WHERE id = $1", [week.id]);
    await until(["submitted", "awaiting_funding"]);
    // The next week, unpaid, past its Monday too, and the sent one past its 5 days of review.
    const [sent, unpaid] = await weeks();
    await query("UPDATE contract_weeks SET week_start = '2020-01-13' WHERE id = $1", [unpaid!.id]);
    await query("UPDATE contract_weeks SET review_due_at = '2000-01-01T00:00:00.000Z' WHERE id = $1", [sent!.id]);
    await until(["approved", "lapsed", "awaiting_funding"]);
    // Two more runs of each schedule change nothing.
    await moreJobRuns(servers.servers, "contracts", 2);
    await until(["approved", "lapsed", "awaiting_funding"]);

    const events = await query<{ kind: string; author: string }>(
      "SELECT kind, author FROM contract_events WHERE contract_id = $1 AND kind LIKE 'week_%' ORDER BY seq",
      [id],
    );
    expect(events).toEqual([
      { kind: "week_submitted", author: "system" },
      { kind: "week_lapsed", author: "system" },
      { kind: "week_approved", author: "system" },
    ]);
    // One release for the approved week: 90 minutes at R$ 60,00 an hour, the rest owed back.
    const moved = await query<{ kind: string }>(
      "SELECT kind FROM ledger_transactions WHERE milestone_id = $1 AND kind IN ('release', 'split')",
      [sent!.milestone_id],
    );
    expect(moved).toEqual([{ kind: "split" }]);
    const [milestone] = await query<{ released_cents: number; refunded_cents: number }>(
      "SELECT released_cents::int AS released_cents, refunded_cents::int AS refunded_cents FROM milestones WHERE id = $1",
      [sent!.milestone_id],
    );
    expect(milestone).toEqual({ released_cents: 9_000, refunded_cents: 51_000 });
    // One notice of each move, and one e-mail of the approval.
    const notices = await query<{ user_id: string; kind: string }>(
      "SELECT user_id, kind FROM notifications WHERE application_id = $1 AND kind LIKE 'contract_week_%' ORDER BY kind, user_id",
      [id],
    );
    expect(notices).toEqual([
      { user_id: freelancer.id, kind: "contract_week_approved" },
      ...[merchant.id, freelancer.id].sort().map((user_id) => ({ user_id, kind: "contract_week_lapsed" })),
      { user_id: merchant.id, kind: "contract_week_submitted" },
    ]);
    const emails = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox WHERE application_id = $1 AND kind = 'contract_week_approved' AND channel = 'email'",
      [id],
    );
    expect(emails[0]!.n).toBe(1);
  });
});
