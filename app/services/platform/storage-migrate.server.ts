import { createHash } from "node:crypto";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { config } from "~/config.server";
import { db } from "../../../db";
import { listExportFiles, openExportFile, readExportFile } from "./export-files.server";
import {
  databaseStore,
  folderFiles,
  folderStore,
  isUploadName,
  s3Client,
  s3Store,
  type FileStore,
} from "./uploads.server";

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
  return folderFiles(isUploadName);
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

/** The SHA-256 of a stream's bytes, read to its end. */
async function sha256Of(body: ReadableStream<Uint8Array>) {
  const hash = createHash("sha256");
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * Copies a data copy (a ZIP of up to a user's 1 GB) into the bucket as it is read, part by part;
 * returns why it failed, or null.
 */
async function copyExport(from: MigrateSource, name: string): Promise<string | null> {
  const source = await readExportFile(name, from);
  if (!source) return "gone from the source";
  const target = await openExportFile(name, "s3");
  const hash = createHash("sha256");
  try {
    for await (const chunk of source.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      await target.write(chunk);
    }
    await target.close();
  } catch (error) {
    await target.abort();
    throw error;
  }
  const back = await readExportFile(name, "s3");
  if (!back || back.size !== source.size || (await sha256Of(back.body)) !== hash.digest("hex"))
    return "the copy read back differs";
  return null;
}

/**
 * Copies the uploaded files and the data copies of the folder or the database into the S3
 * bucket (S3_* settings), one at a time: a file already there with the same size is skipped;
 * each copy is read back and checked by size and SHA-256. `dryRun` only says what would be
 * copied. The source is untouched. A run stopped halfway leaves whole objects only (a file is
 * one request; a data copy's parts become an object when completed), so running it again
 * finishes the job.
 */
export async function migrateFilesToBucket(from: MigrateSource, dryRun = false): Promise<MigrateReport> {
  const source: FileStore = from === "database" ? databaseStore : folderStore;
  const report: MigrateReport = { copied: [], skipped: [], failed: [] };
  const files = (await listSource(from)).map((f) => ({ ...f, isExport: false }));
  const exports = (await listExportFiles(from)).map((f) => ({ ...f, isExport: true }));
  for (const { name, size, isExport } of [...files, ...exports]) {
    if ((await bucketSize(name)) === size) {
      report.skipped.push(name);
      continue;
    }
    if (dryRun) {
      report.copied.push(name);
      continue;
    }
    if (isExport) {
      const problem = await copyExport(from, name);
      if (problem) report.failed.push({ name, reason: problem });
      else report.copied.push(name);
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
