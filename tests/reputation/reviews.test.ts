import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import {
  approveContract,
  cancelContract,
  deliverContract,
  requestCancellation,
  acceptCancellation,
} from "~/services/contracts/contracts.server";
import { getOpportunity, listOpportunities } from "~/services/marketplace/opportunities.server";
import { getFreelancerProfile, getMerchantProfile, listFreelancers } from "~/services/reputation/profiles.server";
import {
  getContractReviews,
  listUserReviews,
  publishDueReviews,
  replyToReview,
  writeReview,
} from "~/services/reputation/reviews.server";
import { freelancer, merchant, negotiation, notificationsOf, outcome } from "../support/market";

const DAY = 86_400_000;

async function hired() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, id: application.id };
}

/** A contract delivered and approved: both sides may review it. */
async function completed() {
  const hire = await hired();
  await deliverContract(hire.applicant, hire.id, { message: "Segue o trabalho pronto, com os arquivos-fonte." });
  await approveContract(hire.owner, hire.id);
  return hire;
}

const userRow = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** Moves the contract's end (and so its review window) `days` into the past. */
async function endedDaysAgo(id: string, days: number) {
  const ended = new Date(Date.now() - days * DAY).toISOString();
  await db.updateTable("contracts").set({ ended_at: ended }).where("id", "=", id).execute();
  return ended;
}

describe("who may review, and when", () => {
  it("refuses a contract still in progress, and one cancelled before any delivery", async () => {
    const { owner, applicant, id } = await hired();
    expect(await outcome(writeReview(owner, id, { rating: 5 }))).toBe(409);
    await cancelContract(owner, id, { reason: "Mudamos de planos para o projeto." });
    expect(await outcome(writeReview(applicant, id, { rating: 1 }))).toBe(409);
    expect((await getContractReviews(owner, id)).eligible).toBe(false);
  });

  it("accepts a contract cancelled after a delivery (both sides agreed)", async () => {
    const { owner, applicant, id } = await hired();
    await deliverContract(applicant, id, { message: "Primeira versão entregue para análise." });
    await requestCancellation(owner, id, { reason: "O projeto foi suspenso pela diretoria." });
    await acceptCancellation(applicant, id);
    expect(await outcome(writeReview(owner, id, { rating: 3, comment: "Bom começo." }))).toBe(200);
  });

  it("is for the two sides only, once each, with 1–5 stars and at most 1 000 characters", async () => {
    const { owner, applicant, id } = await completed();
    const stranger = await freelancer();
    expect(await outcome(writeReview(stranger, id, { rating: 5 }))).toBe(404);
    expect(await outcome(writeReview(owner, "not-a-uuid", { rating: 5 }))).toBe(404);
    for (const rating of [0, 6, 2.5, "cinco", null])
      expect(await outcome(writeReview(owner, id, { rating }))).toBe(422);
    expect(await outcome(writeReview(owner, id, { rating: 4, comment: "x".repeat(1001) }))).toBe(422);
    expect(await outcome(writeReview(owner, id, { rating: "4", comment: "x".repeat(1000) }))).toBe(200);
    expect(await outcome(writeReview(owner, id, { rating: 5 }))).toBe(409);
    expect(await outcome(writeReview(applicant, id, { rating: 5 }))).toBe(200);
  });

  it("closes 14 days after the contract's end, to the millisecond", async () => {
    const { owner, applicant, id } = await completed();
    await endedDaysAgo(id, 14);
    expect(await outcome(writeReview(owner, id, { rating: 5 }))).toBe(409);
    await db
      .updateTable("contracts")
      .set({ ended_at: new Date(Date.now() - 14 * DAY + 60_000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect(await outcome(writeReview(applicant, id, { rating: 5 }))).toBe(200);
  });
});

describe("publication", () => {
  it("hides the first review from its subject until the second is written, then publishes both", async () => {
    const { owner, applicant, id } = await completed();
    const first = await writeReview(owner, id, { rating: 4, comment: "Entregou no prazo." });
    expect(first.published).toBe(false);
    const seen = await getContractReviews(applicant, id);
    expect(seen.theirs).toBeNull();
    expect(seen.theirs_written).toBe(true);
    expect(seen.can_review).toBe(true);
    expect((await listUserReviews(applicant.id, {})).data).toHaveLength(0);
    expect((await userRow(applicant.id)).rating_count).toBe(0);
    expect((await notificationsOf(applicant)).map((n) => n.kind)).toContain("contract_reviewed");

    await writeReview(applicant, id, { rating: 2, comment: "Demorou a responder." });
    const both = await getContractReviews(applicant, id);
    expect(both.theirs?.rating).toBe(4);
    expect(both.mine?.published).toBe(true);
    expect(both.can_review).toBe(false);
    expect(ratingOfRow(await userRow(applicant.id))).toEqual([1, 4]);
    expect(ratingOfRow(await userRow(owner.id))).toEqual([1, 2]);
  });

  it("publishes a lone review exactly when the window ends, once, whoever runs the schedule", async () => {
    const { owner, applicant, id } = await completed();
    await writeReview(applicant, id, { rating: 5, comment: "Ótimo cliente." });
    const { publish_due_at } = await db
      .selectFrom("reviews")
      .select("publish_due_at")
      .where("contract_id", "=", id)
      .executeTakeFirstOrThrow();
    const due = new Date(publish_due_at);
    await publishDueReviews(new Date(due.getTime() - 1));
    expect((await getContractReviews(owner, id)).theirs).toBeNull();
    // Two processes at the boundary: one publishes, the rating counts it once.
    const [a, b] = await Promise.all([publishDueReviews(due), publishDueReviews(due)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const seen = await getContractReviews(owner, id);
    expect(seen.theirs?.published_at).toBe(publish_due_at);
    expect(ratingOfRow(await userRow(owner.id))).toEqual([1, 5]);
    await publishDueReviews(new Date(due.getTime() + DAY));
    expect(ratingOfRow(await userRow(owner.id))).toEqual([1, 5]);
  });

  it("two reviews at once by the same side: one is kept", async () => {
    const { owner, id } = await completed();
    const results = await Promise.all([1, 2, 3].map((n) => outcome(writeReview(owner, id, { rating: n }))));
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(2);
    const rows = await db.selectFrom("reviews").select("id").where("contract_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it("both sides at the same moment: both published, each rating counted once", async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, applicant, id } = await completed();
      await Promise.all([writeReview(owner, id, { rating: 5 }), writeReview(applicant, id, { rating: 3 })]);
      const rows = await db.selectFrom("reviews").select(["published_at"]).where("contract_id", "=", id).execute();
      expect(rows.every((r) => r.published_at !== null)).toBe(true);
      expect(ratingOfRow(await userRow(applicant.id))).toEqual([1, 5]);
      expect(ratingOfRow(await userRow(owner.id))).toEqual([1, 3]);
    }
  });
});

describe("replies", () => {
  it("the reviewed person replies once to a published review; nobody else, and not before", async () => {
    const { owner, applicant, id } = await completed();
    const review = await writeReview(owner, id, { rating: 3, comment: "Faltou atenção aos detalhes." });
    expect(await outcome(replyToReview(applicant, review.id, { reply: "Obrigado pelo retorno." }))).toBe(404);
    await writeReview(applicant, id, { rating: 5 });
    expect(await outcome(replyToReview(owner, review.id, { reply: "Respondo a mim mesmo." }))).toBe(404);
    expect(await outcome(replyToReview(applicant, review.id, { reply: "" }))).toBe(422);
    expect(await outcome(replyToReview(applicant, review.id, { reply: "Obrigado pelo retorno." }))).toBe(200);
    expect(await outcome(replyToReview(applicant, review.id, { reply: "De novo." }))).toBe(409);
    expect((await listUserReviews(applicant.id, {})).data[0].reply).toBe("Obrigado pelo retorno.");
  });
});

describe("ratings where people choose", () => {
  it("profiles, the directory (filter and sort), applications and opportunity cards show published ratings", async () => {
    const a = await completed();
    await Promise.all([writeReview(a.owner, a.id, { rating: 5 }), writeReview(a.applicant, a.id, { rating: 4 })]);
    const b = await completed();
    await Promise.all([writeReview(b.owner, b.id, { rating: 2 }), writeReview(b.applicant, b.id, { rating: 4 })]);

    const profile = await getFreelancerProfile(a.applicant.id);
    expect(profile.rating).toEqual({ average: 5, count: 1 });
    expect(profile.completed_contracts).toBe(1);
    expect((await getMerchantProfile(a.owner.id)).rating).toEqual({ average: 4, count: 1 });

    const best = await listFreelancers({ min_rating: "4,5", sort: "rating", per_page: "50" });
    const ids = best.data.map((p) => p.id);
    expect(ids).toContain(a.applicant.id);
    expect(ids).not.toContain(b.applicant.id);
    expect(best.data.every((p) => (p.rating.average ?? 0) >= 4.5)).toBe(true);
    const byRating = await listFreelancers({ sort: "rating", per_page: "100" });
    const averages = byRating.data.map((p) => p.rating.average ?? -1);
    expect(averages).toEqual([...averages].sort((x, y) => y - x));
    expect(await outcome(listFreelancers({ min_rating: "6" }))).toBe(422);
    const byContracts = await listFreelancers({ sort: "contracts", per_page: "100" });
    const counts = byContracts.data.map((p) => p.completed_contracts);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));

    const application = await getApplication(a.owner, a.id);
    expect(application.freelancer.rating).toEqual({ average: 5, count: 1 });
    const opportunity = await getOpportunity(a.applicant, application.opportunity.uuid);
    expect(opportunity.merchant.rating).toEqual({ average: 4, count: 1 });
    const other = await createOpportunity(db, { merchant_id: a.owner.id });
    const cards = await listOpportunities(b.applicant, { per_page: "100" });
    expect(cards.data.find((o) => o.uuid === other.uuid)?.merchant.rating).toEqual({ average: 4, count: 1 });
  });

  it("a merchant without published reviews has no average", async () => {
    const m = await merchant();
    expect((await getMerchantProfile(m.id)).rating).toEqual({ average: null, count: 0 });
  });
});

function ratingOfRow(u: { rating_count: number; rating_sum: number }) {
  return [Number(u.rating_count), Number(u.rating_sum)];
}
