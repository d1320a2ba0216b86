// Copies a SQLite database of Freela into an empty PostgreSQL one: the move from one machine to
// several servers (and how the benchmark loads PostgreSQL with its seeded data).
//   DATABASE_URL=postgres://… npm run db:copy -- [data/freela.db]
// The target is migrated first and must have no users yet; everything is copied in one
// transaction, so a failed copy leaves it empty. Profile photos and contract files come from
// UPLOADS_DIR into the photos table. Rate-limit counters are not copied.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { config } from "../app/config.server";
import { contentTypeOf } from "../app/services/platform/uploads.server";
import { db, engine, migrateToLatest } from "../db";

/** Parents before children, as the foreign keys want them. */
const TABLES = [
  "users",
  "services",
  "sessions",
  "password_resets",
  "opportunities",
  "applications",
  "offers",
  "notifications",
  "contracts",
  "contract_events",
  "contract_files",
  "conversations",
  "messages",
  "message_files",
  "conversation_reads",
  "portfolio_items",
  "invitations",
  "reviews",
  "email_opt_outs",
  "outbox",
  "audit_log",
  "reports",
  "settings",
  "disputes",
  "email_tokens",
];
const BATCH = 1000;

function fail(message: string): never {
  console.error(`db:copy: ${message}`);
  process.exit(1);
}

if (engine !== "postgres") fail("set DATABASE_URL to the PostgreSQL database to copy into");
const source = resolve(process.argv[2] ?? config.DATABASE_PATH);
if (!existsSync(source)) fail(`SQLite database not found: ${source}`);

const sqlite = new SQLite(source, { readonly: true, fileMustExist: true });
await migrateToLatest();
const applied = (names: { name: string }[]) => names.map((n) => n.name).join(",");
const sourceMigrations = sqlite.prepare("SELECT name FROM kysely_migration ORDER BY name").all() as { name: string }[];
const targetMigrations = await db
  .selectFrom("kysely_migration" as never)
  .select("name" as never)
  .orderBy("name" as never)
  .execute();
if (applied(sourceMigrations) !== applied(targetMigrations as { name: string }[])) {
  fail(`${source} is not at the latest schema: run DATABASE_PATH=${source} npm run migrate first`);
}
if (await db.selectFrom("users").select("id").limit(1).executeTakeFirst())
  fail("the PostgreSQL database already has users");

const started = Date.now();
const counts: Record<string, number> = {};
await db.transaction().execute(async (trx) => {
  for (const table of TABLES) {
    const columns = (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
      (c) => c.name,
    );
    const rows = sqlite.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${table}"`).iterate();
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length > 0)
        await trx
          .insertInto(table as "users")
          .values(batch as never)
          .execute();
      counts[table] = (counts[table] ?? 0) + batch.length;
      batch = [];
    };
    for (const row of rows) {
      batch.push(row as Record<string, unknown>);
      if (batch.length === BATCH) await flush();
    }
    await flush();
  }
  // Services keep their row numbers; new ones continue after the highest.
  await sql`SELECT setval(pg_get_serial_sequence('services', 'seq'), coalesce(max(seq), 0) + 1, false) FROM services`.execute(
    trx,
  );
  // Opportunities keep their ids; new ones continue after the highest.
  await sql`SELECT setval(pg_get_serial_sequence('opportunities', 'id'), coalesce(max(id), 0) + 1, false) FROM opportunities`.execute(
    trx,
  );
  let photos = 0;
  // Profile photos and portfolio images share the store.
  const stored = sqlite
    .prepare(
      "SELECT photo_path FROM users WHERE photo_path IS NOT NULL UNION SELECT image_path FROM portfolio_items WHERE image_path IS NOT NULL",
    )
    .all() as { photo_path: string }[];
  for (const { photo_path } of stored) {
    const file = join(config.UPLOADS_DIR, photo_path);
    if (!existsSync(file)) {
      console.warn(`db:copy: photo ${file} is missing; the profile or portfolio item will show none`);
      await trx.updateTable("users").set({ photo_path: null }).where("photo_path", "=", photo_path).execute();
      await trx.updateTable("portfolio_items").set({ image_path: null }).where("image_path", "=", photo_path).execute();
      continue;
    }
    await trx
      .insertInto("photos")
      .values({
        name: photo_path,
        content_type: contentTypeOf(photo_path),
        bytes: readFileSync(file),
        created_at: new Date().toISOString(),
      })
      .execute();
    photos++;
  }
  counts.photos = photos;
  // Contract and message files are stored like photos.
  let files = 0;
  const attachments = sqlite
    .prepare("SELECT stored_name FROM contract_files UNION ALL SELECT stored_name FROM message_files")
    .all();
  for (const { stored_name } of attachments as { stored_name: string }[]) {
    const file = join(config.UPLOADS_DIR, stored_name);
    if (!existsSync(file)) {
      console.warn(`db:copy: file ${file} is missing; its link will answer 404`);
      continue;
    }
    await trx
      .insertInto("photos")
      .values({
        name: stored_name,
        content_type: contentTypeOf(stored_name),
        bytes: readFileSync(file),
        created_at: new Date().toISOString(),
      })
      .execute();
    files++;
  }
  counts.attachment_bytes = files;
});
// Fresh statistics, so the planner knows the tables' sizes from the first query; VACUUM also
// moves the search index's pending entries into the index proper (a search read them 3 times
// slower: 11 ms against 4 ms for a common prefix at 100 000 opportunities).
await sql`VACUUM ANALYZE`.execute(db);
sqlite.close();
await db.destroy();
console.info(`db:copy: ${JSON.stringify(counts)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
