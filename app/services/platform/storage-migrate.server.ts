import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { config } from "~/config.server";
import { db } from "../../../db";
import { databaseStore, folderStore, isUploadName, s3Client, s3Store, type FileStore } from "./uploads.server";

export type MigrateSource = "folder" | "database";
export type MigrateReport = { copied: string[]; skipped: string[]; failed: { name: string; reason: string }[] };

/** The uploaded files a store holds, with their sizes (data copies and anything else left out). */
async function listSource(from: MigrateSource): Promise<{ name: string; size: number }[]> {
  if (from === "database") {
    const rows = await db
      .selectFrom("photos")
      .select((eb) => ["name", eb.fn<number>("octet_length", ["bytes"]).as("size")])
      .orderBy("name")
      .execute();
    return rows.filter((r) => isUploadName(r.name)).map((r) => ({ name: r.name, size: Number(r.size) }));
  }
  const names = await readdir(config.UPLOADS_DIR).catch(() => [] as string[]);
  const files = [];
  for (const name of names.filter(isUploadName).sort())
    files.push({ name, size: (await stat(join(config.UPLOADS_DIR, name))).size });
  return files;
}

/** The size of an object in the bucket, or null when it is not there. */
async function bucketSize(name: string): Promise<number | null> {
  try {
    const head = await s3Client().send(new HeadObjectCommand({ Bucket: config.S3_BUCKET, Key: name }));
    return head.ContentLength ?? null;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw error;
  }
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Copies the uploaded files of the folder or the database into the S3 bucket (S3_* settings),
 * one at a time: a file already there with the same size is skipped; each copy is read back and
 * checked by size and SHA-256. `dryRun` only says what would be copied. The source is untouched.
 */
export async function migrateFilesToBucket(from: MigrateSource, dryRun = false): Promise<MigrateReport> {
  const source: FileStore = from === "database" ? databaseStore : folderStore;
  const report: MigrateReport = { copied: [], skipped: [], failed: [] };
  for (const { name, size } of await listSource(from)) {
    if ((await bucketSize(name)) === size) {
      report.skipped.push(name);
      continue;
    }
    if (dryRun) {
      report.copied.push(name);
      continue;
    }
    const file = await source.read(name);
    if (!file) {
      report.failed.push({ name, reason: "gone from the source" });
      continue;
    }
    await s3Store.write(name, file.body);
    const back = await s3Store.read(name);
    if (!back || back.body.byteLength !== file.body.byteLength || sha256(back.body) !== sha256(file.body)) {
      report.failed.push({ name, reason: "the copy read back differs" });
      continue;
    }
    report.copied.push(name);
  }
  return report;
}
