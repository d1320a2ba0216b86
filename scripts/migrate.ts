// Applies pending migrations; on a new database outside production, seeds the demo accounts.
import { db, migrateToLatest } from "../db";
import { demoLoginLines, seedDemo } from "../db/seed";
import { config } from "../app/config.server";

try {
  const results = await migrateToLatest();
  if (results.length > 0) {
    // One line, every name in it (the multinode test reads which process applied which).
    const names = results.map((r) => r.migrationName);
    console.info(`migrations applied: ${names.length} (${names.join(", ")})`);
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
