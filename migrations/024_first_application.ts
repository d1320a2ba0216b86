import { sql, type Kysely } from "kysely";

// The operator's metrics report the median time from publishing an opportunity to its first
// application (docs/product.md, "Métricas do marketplace"). Looking the first application up
// for every opportunity of the period made the overview slow at volume, so the opportunity keeps
// the time of its first application. The database keeps it, whoever writes the application (the
// services, the demo seed, the bulk seed of the bench, the tests' factories): a trigger on every
// new application keeps the earliest time. It never goes back to null: a withdrawn or rejected
// application was still the first one.

const KEEP_EARLIEST = `UPDATE opportunities SET first_applied_at = NEW.created_at
  WHERE id = NEW.opportunity_id AND (first_applied_at IS NULL OR first_applied_at > NEW.created_at)`;

async function column(db: Kysely<unknown>) {
  await db.schema.alterTable("opportunities").addColumn("first_applied_at", "text").execute();
  await sql`UPDATE opportunities SET first_applied_at =
      (SELECT min(a.created_at) FROM applications a WHERE a.opportunity_id = opportunities.id)
    WHERE applications_count > 0`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await column(db);
  await sql
    .raw(`CREATE TRIGGER applications_first_applied AFTER INSERT ON applications BEGIN ${KEEP_EARLIEST}; END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER applications_first_applied`.execute(db);
  await db.schema.alterTable("opportunities").dropColumn("first_applied_at").execute();
}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await column(db);
    await sql
      .raw(
        `CREATE FUNCTION applications_first_applied() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN ${KEEP_EARLIEST}; RETURN NULL; END $$`,
      )
      .execute(db);
    await sql`CREATE TRIGGER applications_first_applied AFTER INSERT ON applications
      FOR EACH ROW EXECUTE FUNCTION applications_first_applied()`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TRIGGER applications_first_applied ON applications`.execute(db);
    await sql`DROP FUNCTION applications_first_applied()`.execute(db);
    await db.schema.alterTable("opportunities").dropColumn("first_applied_at").execute();
  },
};
