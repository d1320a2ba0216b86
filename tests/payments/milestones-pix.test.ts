import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import { config } from "~/config.server";
import { createSession } from "~/services/accounts/sessions.server";
import { approveContract, getContract } from "~/services/contracts/contracts.server";
import { claimPaid, confirmReceipt, getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { setPayoutAccount } from "~/services/payments/payouts.server";
import { marketplaceMetrics } from "~/services/operator/metrics.server";
import * as contractPage from "~/routes/contracts+/$id";
import * as financePage from "~/routes/_account+/financeiro._index";
import * as claimRoute from "~/routes/api+/contracts+/$id.charges.$charge.paid";
import { mailsTo } from "../support/helpers";
import { notificationsOf, outcome } from "../support/market";
import { get, post, postForm } from "../operator/support";
import { deliver, e2eId, escrow, fund, hired, operator, verifiedPayee } from "./support";

// Frictions of a hire-to-payout week (docs/payments.md): "Já paguei" on a manual Pix charge, the
// split form's rows and running total, the confirmation steps of a payout and of a dispute, and
// the notice of a milestone released before the last.

beforeAll(() => escrow(1_000));

const tokenOf = async (user: UserRow) => (await createSession(user.id)).token;

async function charged() {
  const h = await hired();
  const { charge } = await issueCharge(h.owner, h.id);
  return { ...h, charge, merchant: await tokenOf(h.owner), freelancer: await tokenOf(h.applicant) };
}

const claimRow = (id: string) =>
  db
    .selectFrom("pix_charges")
    .select(["claimed_at", "claimed_by", "status"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("Já paguei", () => {
  it("is recorded once, by the charge's payer only, while it waits; the page says so and the overview counts it", async () => {
    const { owner, applicant, id, charge, merchant, freelancer } = await charged();
    const before = (await marketplaceMetrics({})).waiting;
    const path = `/contracts/${id}`;

    // Only the payer: the freelancer is refused, a stranger does not see the contract.
    expect(await outcome(claimPaid(applicant, id, charge.id))).toBe(403);
    const stranger = (await hired()).owner;
    expect(await outcome(claimPaid(stranger, id, charge.id))).toBe(404);
    const refused = await postForm(
      contractPage,
      path,
      freelancer,
      { intent: "claim_paid", charge_id: charge.id },
      { id },
    );
    expect(refused.status).toBe(403);
    expect((await claimRow(charge.id)).claimed_at).toBeNull();

    // The page's form, twice at once: both land on the payments, one record.
    const both = await Promise.all(
      [1, 2].map(() => postForm(contractPage, path, merchant, { intent: "claim_paid", charge_id: charge.id }, { id })),
    );
    expect(both.map((r) => r.status)).toEqual([302, 302]);
    expect(both[0]!.headers.get("Location")).toBe(`/contracts/${id}#payments-title`);
    const row = await claimRow(charge.id);
    expect(row).toMatchObject({ status: "pending", claimed_by: owner.id });
    expect(row.claimed_at).not.toBeNull();
    // The API twin: said again, the same answer (200), nothing changes.
    const again = await post(
      claimRoute,
      `/api/contracts/${id}/charges/${charge.id}/paid`,
      merchant,
      {},
      {
        id,
        charge: charge.id,
      },
    );
    expect(again.status).toBe(200);
    expect(again.body.data.claimed_at).toBe(row.claimed_at);
    expect(again.body.message).toBe(
      "Registramos que você pagou. A equipe do Freela confirma o recebimento e avisa você.",
    );

    // The page shows it to both sides, with the hours the operator usually takes.
    const page = await get(contractPage, path, merchant, { id });
    expect(page.body.charge.claimed_at).toBe(row.claimed_at);
    expect(page.body.pixHours).toBe(config.MANUAL_PIX_HOURS);
    expect((await getCurrentCharge(applicant, id))?.claimed_at).toBe(row.claimed_at);

    // Counted on the operator's overview until confirmed.
    expect((await marketplaceMetrics({})).waiting.pix_receipts).toBe(before.pix_receipts + 1);
    await confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents });
    expect((await marketplaceMetrics({})).waiting.pix_receipts).toBe(before.pix_receipts);
    // Paid: nothing waits any more.
    expect(await outcome(claimPaid(owner, id, charge.id))).toBe(409);
  });

  it("two at once by the API: 201 for one, 200 for the other, one record", async () => {
    const { id, charge, merchant } = await charged();
    const path = `/api/contracts/${id}/charges/${charge.id}/paid`;
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(claimRoute, path, merchant, {}, { id, charge: charge.id })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.data.claimed_at)).size).toBe(1);
  });

  it("a claimed charge outlives its 24 hours (the operator confirms it); an unclaimed expired one cannot be claimed", async () => {
    const { owner, id, charge } = await charged();
    await claimPaid(owner, id, charge.id);
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable("pix_charges").set({ expires_at: past }).where("id", "=", charge.id).execute();
    expect((await getCurrentCharge(owner, id))?.id).toBe(charge.id);
    expect(await issueCharge(owner, id)).toMatchObject({ created: false, charge: { id: charge.id } });
    // Nor can the milestones be split under it.
    const price = (await getContract(owner, id)).price_cents;
    const halves = [
      { title: "Metade um", amount_cents: price / 2, days: 3 },
      { title: "Metade dois", amount_cents: price / 2, days: 3 },
    ];
    expect(await outcome(splitMilestones(owner, id, { milestones: halves }))).toBe(409);

    const other = await charged();
    await db.updateTable("pix_charges").set({ expires_at: past }).where("id", "=", other.charge.id).execute();
    const late = await post(claimRoute, "/x", other.merchant, {}, { id: other.id, charge: other.charge.id });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain("não espera mais pagamento");
  });
});

describe("the split form", () => {
  const splitRows = (rows: [string, string, string][]) =>
    Object.fromEntries(
      rows.flatMap(([title, amount, days], i) => [
        [`title_${i}`, title],
        [`amount_${i}`, amount],
        [`days_${i}`, days],
      ]),
    );

  it("adds rows keeping what was typed, recalculates, refuses a 21st, and saves any number up to 20", async () => {
    const { owner, id } = await hired();
    const token = await tokenOf(owner);
    const path = `/contracts/${id}`;
    const typed = splitRows([
      ["Layout", "1.000,00", "5"],
      ["Código", "500", "7"],
    ]);
    const form = (fields: Record<string, string>) =>
      postForm(contractPage, path, token, { intent: "split_milestones", rows: "2", ...fields }, { id });

    const added = await form({ ...typed, step: "add" });
    expect(added.status).toBe(200);
    expect(added.body.values).toMatchObject({ ...typed, rows: "3" });
    const recalculated = await form({ ...typed, step: "recalc" });
    expect(recalculated.status).toBe(200);
    expect(recalculated.body.values).toMatchObject({ ...typed, rows: "2" });
    const full = await form({ ...typed, rows: "20", step: "add" });
    expect(full.status).toBe(422);
    expect(full.body.message).toBe("Um contrato tem no máximo 20 etapas: não dá para acrescentar outra.");
    expect((await getContract(owner, id)).milestones).toHaveLength(1);

    // A row's problem lands on its own field, with what was typed kept.
    const bad = await form(splitRows([["Layout", "mil reais", "5"]]));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.amount_0).toBe("Informe um valor em reais, como 1.500,00.");
    expect(bad.body.values.amount_0).toBe("mil reais");

    // 21 rows posted: refused in Portuguese, nothing changed.
    const price = (await getContract(owner, id)).price_cents;
    const many = Array.from({ length: 21 }, (_, i): [string, string, string] => [
      `Parte ${i + 1}`,
      i === 0 ? String((price - 2_000) / 100) : "1",
      "1",
    ]);
    const tooMany = await form({ ...splitRows(many), rows: "21" });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.milestones).toBe("Um contrato tem no máximo 20 etapas.");
    expect((await getContract(owner, id)).milestones).toHaveLength(1);

    // Twenty rows are saved.
    const twenty = many.slice(0, 20);
    twenty[0] = [twenty[0]![0], String((price - 1_900) / 100), "1"];
    const saved = await form({ ...splitRows(twenty), rows: "20" });
    expect(saved.status).toBe(302);
    expect((await getContract(owner, id)).milestones.filter((m) => m.status === "awaiting_funding")).toHaveLength(20);
  });
});

describe("a milestone released before the last", () => {
  it("notifies its own kind, naming the milestone and the amount; the last one completes the contract", async () => {
    const { owner, applicant, id } = await hired();
    const price = (await getContract(owner, id)).price_cents;
    await splitMilestones(owner, id, {
      milestones: [
        { title: "Layout das páginas", amount_cents: price - 100_000, days: 5 },
        { title: "Publicação", amount_cents: 100_000, days: 3 },
      ],
    });
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const kinds = async () => (await notificationsOf(applicant)).map((n) => n.kind);
    expect(await kinds()).toContain("milestone_released");
    expect(await kinds()).not.toContain("contract_completed");
    const notice = (await notificationsOf(applicant)).find((n) => n.kind === "milestone_released")!;
    expect(JSON.parse(notice.detail!)).toEqual({ milestone: "Layout das páginas", amount_cents: price - 100_000 });
    const mails = await mailsTo(applicant.email);
    const mail = mails.find((m) => m.text.includes("Layout das páginas"))!;
    expect(mail.text).toContain(`A etapa “Layout das páginas” de`);
    expect(mail.text).toMatch(/R\$\s2\.000,00 liberados ao freelancer\./);

    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect((await kinds()).filter((k) => k === "contract_completed")).toHaveLength(1);
    expect((await kinds()).filter((k) => k === "milestone_released")).toHaveLength(1);
  });
});

describe("confirmation steps", () => {
  async function withBalance() {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    await setPayoutAccount(applicant, {
      key_type: "email",
      pix_key: `recebe.${id.slice(0, 8)}@example.com`,
      holder_name: "Fernanda Freelancer",
      holder_document: await verifiedPayee(applicant),
    });
    return { applicant, token: await tokenOf(applicant) };
  }

  const payoutsOf = (user: UserRow) => db.selectFrom("payouts").selectAll().where("user_id", "=", user.id).execute();

  it("a payout: the first submit shows the masked key and when it is paid; two confirmations at once make one payout", async () => {
    const { applicant, token } = await withBalance();
    const first = await postForm(financePage, "/financeiro", token, { intent: "payout" });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/financeiro?confirm=payout");
    expect(await payoutsOf(applicant)).toHaveLength(0);

    const page = await get(financePage, "/financeiro?confirm=payout", token);
    expect(page.body.payoutKey).toEqual({ type: "email", key: "….com", holder: "Fernanda Freelancer" });
    expect(page.body.pixHours).toBe(config.MANUAL_PIX_HOURS);

    const both = await Promise.all(
      [1, 2].map(() =>
        postForm(financePage, "/financeiro?confirm=payout", token, { intent: "payout", confirmed: "1" }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([302, 409]);
    expect(both.find((r) => r.status === 409)!.body.message).toBe("Já há um repasse esperando o pagamento.");
    expect(await payoutsOf(applicant)).toHaveLength(1);
  });

  it("a dispute: the first submit checks and shows what opening does; only the second opens it", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    const token = await tokenOf(applicant);
    const path = `/contracts/${id}`;
    const statement = "O contratante não responde há duas semanas sobre o escopo combinado.";
    const empty = await postForm(contractPage, path, token, { intent: "open_dispute", reason: "scope" }, { id });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.statement).toBeTruthy();

    const first = await postForm(
      contractPage,
      path,
      token,
      { intent: "open_dispute", reason: "scope", statement },
      { id },
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ confirming: "open_dispute", values: { reason: "scope", statement } });
    expect((await getContract(owner, id)).disputed).toBe(false);

    const second = await postForm(
      contractPage,
      path,
      token,
      { intent: "open_dispute", reason: "scope", statement, confirmed: "1" },
      { id },
    );
    expect(second.status).toBe(302);
    expect((await getContract(owner, id)).disputed).toBe(true);
  });
});
