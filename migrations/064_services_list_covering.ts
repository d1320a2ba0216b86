import type { Kysely } from "kysely";

// The catalogue's default page and its capped count read through indexes alone (docs/performance.md,
// "Catálogo de serviços"). The count walks up to 1 001 published services newest first, each
// joined to its freelancer to leave out the deleted, banned and suspended: through
// services_status_published (status, published_at) and the users' primary key every one of those
// rows was read from the tables (a service's row holds its packages; a user's, the profile), the
// most of the list's statements' time at 100 000 services. services_public_list holds what the
// list filters on beside its order, replacing services_status_published (its first two columns),
// and users_standing what the join checks of the freelancer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("services_public_list")
    .on("services")
    .columns(["status", "published_at", "seq", "hidden_at", "freelancer_id"])
    .execute();
  await db.schema.dropIndex("services_status_published").execute();
  await db.schema
    .createIndex("users_standing")
    .on("users")
    .columns(["id", "deleted_at", "banned_at", "suspended_until"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_standing").execute();
  await db.schema.createIndex("services_status_published").on("services").columns(["status", "published_at"]).execute();
  await db.schema.dropIndex("services_public_list").execute();
}
