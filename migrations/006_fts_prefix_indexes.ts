import { sql, type Kysely } from "kysely";

// Search matches every word as a prefix ("site" finds "sites"). Without a prefix index, FTS5
// answers `"site"*` by first merging the postings of every word starting with "site" into one
// list, so a search costs as much as all the matches of its words: 2.8 ms for the first 20 of
// 83 000 matches at 1 000 000 opportunities, 0.06 ms at 10 000. Prefix indexes for 2 to 6
// letters (what people type) make those words as cheap as whole words, read lazily from the
// newest; they make the full-text index about four times larger. FTS5 takes the option only
// at creation, so the table is built again; the triggers of migration 002 keep feeding it.

async function rebuild(db: Kysely<unknown>, prefix: string) {
  await sql`DROP TABLE opportunities_fts`.execute(db);
  await sql
    .raw(
      `CREATE VIRTUAL TABLE opportunities_fts USING fts5(
    title, description, skills,
    content='opportunities', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'${prefix}
  )`,
    )
    .execute(db);
  await sql`INSERT INTO opportunities_fts(opportunities_fts) VALUES ('rebuild')`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, `,\n    prefix='2 3 4 5 6'`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, "");
}

// PostgreSQL: the GIN index of migration 002 answers prefix queries (`word:*`) as they are.
export const postgres = {
  async up(): Promise<void> {},
  async down(): Promise<void> {},
};
