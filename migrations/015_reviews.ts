import { sql, type Kysely } from "kysely";

// Reviews, both ways, after a contract ends. A review stays hidden until the other side has
// written theirs or publish_due_at (the contract's end plus 14 days) has passed; published_at is
// set then, and only then does it count in the subject's rating. users.rating_count and
// rating_sum are the published reviews' count and sum, kept in the transaction that publishes,
// so lists show ratings without aggregating. contracts.reviews_count serialises the two sides'
// writes (an UPDATE of the contract row comes first), so the second one always sees the first.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reviews")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("subject_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("author_role", "text", (c) => c.notNull().check(sql`author_role in ('merchant', 'freelancer')`))
    .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn("comment", "text", (c) => c.notNull())
    .addColumn("reply", "text")
    .addColumn("replied_at", "text")
    .addColumn("publish_due_at", "text", (c) => c.notNull())
    .addColumn("published_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("reviews_one_per_author", ["contract_id", "author_id"])
    .execute();
  await db.schema
    .createIndex("reviews_subject_published")
    .on("reviews")
    .columns(["subject_id", "published_at"])
    .execute();
  // The schedule's question: hidden reviews whose time has come.
  await db.schema.createIndex("reviews_hidden_due").on("reviews").columns(["published_at", "publish_due_at"]).execute();
  await db.schema
    .alterTable("users")
    .addColumn("rating_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("rating_sum", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("contracts")
    .addColumn("reviews_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("contracts").dropColumn("reviews_count").execute();
  await db.schema.alterTable("users").dropColumn("rating_sum").execute();
  await db.schema.alterTable("users").dropColumn("rating_count").execute();
  await db.schema.dropTable("reviews").execute();
}
