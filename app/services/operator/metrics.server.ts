import { sql, type Kysely } from "kysely";
import { LRUCache } from "lru-cache";
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
  waiting: {
    reports: number;
    disputes: number;
    premoderation: number;
    /** Manual Pix charges whose payer said "Já paguei", not confirmed yet. */
    pix_receipts: number;
    /** Payouts asked for and not sent, refunds owed and not paid. */
    payouts: number;
    refunds: number;
  };
};

/** Published: neither waiting in pre-moderation nor hidden by an operator. */
const published = sql`o.held_at IS NULL AND o.hidden_at IS NULL`;

type PeriodFigures = Omit<MetricsJson, "waiting">;

/** How long a process serves the period's figures before counting them again. */
export const PERIOD_FIGURES_TTL_MS = 60_000;

/**
 * The period's figures, per database and per period (30 or 90 days from a given São Paulo day),
 * kept for a minute in each process: counting 90 days of a large marketplace takes seconds, and
 * an overview open in several tabs, or a console polled by scripts, would count them again for
 * every view. Concurrent views of a cold period share one count (`fetch`), and once a minute has
 * passed the next view gets the kept figures while they are counted again. What waits for the
 * operator is never kept: it is read live on every view.
 */
const kept = new WeakMap<Kysely<Database>, LRUCache<string, PeriodFigures>>();

function keptFor(database: Kysely<Database>) {
  let cache = kept.get(database);
  if (!cache) {
    cache = new LRUCache<string, PeriodFigures>({
      max: 8,
      ttl: PERIOD_FIGURES_TTL_MS,
      allowStale: true,
      // Date.now, so a test can move the clock with fake timers.
      perf: { now: () => Date.now() },
      fetchMethod: (key) => {
        const [days, since] = key.split("|");
        return periodFigures(database, Number(days), since);
      },
    });
    kept.set(database, cache);
  }
  return cache;
}

/**
 * The figures of the last 30 or 90 days, and what waits for the operator now. One statement for
 * the queues on every view, and three more whenever the period's figures are counted (see
 * `keptFor`): the daily counts of every series, the funnel with the rates, and the median time to
 * a first application.
 */
export async function marketplaceMetrics(query: unknown, database: Kysely<Database> = db): Promise<MetricsJson> {
  const { days: period } = parseInput(metricsQuerySchema, query);
  const days = Number(period);
  const { since } = seriesDays(days);
  const [figures, waiting] = await Promise.all([
    keptFor(database).fetch(`${days}|${since}`) as Promise<PeriodFigures>,
    waitingNow(database),
  ]);
  return { ...figures, waiting };
}

/**
 * Reports (one per reported target), open disputes, opportunities held for pre-moderation, and
 * the payments desk's queues: Pix receipts the payer said were paid, payouts and refunds to send.
 */
async function waitingNow(database: Kysely<Database>): Promise<MetricsJson["waiting"]> {
  const { rows } = await sql<Record<string, number | string>>`SELECT
      (SELECT count(*) FROM (SELECT DISTINCT target_type, target_id FROM reports WHERE status = 'open') t) AS reports,
      (SELECT count(*) FROM disputes WHERE status = 'open') AS disputes,
      (SELECT count(*) FROM opportunities WHERE held_at IS NOT NULL AND hidden_at IS NULL) AS premoderation,
      (SELECT count(*) FROM pix_charges
        WHERE status = 'pending' AND provider = 'manual' AND claimed_at IS NOT NULL) AS pix_receipts,
      (SELECT count(*) FROM payouts WHERE status = 'requested') AS payouts,
      (SELECT count(*) FROM refunds WHERE status = 'due') AS refunds`.execute(database);
  return {
    reports: Number(rows[0].reports),
    disputes: Number(rows[0].disputes),
    premoderation: Number(rows[0].premoderation),
    pix_receipts: Number(rows[0].pix_receipts),
    payouts: Number(rows[0].payouts),
    refunds: Number(rows[0].refunds),
  };
}

async function periodFigures(database: Kysely<Database>, days: number, since: string): Promise<PeriodFigures> {
  // The period's São Paulo days, from the first one (`since` is its midnight in UTC).
  const first = Date.parse(`${since.slice(0, 10)}T00:00:00Z`);
  const dates = Array.from({ length: days }, (_, i) => new Date(first + i * 86_400_000).toISOString().slice(0, 10));
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
        (SELECT count(*) FROM users WHERE account_type IN ('merchant', 'freelancer')) AS accounts
      FROM (SELECT count(*) AS published,
          count(*) FILTER (WHERE o.applications_count > 0) AS applied,
          count(*) FILTER (WHERE o.accepted_count > 0) AS hired,
          count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM contracts c WHERE c.opportunity_id = o.id AND c.status = 'completed')) AS completed
        FROM opportunities o WHERE o.created_at >= ${since} AND ${published}) funnel`.execute(database),
    // The lower median: the middle value of an odd count, the smaller of the two middle ones of
    // an even count. The opportunity keeps the time of its first application (first_applied_at).
    sql<{ s: number | string }>`WITH firsts AS (
        SELECT ${secondsBetween(sql`o.created_at`, sql`o.first_applied_at`)} AS s
        FROM opportunities o
        WHERE o.created_at >= ${since} AND ${published} AND o.first_applied_at IS NOT NULL
      )
      SELECT s FROM firsts ORDER BY s
      LIMIT 1 OFFSET (SELECT (count(*) - 1) / 2 FROM firsts)`.execute(database),
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
  };
}
