import { randomUUID } from "node:crypto";
import type { KyselyPlugin } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { marketplaceMetrics, PERIOD_FIGURES_TTL_MS } from "~/services/operator/metrics.server";
import * as metricsApi from "~/routes/api+/admin+/metrics";
import * as overviewPage from "~/routes/admin+/_index";
import { signedInUser } from "../support/helpers";
import { get, signedInOperator } from "./support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
/** The São Paulo day (UTC−3) of a stored instant. */
const spDay = (iso: string) => new Date(Date.parse(iso) - 3 * HOUR).toISOString().slice(0, 10);

/** Counts the statements sent through a Kysely instance. */
function counted() {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { database: db.withPlugin(plugin), statements: () => statements };
}

/** An application by a new freelancer, made at `at`; an accepted one brings its contract. */
function apply(opportunity: { id: number }, at: string, accepted = false) {
  return createApplication(db, { opportunity, status: accepted ? "accepted" : "pending", created_at: at });
}

async function report(reporterId: string, authorId: string, targetId: string) {
  await db
    .insertInto("reports")
    .values({
      id: randomUUID(),
      reporter_id: reporterId,
      target_type: "profile",
      target_id: targetId,
      author_id: authorId,
      reason: "spam",
      details: null,
      status: "open",
      resolution: null,
      resolution_reason: null,
      resolved_by: null,
      resolved_at: null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

describe("marketplace metrics", () => {
  it("are four statements whatever the data, and one while the period's figures are kept", async () => {
    const empty = counted();
    const none = await marketplaceMetrics({}, empty.database);
    expect(empty.statements()).toBe(4);
    await marketplaceMetrics({}, empty.database);
    expect(empty.statements()).toBe(5);
    expect(none.funnel).toEqual({ published: 0, applied: 0, hired: 0, completed: 0 });
    expect(none.median_first_application_seconds).toBeNull();
    expect(none.series.signups).toHaveLength(30);
    expect(none.series.signups.every((p) => p.value === 0)).toBe(true);
  });

  it("count the period's signups, opportunities, applications, hires and completions, the funnel and the median", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    const older = await createUser(db, { account_type: "merchant", created_at: ago(40 * DAY) });
    await createUser(db, { account_type: "operator" });
    const a = await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(10 * DAY) });
    const b = await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(5 * DAY) });
    await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(3 * DAY) });
    // Waiting in pre-moderation, and hidden by an operator: not published.
    await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(2 * DAY), held_at: ago(2 * DAY) });
    await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(2 * DAY), hidden_at: ago(DAY) });
    const e = await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(60 * DAY) });

    const hire = await apply(a, later(a.created_at, 2 * HOUR), true);
    await apply(a, later(a.created_at, 5 * HOUR));
    await apply(b, later(b.created_at, 30 * 60_000));
    await apply(e, later(e.created_at, 10 * HOUR));
    const endedAt = ago(DAY);
    await db
      .updateTable("contracts")
      .set({ status: "completed", ended_at: endedAt })
      .where("id", "=", hire.id)
      .execute();
    await report(merchant.id, hire.freelancer_id, hire.freelancer_id);
    await report(older.id, hire.freelancer_id, hire.freelancer_id);

    const { database, statements } = counted();
    const month = await marketplaceMetrics({ days: "30" }, database);
    expect(statements()).toBe(4);
    // The merchant and the four freelancers who applied; not the operator, not the older account.
    expect(month.totals).toEqual({
      signups: 5,
      opportunities: 3,
      applications: 3,
      hires: 1,
      completed: 1,
      completed_value_cents: hire.price_cents,
    });
    expect(month.series.completed.find((p) => p.date === spDay(endedAt))?.value).toBe(1);
    expect(month.series.opportunities.find((p) => p.date === spDay(a.created_at))?.value).toBe(1);
    expect(month.to).toBe(spDay(new Date().toISOString()));
    expect(month.funnel).toEqual({ published: 3, applied: 2, hired: 1, completed: 1 });
    // First applications 2 h (a) and 30 min (b) after publishing: the lower median is 30 min.
    expect(month.median_first_application_seconds).toBe(1800);
    expect(month.rates).toEqual({ disputes: 0, hires: 1, reports: 2, accounts: 6 });
    // Two reports of one profile wait as one case.
    expect(month.waiting).toEqual({
      reports: 1,
      disputes: 0,
      premoderation: 1,
      pix_receipts: 0,
      payouts: 0,
      refunds: 0,
    });

    const quarter = await marketplaceMetrics({ days: "90" });
    expect(quarter.series.signups).toHaveLength(90);
    expect(quarter.totals).toMatchObject({ signups: 6, opportunities: 4, applications: 4 });
    // 30 min, 2 h, 10 h: the median is 2 h.
    expect(quarter.median_first_application_seconds).toBe(7200);
  });

  it("keep the period's figures for a minute, and read what waits for the operator on every view", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { database, statements } = counted();
      const merchant = await createUser(db, { account_type: "merchant" });
      const first = await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(2 * DAY) });
      // Two views of a cold period at once count it once.
      const [before] = await Promise.all([
        marketplaceMetrics({ days: "30" }, database),
        marketplaceMetrics({ days: "30" }, database),
      ]);
      expect(statements()).toBe(3 + 2);

      await createOpportunity(db, { merchant_id: merchant.id, created_at: ago(DAY), held_at: ago(DAY) });
      await apply(first, later(first.created_at, HOUR));
      vi.setSystemTime(Date.now() + PERIOD_FIGURES_TTL_MS - 1000);
      const kept = await marketplaceMetrics({ days: "30" }, database);
      expect(kept.funnel).toEqual(before.funnel);
      expect(kept.totals).toEqual(before.totals);
      // The queue is live: the held opportunity waits now.
      expect(kept.waiting.premoderation).toBe(before.waiting.premoderation + 1);
      // Another period is counted on its own.
      const quarter = await marketplaceMetrics({ days: "90" }, database);
      expect(quarter.totals.applications).toBeGreaterThan(before.totals.applications);

      // A minute later the next view still answers at once, with the kept figures, while they
      // are counted again; the view after that has the new ones.
      vi.setSystemTime(Date.now() + 2000);
      const applications = before.totals.applications;
      expect((await marketplaceMetrics({ days: "30" }, database)).totals.applications).toBe(applications);
      await vi.waitFor(async () =>
        expect((await marketplaceMetrics({ days: "30" }, database)).totals.applications).toBe(applications + 1),
      );
      expect((await marketplaceMetrics({ days: "30" }, database)).funnel.applied).toBe(before.funnel.applied + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuse any period but 30 or 90 days", async () => {
    await expect(marketplaceMetrics({ days: "7" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { days: "metrics_days_invalid" },
    });
  });
});

describe("metrics pages and API", () => {
  it("answer operators, and merchants or freelancers get 404", async () => {
    const operator = await signedInOperator();
    const api = await get(metricsApi, "/api/admin/metrics?days=90", operator.token);
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ days: 90, funnel: { published: expect.any(Number) } });
    const refused = await get(metricsApi, "/api/admin/metrics?days=365", operator.token);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ days: "Escolha um período de 30 ou 90 dias." });
    const merchant = await signedInUser({ account_type: "merchant" });
    expect((await get(metricsApi, "/api/admin/metrics", merchant.token)).status).toBe(404);
    const page = await get(overviewPage, "/admin?days=90", operator.token);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ metrics: { days: 90 } });
    // A period the page does not offer falls back to 30 days, saying why.
    const fallback = await get(overviewPage, "/admin?days=abc", operator.token);
    expect(fallback.body).toMatchObject({ metrics: { days: 30 }, error: "Escolha um período de 30 ou 90 dias." });
  });
});
