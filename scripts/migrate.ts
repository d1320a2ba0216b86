// Applies pending migrations, seals two-factor secrets and fiscal certificates under the current key,
// and on a new database outside production seeds the demo accounts.
import { db, migrateToLatest } from "../db";
import { demoLoginLines, seedDemo } from "../db/seed";
import { config } from "../app/config.server";
import { resealTwoFactorSecrets } from "../app/services/accounts/two-factor.server";
import { resealFiscalCertificates } from "../app/services/fiscal/issuers.server";

try {
  const results = await migrateToLatest();
  if (results.length > 0) {
    // One line, every name in it (the multinode test reads which process applied which).
    const names = results.map((r) => r.migrationName);
    console.info(`migrations applied: ${names.length} (${names.join(", ")})`);
  }
  const sealed = await resealTwoFactorSecrets();
  if (sealed.resealed > 0) console.info(`two-factor secrets sealed under the current key: ${sealed.resealed}`);
  if (sealed.unreadable > 0) {
    console.warn(
      `two-factor secrets no configured key opens: ${sealed.unreadable} (was SESSION_SECRET changed before SECRETS_KEY was set? docs/operations.md)`,
    );
  }
  const fiscal = await resealFiscalCertificates();
  if (fiscal.resealed > 0) console.info(`fiscal certificates sealed under the current key: ${fiscal.resealed}`);
  if (fiscal.unreadable > 0) console.warn(`fiscal certificates no configured key opens: ${fiscal.unreadable}`);
  if (config.SEED_DEMO) {
    const seeded = await seedDemo(db);
    if (seeded) console.info(["", ...demoLoginLines(), ""].join("\n"));
  }
  await db.destroy();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
