import { sql, type Kysely } from "kysely";
import { METRIC_SERIES, metricsQuerySchema, type MetricSeries } from "~/lib/admin-schemas";
import { db } from "../../../db";
import { saoPauloDay, secondsBetween } from "../../../db/dialect";
import type { Database } from "../../../db/schema";
import { fillSeries, seriesDays } from "../marketplace/dashboard.server";
import { parseInput } from "../platform/errors.server";

// The marketplace's health for the operator's overview (/admin and GET /api/admin/metrics).
// The rules behind each figure are in docs/product.md ("Métricas do marketplace").

type Point = { date: string; value: number };

export type MetricsJson = {
  days: number;
  /** The first São Paulo day of the period (YYYY-MM-DD); the last one is today. */
  from: string;
  to: string;
  series: Record<MetricSeries, Point[]>;
  totals: Record<MetricSeries, number> & { completed_value_cents: number };
  /** Opportunities published in the period, and how many of them reached each step so far. */
  funnel: { published: number; applied: number; hired: number; completed: number };
  /** Median time from publishing to the first application, over the period's opportunities that have one. */
  median_first_application_seconds: number | null;
  rates: {
    /** Disputes opened in the period, and the contracts started in it. */
    disputes: number;
    hires: number;
    /** Reports made in the period, and the marketplace's accounts (merchants and freelancers). */
    reports: number;
    accounts: number;
  };
  /** What waits for an operator now. */
  waiting: { reports: number; disputes: number; premoderation: number };
};

/** Published: neither waiting in pre-moderation nor hidden by an operator. */
const published = sql`o.held_at IS NULL AND o.hidden_at IS NULL`;

/**
 * The figures of the last 30 or 90 days. Three statements whatever the data: the daily counts
 * of every series, the funnel with the rates and the queues, and the median time to a first
 * application.
 */
export async function marketplaceMetrics(query: unknown, database: Kysely<Database> = db): Promise<MetricsJson> {
  const { days: period } = parseInput(metricsQuerySchema, query);
  const days = Number(period);
  const { dates, since } = seriesDays(days);
  const day = (column: string) => saoPauloDay(column);
  const [daily, summary, median] = await Promise.all([
    sql<{ kind: MetricSeries; day: string; n: number | string; value: number | string | null }>`
      SELECT 'signups' AS kind, ${day("created_at")} AS day, count(*) AS n, 0 AS value FROM users
        WHERE created_at >= ${since} AND account_type <> 'operator' GROUP BY 2
      UNION ALL
      SELECT 'opportunities', ${day("o.created_at")}, count(*), 0 FROM opportunities o
        WHERE o.created_at >= ${since} AND ${published} GROUP BY 2
      UNION ALL
      SELECT 'applications', ${day("created_at")}, count(*), 0 FROM applications
        WHERE created_at >= ${since} GROUP BY 2
      UNION ALL
      SELECT 'hires', ${day("created_at")}, count(*), 0 FROM contracts
        WHERE created_at >= ${since} GROUP BY 2
      UNION ALL
      SELECT 'completed', ${day("ended_at")}, count(*), sum(price_cents) FROM contracts
        WHERE status = 'completed' AND ended_at >= ${since} GROUP BY 2`.execute(database),
    // The funnel's four steps in one pass over the period's published opportunities.
    sql<Record<string, number | string | null>>`SELECT
        funnel.published, funnel.applied, funnel.hired, funnel.completed,
        (SELECT count(*) FROM disputes WHERE created_at >= ${since}) AS disputes,
        (SELECT count(*) FROM contracts WHERE created_at >= ${since}) AS hires,
        (SELECT count(*) FROM reports WHERE created_at >= ${since}) AS reports,
        (SELECT count(*) FROM users WHERE account_type IN ('merchant', 'freelancer')) AS accounts,
        (SELECT count(*) FROM (SELECT DISTINCT target_type, target_id FROM reports WHERE status = 'open') t) AS open_reports,
        (SELECT count(*) FROM disputes WHERE status = 'open') AS open_disputes,
        (SELECT count(*) FROM opportunities WHERE held_at IS NOT NULL AND hidden_at IS NULL) AS held
      FROM (SELECT count(*) AS published,
          count(*) FILTER (WHERE o.applications_count > 0) AS applied,
          count(*) FILTER (WHERE o.accepted_count > 0) AS hired,
          count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM contracts c WHERE c.opportunity_id = o.id AND c.status = 'completed')) AS completed
        FROM opportunities o WHERE o.created_at >= ${since} AND ${published}) funnel`.execute(database),
    // The lower median: the middle value of an odd count, the smaller of the two middle ones of
    // an even count.
    sql<{ s: number | string }>`WITH firsts AS (
        SELECT ${secondsBetween(
          sql`o.created_at`,
          sql`(SELECT min(a.created_at) FROM applications a WHERE a.opportunity_id = o.id)`,
        )} AS s
        FROM opportunities o
        WHERE o.created_at >= ${since} AND ${published} AND o.applications_count > 0
      )
      SELECT s FROM firsts WHERE s IS NOT NULL ORDER BY s
      LIMIT 1 OFFSET (SELECT (count(*) - 1) / 2 FROM firsts WHERE s IS NOT NULL)`.execute(database),
  ]);

  const series = Object.fromEntries(
    METRIC_SERIES.map((kind) => [
      kind,
      fillSeries(
        dates,
        daily.rows.filter((r) => r.kind === kind),
      ),
    ]),
  ) as Record<MetricSeries, Point[]>;
  const total = (points: Point[]) => points.reduce((sum, p) => sum + p.value, 0);
  const completedValue = daily.rows
    .filter((r) => r.kind === "completed")
    .reduce((sum, r) => sum + Number(r.value ?? 0), 0);
  const n = (key: string) => Number(summary.rows[0][key] ?? 0);
  const middle = median.rows[0];
  return {
    days,
    from: dates[0],
    to: dates[dates.length - 1],
    series,
    totals: {
      ...(Object.fromEntries(METRIC_SERIES.map((kind) => [kind, total(series[kind])])) as Record<MetricSeries, number>),
      completed_value_cents: completedValue,
    },
    funnel: { published: n("published"), applied: n("applied"), hired: n("hired"), completed: n("completed") },
    median_first_application_seconds: middle ? Math.max(0, Math.round(Number(middle.s))) : null,
    rates: { disputes: n("disputes"), hires: n("hires"), reports: n("reports"), accounts: n("accounts") },
    waiting: { reports: n("open_reports"), disputes: n("open_disputes"), premoderation: n("held") },
  };
}
