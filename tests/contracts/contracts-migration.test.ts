import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import { migrationProvider } from "../../migrations";

/** A user with the columns of the schema before 010 (the factory follows the latest schema). */
async function userAt009(accountType: "merchant" | "freelancer") {
  const id = randomUUID();
  const at = "2026-02-01T09:00:00.000Z";
  await sql`INSERT INTO users (id, email, password_hash, full_name, account_type, created_at, updated_at)
    VALUES (${id}, ${`${id}@example.com`}, 'x', 'Pessoa Antiga', ${accountType}, ${at}, ${at})`.execute(db);
  return { id };
}

describe("migration 010_contracts", () => {
  it("gives the hires made before it their contract: in progress, due delivery_days after the hire", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    const down = await migrator.migrateTo("009_photos");
    expect(down.error).toBeUndefined();

    const merchant = await userAt009("merchant");
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id, slug: null });
    const hiredAt = "2026-03-10T14:30:00.123Z";
    const hired = await createApplication(db, {
      opportunity,
      freelancer_id: (await userAt009("freelancer")).id,
      offers: [{ author: "freelancer", price_cents: 420_000, delivery_days: 12 }],
      created_at: "2026-03-01T10:00:00.000Z",
    });
    // Accepted the way the services did before contracts existed.
    await db
      .updateTable("applications")
      .set({ status: "accepted", awaiting: null, updated_at: hiredAt })
      .where("id", "=", hired.id)
      .execute();
    const pending = await createApplication(db, { opportunity, freelancer_id: (await userAt009("freelancer")).id });

    await migrateToLatest();
    const contracts = await db.selectFrom("contracts").selectAll().execute();
    expect(contracts).toHaveLength(1);
    expect(contracts[0]).toMatchObject({
      id: hired.id,
      opportunity_id: opportunity.id,
      merchant_id: merchant.id,
      freelancer_id: hired.freelancer_id,
      price_cents: 420_000,
      delivery_days: 12,
      status: "in_progress",
      created_at: hiredAt,
      due_at: "2026-03-22T14:30:00.123Z",
      events_count: 1,
    });
    expect(contracts.some((c) => c.id === pending.id)).toBe(false);
    const events = await db.selectFrom("contract_events").selectAll().execute();
    expect(events).toMatchObject([
      { contract_id: hired.id, seq: 1, kind: "created", author: "system", created_at: hiredAt },
    ]);
  });
});
