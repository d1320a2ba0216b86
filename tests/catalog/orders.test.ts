import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { config } from "~/config.server";
import { answerOrder, getQuote, placeOrder, quoteOrder } from "~/services/catalog/orders.server";
import {
  createService,
  getService,
  pauseService,
  publishService,
  updateService,
} from "~/services/catalog/services.server";
import { getPublicService } from "~/services/catalog/public-services.server";
import { writeReview } from "~/services/reputation/reviews.server";
import { approveContract, getContract, requestChanges } from "~/services/contracts/contracts.server";
import { getPublicOpportunity, opportunitiesSitemapXml } from "~/services/discovery/public.server";
import { listOpportunities } from "~/services/marketplace/opportunities.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { validService } from "../support/fixtures";
import { drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import { brokenInvariants, freelancer, merchant, notificationsOf, outcome, refusal } from "../support/market";
import { deliver, escrow, fund, milestonesOf } from "../payments/support";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): the order → contract →
// money path with the ledger checked, every refusal, a price changed while buying, parallel
// orders, the package's revisions under a race, and the order's opportunity listed nowhere.

const OLD = "2026-01-01T00:00:00.000Z";
const seller = () => createUser(db, { account_type: "freelancer", created_at: OLD });
const ANSWERS = ["Doce Lar", "Moderno"];

async function liveService(input: Record<string, unknown> = {}) {
  const owner = await seller();
  const draft = await createService(owner, { ...validService, ...input });
  const service = await publishService(owner, draft.id);
  return { owner, service };
}

/** The "Completo" package (R$ 450,00, 3 days, 3 revisions) with the 24-hour extra (R$ 80,00, 0 days). */
const FULL = { package_index: 1, extras: [0], expected_total_cents: 53_000, answers: ANSWERS };

const counts = async () => ({
  contracts: Number(
    (
      await db
        .selectFrom("contracts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  orders: Number(
    (
      await db
        .selectFrom("service_orders")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  opportunities: Number(
    (
      await db
        .selectFrom("opportunities")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

describe("a quote", () => {
  it("adds the package and the extras, money and days", async () => {
    const { service } = await liveService();
    expect(quoteOrder(service, { package_index: 1, extras: [0] })).toMatchObject({
      total_cents: 53_000,
      delivery_days: 3,
      revisions: 3,
      extras: [{ index: 0, title: "Entrega em 24 horas", price_cents: 8_000 }],
    });
    const { quote, questions } = await getQuote(service.id, { package_index: "0", extras: "" });
    expect(quote).toMatchObject({ total_cents: 15_000, delivery_days: 5, revisions: 1, extras: [] });
    expect(questions).toHaveLength(2);
    expect(await refusal(getQuote(service.id, { package_index: 2 }))).toMatchObject({
      status: 422,
      fields: { package_index: "services:order_package_invalid" },
    });
    expect(await refusal(getQuote(service.id, { package_index: 0, extras: "1" }))).toMatchObject({
      status: 422,
      fields: { extras: "services:order_extras_invalid" },
    });
  });
});

describe("an order without payments", () => {
  beforeAll(() => {
    config.PAYMENTS = "off";
  });

  it("is a hire: a fixed contract for the total, the package copied, the freelancer told", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, FULL);
    const contract = await getContract(buyer, id);
    expect(contract).toMatchObject({
      kind: "fixed",
      payments: "off",
      price_cents: 53_000,
      delivery_days: 3,
      status: "in_progress",
      awaiting_funding: false,
      opportunity: { title: service.title, budget_type: "fixed" },
      freelancer: { id: owner.id },
      merchant: { id: buyer.id },
    });
    expect(contract.milestones).toMatchObject([{ amount_cents: 53_000, status: "funded" }]);
    expect(contract.order).toMatchObject({
      service: { id: service.id, title: service.title },
      package_index: 1,
      package: validService.packages[1],
      extras: [{ index: 0, price_cents: 8_000 }],
      total_cents: 53_000,
      answers: [
        { question: "Qual é o nome da marca?", kind: "text", answer: "Doce Lar" },
        { question: "Qual estilo você prefere?", kind: "choice", answer: "Moderno" },
      ],
      revisions_allowed: 3,
      revisions_used: 0,
    });
    expect(contract.order!.service.path).toBe(`/servicos/${service.slug}-${service.id}`);
    // The freelancer sees the same order.
    expect((await getContract(owner, id)).order?.total_cents).toBe(53_000);
    // Told of an order, not of an accepted proposal: "Novo pedido: <serviço> — <pacote>", in the app and by e-mail.
    const notices = await notificationsOf(owner);
    expect(notices.map((n) => [n.kind, n.application_id, JSON.parse(n.detail ?? "null")])).toEqual([
      ["service_ordered", id, { package: "Completo" }],
    ]);
    expect((await notificationsOf(buyer)).length).toBe(0);
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail), limit: 100 });
    const mail = sent.find((m) => m.to === owner.email);
    expect(mail?.subject).toBe(`Freela: Novo pedido: “${service.title}” — Completo`);
    expect(mail?.text).toContain(`/contracts/${id}`);
    expect(await brokenInvariants()).toEqual([]);
  });

  it("keeps what was confirmed when the freelancer edits the package afterwards", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, FULL);
    const packages = validService.packages.map((p) => ({ ...p, price_cents: p.price_cents * 2 }));
    await updateService(owner, service.id, { packages });
    const contract = await getContract(buyer, id);
    expect(contract.price_cents).toBe(53_000);
    expect(contract.order!.package.price_cents).toBe(45_000);
  });

  it("refuses, and creates nothing, when the total confirmed is no longer the price", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    const { quote } = await getQuote(service.id, { package_index: 1, extras: [0] });
    // The freelancer raises the price between the confirmation page and the click.
    const packages = validService.packages.map((p) => ({ ...p, price_cents: p.price_cents + 1_000 }));
    await updateService(owner, service.id, { packages });
    const before = await counts();
    const refused = await placeOrder(buyer, service.id, { ...FULL, expected_total_cents: quote.total_cents }).catch(
      (e) => e,
    );
    expect(refused).toMatchObject({
      status: 409,
      key: "services:order_price_changed",
      body: { code: "service_price_changed", quote: { total_cents: 54_000 } },
    });
    expect(await counts()).toEqual(before);
    // Confirmed again at the new total, it goes through.
    expect(await outcome(placeOrder(buyer, service.id, { ...FULL, expected_total_cents: 54_000 }))).toBe(200);
  });

  it("makes two orders bought at once two contracts", async () => {
    const { service } = await liveService();
    const [a, b] = [await merchant(), await merchant()];
    const orders = await Promise.all([
      placeOrder(a, service.id, FULL),
      placeOrder(b, service.id, FULL),
      placeOrder(a, service.id, FULL),
    ]);
    expect(new Set(orders.map((o) => o.id)).size).toBe(3);
    expect(await brokenInvariants()).toEqual([]);
  });

  it("refuses a freelancer, a service not for sale, bad choices and missing answers", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    expect(await outcome(placeOrder(await freelancer(), service.id, FULL))).toBe(403);
    expect(await outcome(placeOrder(owner, service.id, FULL))).toBe(403);
    expect(await outcome(placeOrder(buyer, "nope", FULL))).toBe(404);
    expect(await outcome(placeOrder(buyer, "00000000-0000-4000-8000-000000000000", FULL))).toBe(404);
    const draft = await createService(owner, validService);
    expect(await outcome(placeOrder(buyer, draft.id, FULL))).toBe(404);
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, package_index: 5 }))).toMatchObject({ status: 422 });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, extras: [3] }))).toMatchObject({ status: 422 });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, expected_total_cents: "x" }))).toMatchObject({
      status: 422,
      fields: { expected_total_cents: "services:order_total_invalid" },
    });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, answers: undefined }))).toMatchObject({
      status: 422,
      fields: { "answers.0": "services:order_answer_required" },
    });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, answers: ["Doce", "Barroco"] }))).toMatchObject({
      status: 422,
      fields: { "answers.1": "services:order_answer_choice" },
    });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, answers: ["x".repeat(2_001)] }))).toMatchObject({
      status: 422,
      fields: { "answers.0": "services:order_answer_too_long" },
    });
    expect(await refusal(placeOrder(buyer, service.id, { ...FULL, answers: "Doce" }))).toMatchObject({ status: 422 });
    await pauseService(owner, service.id);
    expect(await outcome(placeOrder(buyer, service.id, FULL))).toBe(404);
  });

  it("takes answers, and corrections, from the buyer only and until the first delivery", async () => {
    const { owner, service } = await liveService({ questions: [validService.questions[1]] });
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, { ...FULL, answers: undefined });
    expect((await getContract(buyer, id)).order!.answers).toBeNull();
    expect(await outcome(answerOrder(owner, id, { answers: ["Clássico"] }))).toBe(404);
    expect(await outcome(answerOrder(await merchant(), id, { answers: ["Clássico"] }))).toBe(404);
    expect(await refusal(answerOrder(buyer, id, { answers: ["Barroco"] }))).toMatchObject({ status: 422 });
    const answered = await answerOrder(buyer, id, { answers: ["Clássico"] });
    expect(answered.answers).toEqual([{ question: "Qual estilo você prefere?", kind: "choice", answer: "Clássico" }]);
    // The freelancer is told of the answers (and only of those that were taken).
    const told = (await notificationsOf(owner)).filter((n) => n.kind === "service_answered");
    expect(told.map((n) => n.application_id)).toEqual([id]);
    await deliver(owner, id);
    expect(await refusal(answerOrder(buyer, id, { answers: ["Moderno"] }))).toMatchObject({
      status: 409,
      key: "services:order_answers_closed",
    });
  });

  it("counts change requests against the package's revisions: one winner at the last one, then 409", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    // "Básico": one revision.
    const { id } = await placeOrder(buyer, service.id, {
      ...FULL,
      package_index: 0,
      extras: [],
      expected_total_cents: 15_000,
    });
    await deliver(owner, id);
    const ask = () => requestChanges(buyer, id, { message: "Troque a cor do fundo, por favor." });
    const results = await Promise.allSettled([ask(), ask()]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await getContract(buyer, id)).order).toMatchObject({ revisions_used: 1, revisions_allowed: 1 });
    await deliver(owner, id);
    expect(await refusal(ask())).toMatchObject({ status: 409, key: "services:revisions_exhausted" });
    const contract = await getContract(buyer, id);
    expect(contract).toMatchObject({ status: "delivered", order: { revisions_used: 1 } });
    // The delivery can still be approved.
    await approveContract(buyer, id);
    expect((await getContract(buyer, id)).status).toBe("completed");
  });

  it("counts the buyer's review of the freelancer in the service's rating and shows it on its page", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, FULL);
    await deliver(owner, id);
    await approveContract(buyer, id);
    await writeReview(buyer, id, { rating: 4, comment: "Ótimo logotipo, entregue no prazo combinado." });
    // Hidden until the other side writes theirs: nothing counted yet.
    expect((await getPublicService(null, service.id)).reviews).toEqual([]);
    await writeReview(owner, id, { rating: 5, comment: "Cliente claro nas respostas e rápido." });
    const page = await getPublicService(null, service.id);
    expect(page.rating).toEqual({ average: 4, count: 1 });
    expect(page.reviews).toMatchObject([{ rating: 4, subject_id: owner.id, author: { id: buyer.id } }]);
    // A hire from an opportunity of the same freelancer leaves the service alone.
    expect((await getService(null, service.id)).rating.count).toBe(1);
  });

  it("hides the order's opportunity from every list, search, page and the sitemap", async () => {
    const { service } = await liveService();
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, FULL);
    const uuid = (await getContract(buyer, id)).opportunity.uuid;
    const mine = await listOpportunities(buyer, {});
    expect(mine.data.map((o) => o.uuid)).not.toContain(uuid);
    expect((await listOpportunities(buyer, { status: "filled" })).data.map((o) => o.uuid)).not.toContain(uuid);
    const seller = await db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", service.freelancer.id)
      .executeTakeFirstOrThrow();
    for (const q of [{}, { mine: "1" }, { status: "filled" }, { q: "Logotipo confeitaria" }]) {
      expect((await listOpportunities(seller, q)).data.map((o) => o.uuid)).not.toContain(uuid);
    }
    expect(await outcome(getPublicOpportunity(uuid))).toBe(404);
    expect((await opportunitiesSitemapXml(1)) ?? "").not.toContain(uuid);
  });
});

describe("an order with payments", () => {
  beforeAll(() => escrow(1_000));
  afterAll(() => {
    config.PAYMENTS = "off";
    config.PLATFORM_FEE_BPS = 0;
  });

  it("waits for its Pix, then runs the contract's rules to the release; the ledger balances", async () => {
    const { owner, service } = await liveService();
    const buyer = await merchant();
    const { id } = await placeOrder(buyer, service.id, FULL);
    const before = await getContract(buyer, id);
    expect(before).toMatchObject({ payments: "escrow", fee_bps: 1_000, awaiting_funding: true });
    expect(before.milestones).toMatchObject([{ amount_cents: 53_000, status: "awaiting_funding", days: 3 }]);
    expect(await outcome(deliver(owner, id))).toBe(409);

    await fund(buyer, id);
    const funded = await getContract(owner, id);
    const fundedAt = funded.milestones[0]!.funded_at!;
    // The delivery date counts from the funding.
    expect(Date.parse(funded.due_at) - Date.parse(fundedAt)).toBe(3 * 86_400_000);
    await deliver(owner, id);
    await approveContract(buyer, id);
    const [milestone] = await milestonesOf(id);
    expect(milestone).toMatchObject({ status: "released", released_cents: 53_000, fee_cents: 5_300 });
    expect((await getContract(buyer, id)).status).toBe("completed");
    expect(await checkLedger()).toEqual([]);
  });
});
