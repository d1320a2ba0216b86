import { sql, type Kysely } from "kysely";
import { opportunitySlug } from "../app/lib/slug";

// The sitemap (docs/product.md, "Páginas públicas") lists up to 50 000 opportunity addresses per
// page; each address holds the slug of the title. opportunities.slug keeps it, written with the
// title (app/services/marketplace/opportunities.server.ts), so the database builds a page's XML
// in one statement instead of the server slugging 50 000 titles per request.
//
// The existing rows are filled here, 1 000 at a time (one UPDATE … FROM (VALUES …) each: both
// engines name the columns of VALUES column1, column2).

const BATCH = 1_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("opportunities")
    .addColumn("slug", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await fillSlugs(db);
}

/** Writes the slug of every opportunity from its title (exported for its test). */
export async function fillSlugs(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number | string; title: string }>`
      SELECT id, title FROM opportunities WHERE id > ${after} ORDER BY id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const values = sql.join(rows.map((r) => sql`(CAST(${Number(r.id)} AS integer), ${opportunitySlug(r.title)})`));
    await sql`
      UPDATE opportunities SET slug = v.column2
      FROM (VALUES ${values}) AS v
      WHERE opportunities.id = v.column1`.execute(db);
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("opportunities").dropColumn("slug").execute();
}
