import { sql } from "kysely";
import { todayInSaoPaulo } from "~/lib/market-schemas";
import { db } from "../../../db";
import { saoPauloDay } from "../../../db/dialect";
import type { MarketRole, UserRow } from "../../../db/schema";
import { parseTags } from "../accounts/users.server";
import { config } from "~/config.server";
import { balancesOf } from "../payments/ledger.server";

export const SERIES_DAYS = 30;

export type ProfileStep = "photo" | "bio" | "skills" | "portfolio" | "city";

export type Dashboard = {
  role: MarketRole;
  figures: Record<string, number>;
  series: { date: string; value: number }[];
  /** What the public profile still lacks, in the order to fill it in; complete when all are done. */
  profile: { steps: { step: ProfileStep; done: boolean }[]; complete: boolean };
};

/**
 * The profile checklist: what makes a profile worth a hire (a freelancer's photo, bio, skills
 * and portfolio) or worth an application (a merchant's photo, a word about the business and
 * where it is).
 */
export function profileChecklist(user: UserRow, portfolioItems: number): Dashboard["profile"] {
  const done: Record<ProfileStep, boolean> = {
    photo: user.photo_path !== null,
    bio: user.bio.trim() !== "",
    skills: parseTags(user.skills).length > 0,
    portfolio: portfolioItems > 0,
    city: Boolean(user.city),
  };
  const steps: ProfileStep[] =
    user.account_type === "freelancer" ? ["photo", "bio", "skills", "portfolio"] : ["photo", "bio", "city"];
  const list = steps.map((step) => ({ step, done: done[step] }));
  return { steps: list, complete: list.every((s) => s.done) };
}

/** The last `days` São Paulo days, oldest first, and the UTC instant the first one starts. */
export function seriesDays(days = SERIES_DAYS, now = new Date()) {
  const today = todayInSaoPaulo(now);
  const end = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  return { dates, since: `${dates[0]}T03:00:00.000Z` };
}

/** One point per date, 0 where the rows have no count for that day. */
export function fillSeries(dates: string[], rows: { day: string; n: number | string }[]) {
  const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return dates.map((date) => ({ date, value: byDay.get(date) ?? 0 }));
}

/**
 * The user's contracts: in progress (or delivered, waiting for review), waiting for the user's
 * move (a delivery to review, or work to deliver; an answer to a cancellation request), and the
 * value completed in the last 30 days (spent by a merchant, earned by a freelancer).
 */
async function contractFigures(user: UserRow) {
  if (config.PAYMENTS === "escrow") return escrowFigures(user);
  const merchant = user.account_type === "merchant";
  const side = sql.ref(merchant ? "merchant_id" : "freelancer_id");
  const mine = merchant ? "delivered" : "in_progress";
  const other = merchant ? "freelancer" : "merchant";
  const since = new Date(Date.now() - SERIES_DAYS * 86_400_000).toISOString();
  const { rows } = await sql<{ active: number; awaiting: number; value: number | null }>`SELECT
      count(*) FILTER (WHERE status IN ('in_progress', 'delivered')) AS active,
      count(*) FILTER (WHERE status = ${mine} OR (status IN ('in_progress', 'delivered') AND cancel_requested_by = ${other})) AS awaiting,
      sum(price_cents) FILTER (WHERE status = 'completed' AND ended_at >= ${since}) AS value
    FROM contracts WHERE ${side} = ${user.id}`.execute(db);
  return {
    contracts_in_progress: Number(rows[0].active),
    contracts_awaiting_me: Number(rows[0].awaiting),
    contracts_completed_value_cents: Number(rows[0].value ?? 0),
  };
}

/**
 * With payments on, the money figures come from the ledger: what is held in the user's
 * milestones, and what the freelancer can withdraw and has received, or what the merchant paid.
 * The contract counts stay as they are.
 */
async function escrowFigures(user: UserRow) {
  const merchant = user.account_type === "merchant";
  const side = sql.ref(merchant ? "merchant_id" : "freelancer_id");
  const mine = merchant ? "delivered" : "in_progress";
  const other = merchant ? "freelancer" : "merchant";
  const [counts, balances] = await Promise.all([
    sql<{ active: number; awaiting: number }>`SELECT
        count(*) FILTER (WHERE status IN ('in_progress', 'delivered')) AS active,
        count(*) FILTER (WHERE status = ${mine} OR (status IN ('in_progress', 'delivered') AND cancel_requested_by = ${other})) AS awaiting
      FROM contracts WHERE ${side} = ${user.id}`.execute(db),
    balancesOf(user),
  ]);
  return {
    contracts_in_progress: Number(counts.rows[0].active),
    contracts_awaiting_me: Number(counts.rows[0].awaiting),
    held_cents: balances.held_cents,
    ...(merchant
      ? { paid_in_cents: balances.paid_in_cents }
      : { available_cents: balances.available_cents, paid_out_cents: balances.paid_out_cents }),
  };
}

/**
 * Role-specific figures and the daily count of applications received (merchant) or sent
 * (freelancer) over 30 days, and the contract figures. Three queries.
 */
export async function getDashboard(user: UserRow): Promise<Dashboard> {
  const { dates, since } = seriesDays();
  if (user.account_type === "merchant") {
    const [figures, series, contracts] = await Promise.all([
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
      contractFigures(user),
    ]);
    const f = figures.rows[0];
    return {
      role: "merchant",
      figures: {
        open_opportunities: Number(f.open_opportunities),
        pending_applications: Number(f.pending_applications),
        accepted_applications: Number(f.accepted_applications),
        total_applications: Number(f.total_applications),
        ...contracts,
      },
      series: fillSeries(dates, series.rows),
      profile: profileChecklist(user, 0),
    };
  }
  const [figures, series, contracts] = await Promise.all([
    sql<{
      total: number;
      active: number;
      awaiting_me: number;
      accepted: number;
      rejected: number;
      portfolio: number;
    }>`SELECT
        (SELECT count(*) FROM portfolio_items WHERE user_id = ${user.id}) AS portfolio,
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
    contractFigures(user),
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
      ...contracts,
    },
    series: fillSeries(dates, series.rows),
    profile: profileChecklist(user, Number(f.portfolio)),
  };
}
