import { randomUUID } from "node:crypto";
import type { KyselyPlugin } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { marketplaceMetrics } from "~/services/operator/metrics.server";
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
  it("are three statements, whatever the data", async () => {
    const empty = counted();
    const none = await marketplaceMetrics({}, empty.database);
    expect(empty.statements()).toBe(3);
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
    expect(statements()).toBe(3);
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
    expect(month.waiting).toEqual({ reports: 1, disputes: 0, premoderation: 1 });

    const quarter = await marketplaceMetrics({ days: "90" });
    expect(quarter.series.signups).toHaveLength(90);
    expect(quarter.totals).toMatchObject({ signups: 6, opportunities: 4, applications: 4 });
    // 30 min, 2 h, 10 h: the median is 2 h.
    expect(quarter.median_first_application_seconds).toBe(7200);
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
