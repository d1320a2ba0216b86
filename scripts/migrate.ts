// Applies pending migrations; on a new database outside production, seeds the demo accounts.
import { db, migrateToLatest } from "../db";
import { demoLoginLines, seedDemo } from "../db/seed";
import { config } from "../app/config.server";

try {
  const results = await migrateToLatest();
  if (results.length > 0) {
    const names = results.map((r) => r.migrationName);
    const range = names.length === 1 ? names[0] : `${names[0]} … ${names[names.length - 1]}`;
    console.info(`migrations applied: ${names.length} (${range})`);
  }
  if (config.SEED_DEMO) {
    const seeded = await seedDemo(db);
    if (seeded) console.info(["", ...demoLoginLines(), ""].join("\n"));
  }
  await db.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
