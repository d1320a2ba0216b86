import { sql } from "kysely";
import { todayInSaoPaulo } from "~/lib/market-schemas";
import { db } from "../../db";
import { saoPauloDay } from "../../db/dialect";
import type { UserRow } from "../../db/schema";

export const SERIES_DAYS = 30;

export type Dashboard = {
  role: UserRow["account_type"];
  figures: Record<string, number>;
  series: { date: string; value: number }[];
};

/** The last 30 local days, oldest first, and the UTC instant the first one starts. */
function seriesDays(now = new Date()) {
  const today = todayInSaoPaulo(now);
  const end = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: SERIES_DAYS }, (_, i) =>
    new Date(end - (SERIES_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  return { dates, since: `${dates[0]}T03:00:00.000Z` };
}

function fillSeries(dates: string[], rows: { day: string; n: number }[]) {
  const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return dates.map((date) => ({ date, value: byDay.get(date) ?? 0 }));
}

/**
 * Role-specific figures and the daily count of applications received (merchant) or sent
 * (freelancer) over 30 days. Two queries.
 */
export async function getDashboard(user: UserRow): Promise<Dashboard> {
  const { dates, since } = seriesDays();
  if (user.account_type === "merchant") {
    const [figures, series] = await Promise.all([
      sql<{
        open_opportunities: number;
        pending_applications: number;
        accepted_applications: number;
        total_applications: number;
      }>`SELECT
          (SELECT count(*) FROM opportunities WHERE merchant_id = ${user.id} AND status = 'open') AS open_opportunities,
          count(*) FILTER (WHERE a.status = 'pending') AS pending_applications,
          count(*) FILTER (WHERE a.status = 'accepted') AS accepted_applications,
          count(a.id) AS total_applications
        FROM opportunities o JOIN applications a ON a.opportunity_id = o.id
        WHERE o.merchant_id = ${user.id}`.execute(db),
      sql<{ day: string; n: number }>`SELECT ${saoPauloDay("a.created_at")} AS day, count(*) AS n
        FROM opportunities o JOIN applications a ON a.opportunity_id = o.id
        WHERE o.merchant_id = ${user.id} AND a.created_at >= ${since}
        GROUP BY 1`.execute(db),
    ]);
    const f = figures.rows[0];
    return {
      role: "merchant",
      figures: {
        open_opportunities: Number(f.open_opportunities),
        pending_applications: Number(f.pending_applications),
        accepted_applications: Number(f.accepted_applications),
        total_applications: Number(f.total_applications),
      },
      series: fillSeries(dates, series.rows),
    };
  }
  const [figures, series] = await Promise.all([
    sql<{ total: number; active: number; awaiting_me: number; accepted: number; rejected: number }>`SELECT
        count(*) AS total,
        count(*) FILTER (WHERE status IN ('pending', 'countered')) AS active,
        count(*) FILTER (WHERE status = 'countered') AS awaiting_me,
        count(*) FILTER (WHERE status = 'accepted') AS accepted,
        count(*) FILTER (WHERE status = 'rejected') AS rejected
      FROM applications WHERE freelancer_id = ${user.id}`.execute(db),
    sql<{ day: string; n: number }>`SELECT ${saoPauloDay("created_at")} AS day, count(*) AS n
      FROM applications
      WHERE freelancer_id = ${user.id} AND created_at >= ${since}
      GROUP BY 1`.execute(db),
  ]);
  const f = figures.rows[0];
  const decided = Number(f.accepted) + Number(f.rejected);
  return {
    role: "freelancer",
    figures: {
      active_applications: Number(f.active),
      awaiting_me: Number(f.awaiting_me),
      accepted_applications: Number(f.accepted),
      total_applications: Number(f.total),
      // Share of decided applications that were accepted; withdrawn ones were the freelancer's choice.
      success_rate: decided === 0 ? 0 : Math.round((Number(f.accepted) / decided) * 100),
    },
    series: fillSeries(dates, series.rows),
  };
}
