import { sql, type Kysely } from "kysely";

// The latest offer of an application is the one with the highest `seq` (1, 2, … per application),
// not the newest created_at: with several servers, several clocks stamp the offers. A counter
// writes seq = the offer count it read, under a WHERE that holds only while that count is
// current, and the unique index refuses a second offer with the same number.

async function addSequence(db: Kysely<unknown>, tieBreak: "rowid" | "id") {
  await sql`ALTER TABLE offers ADD COLUMN seq integer NOT NULL DEFAULT 0`.execute(db);
  // Offers made before this migration are numbered in the order they were stored.
  await sql
    .raw(
      `UPDATE offers SET seq = numbered.n
    FROM (SELECT ${tieBreak} AS ref, row_number() OVER (PARTITION BY application_id ORDER BY created_at, ${tieBreak}) AS n
          FROM offers) AS numbered
    WHERE offers.${tieBreak} = numbered.ref`,
    )
    .execute(db);
  await sql`CREATE UNIQUE INDEX offers_application_seq ON offers (application_id, seq)`.execute(db);
  await sql`DROP INDEX offers_application_created`.execute(db);
}

async function dropSequence(db: Kysely<unknown>) {
  await sql`CREATE INDEX offers_application_created ON offers (application_id, created_at)`.execute(db);
  await sql`DROP INDEX offers_application_seq`.execute(db);
  await sql`ALTER TABLE offers DROP COLUMN seq`.execute(db);
}

export const up = (db: Kysely<unknown>) => addSequence(db, "rowid");
export const down = dropSequence;

export const postgres = { up: (db: Kysely<unknown>) => addSequence(db, "id"), down: dropSequence };
