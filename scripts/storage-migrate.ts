// Copies the uploaded files (photos, contract, message and identity files) and the data copies
// (x_….zip, streamed part by part) into the S3 bucket
// set by S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID… before switching to FILE_STORAGE=s3:
//   npm run storage:migrate                    -> from the database with DATABASE_URL, else UPLOADS_DIR
//   npm run storage:migrate -- --from folder   -> from UPLOADS_DIR
//   npm run storage:migrate -- --dry-run       -> only lists what it would copy
// Files already in the bucket with the same size are skipped, so it can run again (say, once
// more right after the switch, for what arrived meanwhile). Each copy is read back and checked
// by size and SHA-256; nothing is deleted from the source. Stopped halfway, it leaves only whole
// objects in the bucket: run it again.
import { config } from "../app/config.server";
import { migrateFilesToBucket } from "../app/services/platform/storage-migrate.server";
import { db } from "../db";

const args = process.argv.slice(2);
const at = args.indexOf("--from");
const from = at >= 0 ? args[at + 1] : config.DATABASE_URL ? "database" : "folder";
if (from !== "folder" && from !== "database") {
  console.error("storage:migrate: --from takes folder or database");
  process.exit(2);
}
if (from === "database" && !config.DATABASE_URL) {
  console.error("storage:migrate: --from database needs DATABASE_URL");
  process.exit(2);
}
if (!config.S3_BUCKET || !config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY) {
  console.error("storage:migrate: needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT)");
  process.exit(2);
}
const dryRun = args.includes("--dry-run");
const report = await migrateFilesToBucket(from, dryRun);
for (const name of report.copied) console.info(`${dryRun ? "would copy" : "copied"} ${name}`);
for (const { name, reason } of report.failed) console.error(`FAILED ${name}: ${reason}`);
console.info(
  `${from} -> s3://${config.S3_BUCKET}: ${report.copied.length} ${dryRun ? "to copy" : "copied"}, ${report.skipped.length} already there, ${report.failed.length} failed`,
);
await db.destroy();
process.exit(report.failed.length > 0 ? 1 : 0);
