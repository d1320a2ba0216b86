import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { migrationProvider } from "../../migrations";
import { checkLedger } from "~/services/payments/ledger.server";

/** A contract as it was before payments, in a given state. */
async function contractBefore(status: "in_progress" | "delivered" | "completed" | "cancelled", price: number) {
  const merchant = await createUser(db, { account_type: "merchant", email_verified_at: null, terms_version: null });
  const freelancer = await createUser(db, { account_type: "freelancer", email_verified_at: null, terms_version: null });
  const opportunity = await createOpportunity(db, { merchant_id: merchant.id, slug: null });
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: freelancer.id,
    offers: [{ author: "freelancer", price_cents: price, delivery_days: 9 }],
  });
  const at = "2026-05-02T10:00:00.000Z";
  const delivered = status === "in_progress" ? 0 : 1;
  await sql`INSERT INTO contracts (id, opportunity_id, merchant_id, freelancer_id, price_cents, delivery_days, status,
      due_at, deliveries_count, events_count, ended_at, created_at, updated_at)
    VALUES (${application.id}, ${opportunity.id}, ${merchant.id}, ${freelancer.id}, ${price}, 9, ${status},
      ${at}, ${delivered}, 1, ${status === "completed" || status === "cancelled" ? at : null}, ${at}, ${at})`.execute(
    db,
  );
  return application.id;
}

describe("migration 020_payments", () => {
  it("gives every contract made before it one milestone with the whole price, without payments", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    const names = Object.keys(await migrationProvider(engine).getMigrations()).sort();
    const before = names[names.indexOf("020_payments") - 1];
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    const ids = {
      in_progress: await contractBefore("in_progress", 150_000),
      delivered: await contractBefore("delivered", 99_990),
      completed: await contractBefore("completed", 420_000),
      cancelled: await contractBefore("cancelled", 10_000),
    };
    await migrateToLatest();

    const contracts = await db
      .selectFrom("contracts")
      .select(["id", "payments", "fee_bps", "milestones_count"])
      .execute();
    for (const c of contracts) expect(c).toMatchObject({ payments: "off", fee_bps: 0, milestones_count: 1 });
    const milestones = await db.selectFrom("milestones").selectAll().execute();
    const of = (id: string) => milestones.filter((m) => m.contract_id === id);
    expect(of(ids.in_progress)).toMatchObject([
      { seq: 1, amount_cents: 150_000, days: 9, status: "funded", deliveries_count: 0 },
    ]);
    expect(of(ids.delivered)).toMatchObject([
      { seq: 1, amount_cents: 99_990, status: "delivered", deliveries_count: 1 },
    ]);
    expect(of(ids.completed)).toMatchObject([
      { amount_cents: 420_000, status: "released", released_cents: 420_000, fee_cents: 0 },
    ]);
    expect(of(ids.cancelled)).toMatchObject([{ amount_cents: 10_000, status: "cancelled" }]);
    // No money went through the platform for them: the ledger is empty and consistent.
    expect(await db.selectFrom("ledger_entries").select("id").execute()).toEqual([]);
    expect(await checkLedger()).toEqual([]);
  });
});
