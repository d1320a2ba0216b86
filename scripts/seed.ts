// Seeds the configured database (migrating it first).
//   npm run seed                          demo accounts and marketplace, on a new database
//   npm run seed -- --opportunities 100000   adds volume data for benchmarks
//   npm run seed -- --services 100000        adds published services (for the freelancers there)
import { parseArgs } from "node:util";
import { db, migrateToLatest, sqlite } from "../db";
import { seedServices, seedVolume } from "../db/bulk-seed";
import { demoAccounts, demoLoginLines, seedDemo } from "../db/seed";

const { values } = parseArgs({ options: { opportunities: { type: "string" }, services: { type: "string" } } });

/** A volume option's count, on SQLite only (a PostgreSQL database gets a seeded file through npm run db:copy). */
function volume(option: "opportunities" | "services", raw: string) {
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`--${option} takes a positive whole number`);
    process.exit(1);
  }
  if (!sqlite) {
    console.error(`--${option} writes through SQLite: seed a SQLite file, then copy it with npm run db:copy`);
    process.exit(1);
  }
  return { count, sqlite };
}

await migrateToLatest();
if (values.opportunities !== undefined || values.services !== undefined) {
  if (values.opportunities !== undefined) {
    const { count, sqlite } = volume("opportunities", values.opportunities);
    const r = seedVolume(sqlite, count);
    console.info(
      `Added ${r.opportunities} opportunities, ${r.applications} applications, ${r.offers} offers, ` +
        `${r.notifications} notifications and ${r.users} users in ${(r.ms / 1000).toFixed(1)} s ` +
        `(password: ${demoAccounts.password}).`,
    );
  }
  if (values.services !== undefined) {
    const { count, sqlite } = volume("services", values.services);
    if (values.opportunities === undefined && !(await db.selectFrom("users").select("id").limit(1).executeTakeFirst()))
      await seedDemo(db);
    const r = seedServices(sqlite, count);
    console.info(`Added ${r.services} published services in ${(r.ms / 1000).toFixed(1)} s.`);
  }
} else {
  const seeded = await seedDemo(db);
  console.info(seeded ? demoLoginLines().join("\n") : "Database already has users; nothing seeded.");
}
await db.destroy();
