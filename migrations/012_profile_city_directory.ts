import type { Kysely } from "kysely";
import { directoryColumns } from "../app/lib/directory";

// Profiles gain a city and whether the person takes remote work; the freelancer directory
// searches columns derived from the profile (see app/lib/directory.ts), filled here for the
// users that already exist.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("city", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("remote", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(" "))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("search_skills", "text", (c) => c.notNull().defaultTo("||"))
    .execute();
  await db.schema.alterTable("users").addColumn("search_city", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("sort_name", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  const users = await db.selectFrom("users").select(["id", "full_name", "display_name", "bio", "skills"]).execute();
  for (const u of users) {
    let skills: string[] = [];
    try {
      const parsed = JSON.parse(u.skills);
      if (Array.isArray(parsed)) skills = parsed.filter((s) => typeof s === "string");
    } catch {
      // A malformed list searches as none.
    }
    await db
      .updateTable("users")
      .set(directoryColumns({ ...u, skills, city: null }))
      .where("id", "=", u.id)
      .execute();
  }

  // The directory's two orders, freelancers only.
  await db.schema
    .createIndex("users_directory_newest")
    .on("users")
    .columns(["account_type", "created_at desc", "id desc"])
    .execute();
  await db.schema
    .createIndex("users_directory_name")
    .on("users")
    .columns(["account_type", "sort_name", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("users_directory_name").execute();
  await db.schema.dropIndex("users_directory_newest").execute();
  for (const column of ["sort_name", "search_city", "search_skills", "search_text", "remote", "city"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
