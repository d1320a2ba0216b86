import { sql } from "kysely";
import { db } from "../../../db";
import type { ContractWeekRow, UserRow } from "../../../db/schema";
import { addDays } from "~/lib/work-weeks";
import { AppError } from "../platform/errors.server";
import { asParty } from "../platform/participants.server";
import { getWeek, weekMoney, type WeekDetailJson, type WeekMoneyJson } from "./hourly.server";

// What an hourly contract's page reads (docs/product.md, "Contrato por hora"): the list of its
// weeks, bounded, each with its state, hours and money, and one week with its entries (the one
// named by ?semana, else the week in hand). The same statements whatever the number of weeks and
// entries, and whichever week is shown.

/** The most weeks the page lists: the weeks still pending, then the newest settled ones. */
export const WEEKS_LISTED = 26;

/** A week as the page's list shows it. */
export type WeekSummary = Pick<ContractWeekRow, "week_start" | "status" | "minutes_total" | "cap_minutes"> & {
  week_end: string;
  money: WeekMoneyJson;
};

const PENDING: ContractWeekRow["status"][] = ["awaiting_funding", "open", "submitted", "questioned"];

/**
 * The contract's weeks for its page, newest first: every pending week (there are a few at most),
 * then the newest settled ones, WEEKS_LISTED in all. 404 for anyone but the two sides; 409 for a
 * contract that is not hourly.
 */
export async function weekSummaries(user: Pick<UserRow, "id">, id: string): Promise<WeekSummary[]> {
  const { row: contract } = await asParty(user, id, (id) =>
    db
      .selectFrom("contracts")
      .select(["id", "kind", "merchant_id", "freelancer_id", "payments", "fee_bps"])
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  if (contract.kind !== "hourly") throw new AppError(409, "contract_not_hourly");
  const weeks = await db
    .selectFrom("contract_weeks")
    .innerJoin("milestones as m", "m.id", "contract_weeks.milestone_id")
    .select(["week_start", "contract_weeks.status", "minutes_total", "cap_minutes", "rate_cents", "carried_from"])
    .select(["m.carried_in_cents", "m.carried_out_cents"])
    .where("contract_weeks.contract_id", "=", id)
    // The pending weeks first, so a long contract never pushes the week in hand out of the list.
    .orderBy(sql`case when contract_weeks.status in (${sql.join(PENDING)}) then 0 else 1 end`)
    .orderBy("week_start", "desc")
    .limit(WEEKS_LISTED)
    .execute();
  return weeks
    .sort((a, b) => b.week_start.localeCompare(a.week_start))
    .map((w) => ({
      week_start: w.week_start,
      week_end: addDays(w.week_start, 6),
      status: w.status,
      minutes_total: w.minutes_total,
      cap_minutes: w.cap_minutes,
      money: weekMoney(w, w.minutes_total, contract, w),
    }));
}

/**
 * The week the page shows: the one its address names (?semana=YYYY-MM-DD; a week the contract
 * does not have is a 404), else the one the viewer acts on (the freelancer's questioned or open
 * week, the merchant's oldest submitted one), else the other side's, else the newest.
 */
export async function shownWeek(
  user: UserRow,
  id: string,
  viewer: "merchant" | "freelancer",
  weeks: WeekSummary[],
  named: string | null,
): Promise<WeekDetailJson | null> {
  if (named !== null) return getWeek(user, id, named);
  const oldest = (status: string) => weeks.filter((w) => w.status === status).at(-1);
  const order = viewer === "freelancer" ? ["questioned", "open", "submitted"] : ["submitted", "questioned", "open"];
  const shown = order.map(oldest).find(Boolean) ?? weeks[0];
  return shown ? getWeek(user, id, shown.week_start) : null;
}
