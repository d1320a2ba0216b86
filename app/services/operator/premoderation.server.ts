import type { Kysely } from "kysely";
import { premoderationDecisionSchema } from "~/lib/admin-schemas";
import { pageQuerySchema } from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { displayNameOf } from "../accounts/users.server";
import { operatorActor, recordAudit } from "./audit.server";
import { getSettings } from "./settings.server";
import { hideTarget, loadTarget } from "./targets.server";
import { opportunitiesChanged } from "../marketplace/search-generation.server";

// Pre-moderation: while settings.premoderation_days is above 0, a new opportunity of a merchant
// whose account is younger than that waits (held_at) for an operator before anyone but its
// owner sees it. Approving publishes it (the merchant is told); refusing hides it with a reason,
// as hiding a reported opportunity does.

const DAY_MS = 86_400_000;

/** Whether a new opportunity of this merchant waits for an operator (read in its insert's transaction). */
export async function holdsNewOpportunity(
  database: Kysely<Database>,
  merchant: Pick<UserRow, "created_at">,
  at: string,
) {
  const { premoderation_days } = await getSettings(database);
  return premoderation_days > 0 && Date.parse(at) - Date.parse(merchant.created_at) < premoderation_days * DAY_MS;
}

export type HeldOpportunityJson = {
  uuid: string;
  title: string;
  description: string;
  category: string;
  budget_min_cents: number;
  budget_max_cents: number;
  held_at: string;
  merchant: { id: string; name: string; email: string; created_at: string };
};

/** The opportunities waiting for an operator, oldest first. Two statements. */
export async function listHeldOpportunities(query: unknown): Promise<{ data: HeldOpportunityJson[]; meta: PageMeta }> {
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const held = db.selectFrom("opportunities").where("held_at", "is not", null).where("hidden_at", "is", null);
  const [rows, counted] = await Promise.all([
    held
      .innerJoin("users as m", "m.id", "opportunities.merchant_id")
      .select([
        "opportunities.uuid",
        "opportunities.title",
        "opportunities.description",
        "opportunities.category",
        "opportunities.budget_min_cents",
        "opportunities.budget_max_cents",
        "opportunities.held_at",
        "m.id as merchant_id",
        "m.display_name",
        "m.full_name",
        "m.email",
        "m.created_at as merchant_created_at",
      ])
      .orderBy("opportunities.held_at")
      .orderBy("opportunities.id")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute(),
    held.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({
      uuid: r.uuid,
      title: r.title,
      description: r.description,
      category: r.category,
      budget_min_cents: r.budget_min_cents,
      budget_max_cents: r.budget_max_cents,
      held_at: r.held_at!,
      merchant: { id: r.merchant_id, name: displayNameOf(r)!, email: r.email, created_at: r.merchant_created_at },
    })),
    meta: pageMeta(page, per_page, Number(counted.n)),
  };
}

/** Approves (publishes) or refuses (hides, with a reason) a held opportunity; 409 once decided. */
export async function decideHeldOpportunity(operator: UserRow, uuid: string, input: unknown) {
  assertId(uuid);
  const { decision, reason } = parseInput(premoderationDecisionSchema, input);
  const at = now();
  return transaction(async (trx) => {
    const released = await trx
      .updateTable("opportunities")
      .set({ held_at: null })
      .where("uuid", "=", uuid)
      .where("held_at", "is not", null)
      .returning(["id", "merchant_id"])
      .executeTakeFirst();
    if (!released) {
      const exists = await trx.selectFrom("opportunities").select("id").where("uuid", "=", uuid).executeTakeFirst();
      throw exists ? new AppError(409, "opportunity_not_held") : new AppError(404, "not_found");
    }
    if (decision === "approve") {
      opportunitiesChanged();
      await notify(trx, {
        user_id: released.merchant_id,
        kind: "opportunity_published",
        application_id: null,
        opportunity_id: released.id,
      });
    } else {
      const target = await loadTarget(trx, { type: "opportunity", id: uuid });
      await hideTarget(trx, target!, reason!, at);
    }
    await recordAudit(
      trx,
      operatorActor(operator),
      {
        action: decision === "approve" ? "opportunity.approve" : "opportunity.reject",
        target_type: "opportunity",
        target_id: uuid,
        reason: reason ?? null,
        before: { held: true },
        after: { held: false, hidden: decision === "reject" },
      },
      at,
    );
    return { decision };
  });
}
