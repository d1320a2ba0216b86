import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { migrateFilesToBucket } from "~/services/platform/storage-migrate.server";
import { fileStore, s3Store, saveAttachment, savePhoto } from "~/services/platform/uploads.server";
import { postgresPool } from "../../db";
import { PNG_1X1 } from "../support/fixtures";
import { startS3Server, type S3TestServer } from "../support/s3-server";

// npm run storage:migrate (scripts/storage-migrate.ts): the folder's (SQLite) or the database's
// (PostgreSQL) files copied into a real S3-compatible bucket (s3rver).
let s3: S3TestServer;
const saved = { ...config };
let uploads: string;
beforeAll(async () => {
  s3 = await startS3Server();
  // A folder of its own: the shared one holds every other test's files.
  uploads = await mkdtemp(join(tmpdir(), "freela-migrate-"));
  saved.UPLOADS_DIR = uploads;
  config.UPLOADS_DIR = uploads;
});
afterAll(async () => {
  await s3.close();
  await rm(uploads, { recursive: true, force: true });
});
afterEach(() => {
  Object.assign(config, saved);
});
const pointAtBucket = () =>
  Object.assign(config, {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_FORCE_PATH_STYLE: true,
    S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
  });
const from = postgresPool ? "database" : "folder";

describe("storage:migrate", () => {
  it("copies every file once, checked by reading it back; a second run copies nothing", async () => {
    expect(config.FILE_STORAGE).toBe(from);
    const photo = await savePhoto(new Blob([PNG_1X1]));
    const pdf = new File([Buffer.from("%PDF-1.4\n% contrato\n%%EOF\n")], "contrato.pdf");
    const file = (await saveAttachment(pdf, "files")).stored_name;
    pointAtBucket();

    const planned = await migrateFilesToBucket(from, true);
    expect(planned.copied).toEqual(expect.arrayContaining([photo, file]));
    expect(await s3Store.read(photo)).toBeNull();

    const first = await migrateFilesToBucket(from);
    expect(first.copied).toEqual(expect.arrayContaining([photo, file]));
    expect(first.failed).toEqual([]);
    for (const name of [photo, file]) {
      const [inBucket, inSource] = [await s3Store.read(name), await fileStore().read(name)];
      expect(inBucket?.contentType).toBe(inSource?.contentType);
      expect(Buffer.compare(inBucket!.body, inSource!.body)).toBe(0);
    }

    const second = await migrateFilesToBucket(from);
    expect(second.copied).toEqual([]);
    expect(second.skipped).toEqual(expect.arrayContaining([photo, file]));

    // A different size in the bucket (a copy cut short) is copied again.
    await s3Store.write(photo, Buffer.from("cut"));
    expect((await migrateFilesToBucket(from)).copied).toEqual([photo]);
    expect((await s3Store.read(photo))!.body.byteLength).toBe(PNG_1X1.length);
  });
});
