// Applies pending migrations; on a new database outside production, seeds the demo accounts.
import { db, migrateToLatest } from "../db";
import { demoAccounts, seedDemo } from "../db/seed";
import { config } from "../app/config.server";

try {
  const results = await migrateToLatest();
  for (const r of results) console.info(`migration ${r.migrationName}: ${r.status}`);
  if (config.SEED_DEMO) {
    const seeded = await seedDemo(db);
    if (seeded) {
      console.info("\nDemo accounts (password for all: %s):", demoAccounts.password);
      for (const a of demoAccounts.users) console.info(`  ${a.account_type.padEnd(10)} ${a.email}`);
      console.info("");
    }
  }
  await db.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
