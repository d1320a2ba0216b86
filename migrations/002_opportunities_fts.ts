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

// PostgreSQL: a generated tsvector column with a GIN index. Text-search configuration `freela`
// runs every word through unaccent, then the simple dictionary (lower case; no stemming and no
// stop words, so "de" or "program" match as they do on SQLite). Runs of anything but letters
// and digits become spaces first, so that words split as FTS5's unicode61 splits them (PostgreSQL's
// parser would otherwise keep "padaria.com.br" or "e-commerce" as one token).
export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
    await sql`CREATE TEXT SEARCH CONFIGURATION freela (COPY = simple)`.execute(db);
    await sql`ALTER TEXT SEARCH CONFIGURATION freela
      ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
      WITH unaccent, simple`.execute(db);
    await sql`ALTER TABLE opportunities ADD COLUMN search tsvector GENERATED ALWAYS AS (
      to_tsvector('freela'::regconfig,
        regexp_replace(title || ' ' || description || ' ' || skills, '[^[:alnum:]]+', ' ', 'g'))
    ) STORED`.execute(db);
    await sql`CREATE INDEX opportunities_search ON opportunities USING gin (search)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE opportunities DROP COLUMN search`.execute(db);
    await sql`DROP TEXT SEARCH CONFIGURATION freela`.execute(db);
  },
};
