import { sql, type Kysely } from "kysely";

// The table of rate-limit counters (rate-limiter-flexible's own layout), shared by every server
// process. Made here rather than by the library at run time, so that no request ever runs DDL
// and several servers starting at once do not race to create it. On SQLite the library made it
// before this migration existed, hence IF NOT EXISTS.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limits`.execute(db);
}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`CREATE TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`.execute(
      db,
    );
  },
  down,
};
