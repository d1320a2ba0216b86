// Prints what each user keeps in message and delivery files against the per-user quota
// (STORAGE_QUOTA_MB), the largest first:
//   npm run storage                 -> the 50 largest
//   npm run storage -- --limit 200
// Reads the database the server uses (DATABASE_PATH or DATABASE_URL). The operator console will
// show the same through storageUsage (app/services/platform/storage.server.ts).
import { db } from "../db";
import { describeBytes, quotaBytes, storageUsage } from "../app/services/platform/storage.server";

const at = process.argv.indexOf("--limit");
const limit = at >= 0 ? Number(process.argv[at + 1]) : 50;
if (!Number.isInteger(limit) || limit < 1) {
  console.error("storage: --limit takes a whole number");
  process.exit(2);
}
const rows = await storageUsage({ limit });
console.info(`quota per user: ${describeBytes(quotaBytes())}`);
if (rows.length === 0) console.info("no user keeps any file yet");
else {
  console.info(["used".padStart(10), "quota".padStart(6), "account".padEnd(10), "e-mail"].join("  "));
  for (const r of rows) {
    console.info(
      [
        describeBytes(r.used_bytes).padStart(10),
        `${r.percent.toLocaleString("pt-BR")}%`.padStart(6),
        r.account_type.padEnd(10),
        r.email,
      ].join("  "),
    );
  }
}
await db.destroy();
