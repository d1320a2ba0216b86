import { sql, type Kysely } from "kysely";

// SQLite only: an FTS5 index over opportunity text, kept in step by triggers.
// On PostgreSQL this migration would become a tsvector column with a GIN index.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE opportunities_fts USING fts5(
    title, description, skills,
    content='opportunities', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`CREATE TRIGGER opportunities_fts_insert AFTER INSERT ON opportunities BEGIN
    INSERT INTO opportunities_fts(rowid, title, description, skills)
    VALUES (new.id, new.title, new.description, new.skills);
  END`.execute(db);
  await sql`CREATE TRIGGER opportunities_fts_delete AFTER DELETE ON opportunities BEGIN
    INSERT INTO opportunities_fts(opportunities_fts, rowid, title, description, skills)
    VALUES ('delete', old.id, old.title, old.description, old.skills);
  END`.execute(db);
  await sql`CREATE TRIGGER opportunities_fts_update AFTER UPDATE OF title, description, skills ON opportunities BEGIN
    INSERT INTO opportunities_fts(opportunities_fts, rowid, title, description, skills)
    VALUES ('delete', old.id, old.title, old.description, old.skills);
    INSERT INTO opportunities_fts(rowid, title, description, skills)
    VALUES (new.id, new.title, new.description, new.skills);
  END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS opportunities_fts_update`.execute(db);
  await sql`DROP TRIGGER IF EXISTS opportunities_fts_delete`.execute(db);
  await sql`DROP TRIGGER IF EXISTS opportunities_fts_insert`.execute(db);
  await sql`DROP TABLE IF EXISTS opportunities_fts`.execute(db);
}
