import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { migrationProvider } from "../../migrations";
import { unreadMessages } from "~/services/messaging/messages.server";

// Users as the schema of 016 holds them (no confirmation column yet).
const merchant = () => createUser(db, { account_type: "merchant", email_verified_at: null, terms_version: null });
const freelancer = () => createUser(db, { account_type: "freelancer", email_verified_at: null, terms_version: null });

describe("migration 017_conversation_parties", () => {
  it("names both sides of the conversations made before it, and their unread counts still come out", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    expect((await migrator.migrateTo("016_email")).error).toBeUndefined();

    const owner = await merchant();
    const worker = await freelancer();
    const opportunity = await createOpportunity(db, { merchant_id: owner.id, slug: null });
    const application = await createApplication(db, { opportunity, freelancer_id: worker.id });
    const quiet = await createApplication(db, { opportunity, freelancer_id: (await freelancer()).id });
    const at = "2026-03-01T10:00:00.000Z";
    // A conversation as sendMessage wrote it before 017: the merchant wrote twice, the
    // freelancer once and read the first message only.
    await sql`INSERT INTO conversations (application_id, messages_count, last_message_at) VALUES (${application.id}, 3, ${at})`.execute(
      db,
    );
    for (const [seq, author] of [
      [1, "merchant"],
      [2, "freelancer"],
      [3, "merchant"],
    ] as const) {
      await sql`INSERT INTO messages (id, application_id, seq, author, body, created_at)
        VALUES (${randomUUID()}, ${application.id}, ${seq}, ${author}, 'Olá', ${at})`.execute(db);
    }
    await sql`INSERT INTO conversation_reads (application_id, user_id, last_read_seq) VALUES (${application.id}, ${worker.id}, 1)`.execute(
      db,
    );

    await migrateToLatest();
    const rows = await db.selectFrom("conversations").selectAll().execute();
    expect(rows).toEqual([
      {
        application_id: application.id,
        freelancer_id: worker.id,
        merchant_id: owner.id,
        messages_count: 3,
        last_message_at: at,
      },
    ]);
    expect(await unreadMessages(worker)).toEqual({ total: 1, by_application: { [application.id]: 1 } });
    expect(await unreadMessages(owner)).toEqual({ total: 1, by_application: { [application.id]: 1 } });
    expect(await unreadMessages(owner, application.id)).toEqual({ total: 0, by_application: {} });
    expect(await unreadMessages({ id: quiet.freelancer_id })).toEqual({ total: 0, by_application: {} });
  });
});
