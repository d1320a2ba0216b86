import { sql } from "kysely";
import { AppError } from "~/services/platform/errors.server";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser, type OpportunityOverrides } from "../../db/factories";
import type { ApplicationRow, UserRow } from "../../db/schema";
import { validApplication, validOpportunity } from "./fixtures";

export { validApplication, validOpportunity };

// Marketplace fixtures shared by the unit and API tests.

export const merchant = () => createUser(db, { account_type: "merchant" });
export const freelancer = () => createUser(db, { account_type: "freelancer" });

/** The offers that lead to a status: countered means the merchant answered last. */
export function offersFor(status: ApplicationRow["status"]) {
  const first = { author: "freelancer" as const, price_cents: 300_000, delivery_days: 20 };
  return status === "countered"
    ? [first, { author: "merchant" as const, price_cents: 250_000, delivery_days: 20 }]
    : [first];
}

/** An opportunity of a new merchant with one application of a new freelancer in the given state. */
export async function negotiation(
  status: ApplicationRow["status"] = "pending",
  opportunity: OpportunityOverrides = {},
) {
  const owner = await merchant();
  const applicant = await freelancer();
  const opp = await createOpportunity(db, { merchant_id: owner.id, ...opportunity });
  const application = await createApplication(db, {
    opportunity: opp,
    freelancer_id: applicant.id,
    status,
    offers: offersFor(status),
  });
  return { owner, applicant, opportunity: opp, application };
}

export async function applicationRow(id: string) {
  return db.selectFrom("applications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

export async function opportunityRow(id: number) {
  return db.selectFrom("opportunities").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

export async function notificationsOf(user: Pick<UserRow, "id">) {
  return db.selectFrom("notifications").selectAll().where("user_id", "=", user.id).execute();
}

export async function offersOf(applicationId: string) {
  return db.selectFrom("offers").selectAll().where("application_id", "=", applicationId).execute();
}

/** Rows that break the rules the services keep (counters, turns, terms, reasons); none is right. */
export async function brokenInvariants() {
  const broken = await sql<{ problem: string; id: string }>`
      SELECT 'applications_count' AS problem, o.uuid AS id FROM opportunities o
        WHERE o.applications_count != (SELECT count(*) FROM applications a WHERE a.opportunity_id = o.id)
      UNION ALL SELECT 'first_applied_at', o.uuid FROM opportunities o
        WHERE coalesce(o.first_applied_at, '-') != coalesce((SELECT min(a.created_at) FROM applications a WHERE a.opportunity_id = o.id), '-')
      UNION ALL SELECT 'accepted_count', o.uuid FROM opportunities o
        WHERE o.accepted_count != (SELECT count(*) FROM applications a WHERE a.opportunity_id = o.id AND a.status = 'accepted')
      UNION ALL SELECT 'filled', o.uuid FROM opportunities o
        WHERE (o.status = 'filled') != (o.accepted_count = o.vacancies)
      UNION ALL SELECT 'negotiating on a shut opportunity', a.id FROM applications a JOIN opportunities o ON o.id = a.opportunity_id
        WHERE o.status != 'open' AND a.status IN ('pending', 'countered')
      UNION ALL SELECT 'offers_count', a.id FROM applications a
        WHERE a.offers_count != (SELECT count(*) FROM offers f WHERE f.application_id = a.id)
      UNION ALL SELECT 'offers numbered 1 to offers_count', a.id FROM applications a
        WHERE a.offers_count != (SELECT max(f.seq) FROM offers f WHERE f.application_id = a.id)
      UNION ALL SELECT 'awaiting', a.id FROM applications a
        WHERE coalesce(a.awaiting, '-') != CASE a.status WHEN 'pending' THEN 'merchant' WHEN 'countered' THEN 'freelancer' ELSE '-' END
      UNION ALL SELECT 'last offer author', a.id FROM applications a
        WHERE a.status IN ('pending', 'countered') AND (
          SELECT author FROM offers f WHERE f.application_id = a.id ORDER BY f.seq DESC LIMIT 1
        ) != CASE a.status WHEN 'pending' THEN 'freelancer' ELSE 'merchant' END
      UNION ALL SELECT 'current terms', a.id FROM applications a
        WHERE a.price_cents != (SELECT price_cents FROM offers f WHERE f.application_id = a.id ORDER BY f.seq DESC LIMIT 1)
      UNION ALL SELECT 'rejection reason', a.id FROM applications a
        WHERE (a.status = 'rejected') != (a.rejection_reason IS NOT NULL)
      UNION ALL SELECT 'id order is creation order', o.uuid FROM opportunities o
        WHERE EXISTS (SELECT 1 FROM opportunities p WHERE p.id < o.id AND p.created_at > o.created_at)
      UNION ALL SELECT 'city', o.uuid FROM opportunities o WHERE o.location_type != 'remote' AND o.city IS NULL
      UNION ALL SELECT 'future', a.id FROM applications a WHERE a.created_at > ${new Date().toISOString()}
    `.execute(db);
  return broken.rows;
}

/** The status of the AppError a promise rejects with, or 200 when it resolves. */
/** The refusal's status, message key and field errors (throws when the promise is not refused). */
export async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, key: error.key, fields: error.fieldErrors };
    throw error;
  }
  throw new Error("expected a refusal");
}

export async function outcome(promise: Promise<unknown>) {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}
