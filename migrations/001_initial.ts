import { sql, type Kysely } from "kysely";

// Portable schema: only types and constraints that PostgreSQL shares with SQLite, but for the
// opportunities' integer key (autoincrement on SQLite, serial on PostgreSQL).
// Full-text search lives in its own migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await createSchema(db, "sqlite");
}

export const postgres = {
  up: (db: Kysely<unknown>) => createSchema(db, "postgres"),
  down,
};

async function createSchema(db: Kysely<unknown>, engine: "sqlite" | "postgres"): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("display_name", "text")
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("account_type", "text", (c) => c.notNull().check(sql`account_type in ('merchant', 'freelancer')`))
    .addColumn("bio", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("skills", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("photo_path", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("password_resets_user_id").on("password_resets").column("user_id").execute();

  await db.schema
    .createTable("opportunities")
    // An integer key keeps the full-text index (and joins) compact; the uuid is the public id.
    .addColumn("id", engine === "postgres" ? "serial" : "integer", (c) =>
      engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("skills", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("budget_type", "text", (c) => c.notNull().check(sql`budget_type in ('fixed', 'hourly')`))
    .addColumn("budget_min_cents", "integer", (c) => c.notNull())
    .addColumn("budget_max_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("BRL"))
    .addColumn("deadline", "text")
    .addColumn("location_type", "text", (c) => c.notNull().check(sql`location_type in ('remote', 'onsite', 'hybrid')`))
    .addColumn("city", "text")
    .addColumn("vacancies", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('open', 'closed', 'filled')`),
    )
    .addColumn("applications_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("accepted_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("opportunities_budget", sql`budget_min_cents <= budget_max_cents`)
    .addCheckConstraint("opportunities_accepted", sql`accepted_count <= vacancies`)
    .execute();
  await db.schema
    .createIndex("opportunities_status_created")
    .on("opportunities")
    .columns(["status", "created_at"])
    .execute();
  await db.schema
    .createIndex("opportunities_merchant_created")
    .on("opportunities")
    .columns(["merchant_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("opportunities_category_status_created")
    .on("opportunities")
    .columns(["category", "status", "created_at"])
    .execute();

  await db.schema
    .createTable("applications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("opportunity_id", "integer", (c) => c.notNull().references("opportunities.id").onDelete("cascade"))
    .addColumn("freelancer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("cover_letter", "text", (c) => c.notNull())
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("delivery_days", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'countered', 'accepted', 'rejected', 'withdrawn')`),
    )
    .addColumn("awaiting", "text")
    .addColumn("rejection_reason", "text")
    .addColumn("offers_count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("applications_one_per_freelancer", ["opportunity_id", "freelancer_id"])
    .execute();
  await db.schema
    .createIndex("applications_freelancer_created")
    .on("applications")
    .columns(["freelancer_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("applications_opportunity_status")
    .on("applications")
    .columns(["opportunity_id", "status"])
    .execute();

  await db.schema
    .createTable("offers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("author", "text", (c) => c.notNull().check(sql`author in ('freelancer', 'merchant')`))
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("delivery_days", "integer", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("offers_application_created")
    .on("offers")
    .columns(["application_id", "created_at"])
    .execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("application_id", "text", (c) => c.references("applications.id").onDelete("cascade"))
    .addColumn("opportunity_id", "integer", (c) => c.references("opportunities.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema
    .createIndex("notifications_user_created")
    .on("notifications")
    .columns(["user_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "notifications",
    "offers",
    "applications",
    "opportunities",
    "password_resets",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
