import type { Kysely } from "kysely";

// Public pages (docs/product.md, "Páginas públicas"): a freelancer may keep their profile off the
// public page and the sitemap; users.public_profile is 1 (shown to visitors) unless they turn it
// off. The operator's switch for all public pages is a row of `settings` (public_pages).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("public_profile", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("public_profile").execute();
}
