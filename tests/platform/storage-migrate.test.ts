import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { openExportFile, readExportFile } from "~/services/platform/export-files.server";
import { migrateFilesToBucket } from "~/services/platform/storage-migrate.server";
import { fileStore, s3Store, saveAttachment, savePhoto } from "~/services/platform/uploads.server";
import { postgresPool } from "../../db";
import { fillCopy, sha256Of } from "../support/export-copies";
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

  it("killed halfway through a data copy, leaves whole objects only, and the next run finishes the job", async () => {
    const photos = [];
    for (let i = 0; i < 3; i++) photos.push(await savePhoto(new Blob([PNG_1X1])));
    // A data copy of 20 MB where the source keeps them: the bucket gets it in three parts.
    const zip = await openExportFile(undefined, from);
    const written = await fillCopy(zip, 20, 1024 * 1024);

    // The script in its own process, reaching the bucket through a relay that kills it as the
    // copy's second part goes out (after the photos, and the copy's first part, are in).
    let killed = false;
    const relay = createServer((req, res) => {
      if (/[?&]partNumber=2\b/.test(req.url ?? "")) {
        killed = child.kill("SIGKILL");
        res.destroy();
        return;
      }
      const target = new URL(s3.endpoint);
      const forward = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const { port } = relay.address() as { port: number };
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/storage-migrate.ts", "--from", from], {
      env: { ...process.env, UPLOADS_DIR: uploads, ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<string | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    expect([await exited, killed], output).toEqual(["SIGKILL", true]);
    relay.close();

    pointAtBucket();
    expect(await readExportFile(zip.name, "s3")).toBeNull();
    const next = await migrateFilesToBucket(from);
    expect(next.failed).toEqual([]);
    expect(next.copied).toEqual([zip.name]);
    expect(next.skipped).toEqual(expect.arrayContaining(photos));
    const copy = await readExportFile(zip.name, "s3");
    expect(copy!.size).toBe(20 * 1024 * 1024);
    expect((await sha256Of(copy!.body)).hex).toBe(written);
    // It starts the script in a process of its own (tsx) and copies 20 MB twice: more than the
    // default 5 s on a busy machine.
  }, 30_000);
});
