import { randomBytes } from "node:crypto";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { config } from "~/config.server";
import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { pendingMigrations } from "../../../db";
import { databaseAnswers } from "./health.server";
import { s3Client } from "./uploads.server";

// Readiness (GET /readyz), for a load balancer: whether this process should get requests now.
// Liveness (GET /healthz) only says the process answers; a process that is stopping, or whose
// database, migrations or file storage are not there, is alive but not ready.

let draining = false;
/** A stop began (SIGTERM, the launcher's word): /readyz answers 503 from now on. */
export function startDraining() {
  draining = true;
}
export const isDraining = () => draining;

/** Once the migrations were found current they stay so for this process (its build never changes). */
let migrationsCurrent = false;

export type Readiness = { ready: true } | { ready: false; reason: "stopping" | "database" | "migrations" | "storage" };

/**
 * Ready when not stopping, the database answers a trivial query, every migration of this build
 * was applied, and a small file can be written to and deleted from the file store (UPLOADS_DIR
 * or the S3 bucket). With FILE_STORAGE=database the files are in the database, which the first
 * check covers.
 */
export async function readiness(): Promise<Readiness> {
  if (draining) return { ready: false, reason: "stopping" };
  if (!(await databaseAnswers())) return { ready: false, reason: "database" };
  if (!migrationsCurrent) {
    try {
      migrationsCurrent = (await pendingMigrations()).length === 0;
    } catch {
      return { ready: false, reason: "database" };
    }
    if (!migrationsCurrent) return { ready: false, reason: "migrations" };
  }
  if (config.FILE_STORAGE !== "database" && !(await storageWritable())) return { ready: false, reason: "storage" };
  return draining ? { ready: false, reason: "stopping" } : { ready: true };
}

async function storageWritable() {
  if (config.FILE_STORAGE === "s3") return bucketWritable();
  const file = join(config.UPLOADS_DIR, `.readyz-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(config.UPLOADS_DIR, { recursive: true });
    await writeFile(file, "ok");
    await unlink(file);
    return true;
  } catch {
    await unlink(file).catch(() => undefined);
    return false;
  }
}

async function bucketWritable() {
  const probe = { Bucket: config.S3_BUCKET, Key: `.readyz-${process.pid}-${randomBytes(4).toString("hex")}` };
  try {
    await s3Client().send(new PutObjectCommand({ ...probe, Body: "ok" }));
    await s3Client().send(new DeleteObjectCommand(probe));
    return true;
  } catch {
    return false;
  }
}
