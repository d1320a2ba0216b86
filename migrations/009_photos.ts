import { sql, type Kysely } from "kysely";

// PostgreSQL: profile photos live in the database, the one store every server reaches (and
// pg_dump carries). On SQLite, one machine's disk does: they stay files in UPLOADS_DIR.

export async function up(): Promise<void> {}
export async function down(): Promise<void> {}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`CREATE TABLE photos (
      name text PRIMARY KEY,
      content_type text NOT NULL,
      bytes bytea NOT NULL,
      created_at text NOT NULL
    )`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE photos`.execute(db);
  },
};
