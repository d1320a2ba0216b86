import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { migrationProvider } from "../../migrations";

const firstAppliedAt = async (id: number) =>
  (await db.selectFrom("opportunities").select("first_applied_at").where("id", "=", id).executeTakeFirstOrThrow())
    .first_applied_at;

describe("migration 024_first_application", () => {
  it("gives the opportunities made before it the time of their first application, and keeps the earliest after it", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    expect((await migrator.migrateTo("023_metrics_indexes")).error).toBeUndefined();
    const merchant = await createUser(db, { account_type: "merchant", email_verified_at: null, terms_version: null });
    const applied = await createOpportunity(db, {
      merchant_id: merchant.id,
      created_at: "2026-03-01T10:00:00.000Z",
      slug: null,
    });
    const untouched = await createOpportunity(db, {
      merchant_id: merchant.id,
      created_at: "2026-03-01T10:00:00.000Z",
      slug: null,
    });
    // Accounts as they were before 028 (no e-mail confirmation yet).
    const apply = async (at: string) => {
      const freelancer = await createUser(db, {
        account_type: "freelancer",
        email_verified_at: null,
        terms_version: null,
      });
      await createApplication(db, { opportunity: applied, freelancer_id: freelancer.id, created_at: at });
    };
    await apply("2026-03-02T09:00:00.000Z");
    await apply("2026-03-01T12:30:00.000Z");
    await migrateToLatest();

    expect(await firstAppliedAt(applied.id)).toBe("2026-03-01T12:30:00.000Z");
    expect(await firstAppliedAt(untouched.id)).toBeNull();
    // A later application leaves it; an earlier one (only a backfill or a seed writes one) moves it.
    await apply("2026-03-03T08:00:00.000Z");
    expect(await firstAppliedAt(applied.id)).toBe("2026-03-01T12:30:00.000Z");
    await apply("2026-03-01T11:00:00.000Z");
    expect(await firstAppliedAt(applied.id)).toBe("2026-03-01T11:00:00.000Z");
  });
});
