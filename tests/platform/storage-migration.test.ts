import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { migrationProvider } from "../../migrations";

// Accounts as they were before 018 (and before the e-mail's confirmation existed).
const merchant = () => createUser(db, { account_type: "merchant", email_verified_at: null, terms_version: null });
const freelancer = () => createUser(db, { account_type: "freelancer", email_verified_at: null, terms_version: null });

describe("migration 018_storage_quota", () => {
  it("counts the message files each author sent before it", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    expect((await migrator.migrateTo("017_conversation_parties")).error).toBeUndefined();
    const owner = await merchant();
    const worker = await freelancer();
    const bystander = await freelancer();
    const opportunity = await createOpportunity(db, { merchant_id: owner.id, slug: null });
    const application = await createApplication(db, { opportunity, freelancer_id: worker.id });
    const at = "2026-03-01T10:00:00.000Z";
    await sql`INSERT INTO conversations (application_id, freelancer_id, merchant_id, messages_count, last_message_at)
      VALUES (${application.id}, ${worker.id}, ${owner.id}, 2, ${at})`.execute(db);
    const files: [number, "freelancer" | "merchant", number[]][] = [
      [1, "freelancer", [1000, 2500]],
      [2, "merchant", [700]],
    ];
    for (const [seq, author, sizes] of files) {
      const message = randomUUID();
      await sql`INSERT INTO messages (id, application_id, seq, author, body, created_at) VALUES (${message}, ${application.id}, ${seq}, ${author}, 'Olá', ${at})`.execute(
        db,
      );
      for (const size of sizes) {
        await sql`INSERT INTO message_files (id, application_id, message_id, stored_name, original_name, content_type, size_bytes, created_at)
          VALUES (${randomUUID()}, ${application.id}, ${message}, ${`c_${randomUUID()}.png`}, 'a.png', 'image/png', ${size}, ${at})`.execute(
          db,
        );
      }
    }
    await migrateToLatest();
    const rows = await db
      .selectFrom("users")
      .select(["id", "storage_bytes"])
      .where("id", "in", [owner.id, worker.id, bystander.id])
      .execute();
    const used = Object.fromEntries(rows.map((r) => [r.id, Number(r.storage_bytes)]));
    expect(used).toEqual({ [worker.id]: 3500, [owner.id]: 700, [bystander.id]: 0 });
  });
});
