// Seeds the configured database (migrating it first).
//   npm run seed                          demo accounts and marketplace, on a new database
//   npm run seed -- --opportunities 100000   adds volume data for benchmarks
import { parseArgs } from "node:util";
import { db, migrateToLatest, sqlite } from "../db";
import { seedVolume } from "../db/bulk-seed";
import { demoAccounts, demoLoginLines, seedDemo } from "../db/seed";

const { values } = parseArgs({ options: { opportunities: { type: "string" } } });

await migrateToLatest();
if (values.opportunities !== undefined) {
  const count = Number(values.opportunities);
  if (!Number.isInteger(count) || count < 1) {
    console.error("--opportunities takes a positive whole number");
    process.exit(1);
  }
  if (!sqlite) {
    console.error("--opportunities writes through SQLite: seed a SQLite file, then copy it with npm run db:copy");
    process.exit(1);
  }
  const r = seedVolume(sqlite, count);
  console.info(
    `Added ${r.opportunities} opportunities, ${r.applications} applications, ${r.offers} offers, ` +
      `${r.notifications} notifications and ${r.users} users in ${(r.ms / 1000).toFixed(1)} s ` +
      `(password: ${demoAccounts.password}).`,
  );
} else {
  const seeded = await seedDemo(db);
  console.info(seeded ? demoLoginLines().join("\n") : "Database already has users; nothing seeded.");
}
await db.destroy();
