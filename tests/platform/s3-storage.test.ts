import { randomBytes } from "node:crypto";
import { unzipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { readDataExport, requestDataExport, runDataExports } from "~/services/accounts/data-export.server";
import {
  deleteExportFile,
  listExportFiles,
  openExportFile,
  readExportFile,
} from "~/services/platform/export-files.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { readiness } from "~/services/platform/readiness.server";
import { deletePhoto, readAttachment, readPhoto, savePhoto } from "~/services/platform/uploads.server";
import { action as profileUpdate } from "~/routes/api+/_account+/profile";
import { loader as photoFile } from "~/routes/_account+/uploads.$file";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { fillCopy, sha256Of } from "../support/export-copies";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, signedInUser } from "../support/helpers";
import { negotiation } from "../support/market";
import { freePort } from "../support/net";
import { startS3Server, type S3TestServer } from "../support/s3-server";

// FILE_STORAGE=s3 against a real S3-compatible server (s3rver), on both engines.
let s3: S3TestServer;
const saved = { ...config };
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());
const useBucket = (endpoint = s3.endpoint) =>
  Object.assign(config, {
    FILE_STORAGE: "s3",
    S3_ENDPOINT: endpoint,
    S3_BUCKET: s3.bucket,
    S3_FORCE_PATH_STYLE: true,
    S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
  });
afterEach(() => {
  Object.assign(config, saved);
});
/** The bucket's address with nothing listening there: a bucket that is down. */
const downEndpoint = async () => `http://127.0.0.1:${await freePort()}`;

describe("files in an S3 bucket", () => {
  it("stores a photo in the bucket, serves it through the app and removes it", async () => {
    useBucket();
    const name = await savePhoto(new Blob([PNG_1X1]));
    const read = await readPhoto(name);
    expect(read?.contentType).toBe("image/png");
    expect(Buffer.compare(read!.body, Buffer.from(PNG_1X1))).toBe(0);
    const res = await photoFile({
      request: new Request(`${BASE}/uploads/${name}`),
      params: { file: name },
      context: {},
    });
    expect([res.status, res.headers.get("Content-Type"), res.headers.get("Cache-Control")]).toEqual([
      200,
      "image/png",
      "public, max-age=31536000, immutable",
    ]);
    // Not in the other stores: only the bucket has it.
    config.FILE_STORAGE = saved.FILE_STORAGE;
    expect(await readPhoto(name)).toBeNull();
    useBucket();
    await deletePhoto(name);
    expect(await readPhoto(name)).toBeNull();
    expect(await readAttachment(`c_${crypto.randomUUID()}.pdf`)).toBeNull();
  });

  it("answers 503 with Retry-After in Portuguese when the bucket is down, and no row points at the file", async () => {
    useBucket(await downEndpoint());
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const form = new FormData();
    form.append("photo", new Blob([PNG_1X1], { type: "image/png" }), "eu.png");
    const res = await call(
      profileUpdate,
      new Request(`${BASE}/api/profile`, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }),
    );
    expect([res.status, res.headers.get("Retry-After"), res.body.message]).toEqual([
      503,
      "30",
      "O armazenamento de arquivos não respondeu. Tente de novo em instantes.",
    ]);
    const row = await db.selectFrom("users").select("photo_path").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.photo_path).toBeNull();

    const { applicant, application } = await negotiation("pending");
    await expect(
      sendMessage(applicant, application.id, { body: "O arquivo" }, [new File([PNG_1X1], "a.png")]),
    ).rejects.toMatchObject({ status: 503, headers: { "Retry-After": "30" } });
    const messages = await db
      .selectFrom("messages")
      .select("id")
      .where("application_id", "=", application.id)
      .execute();
    expect(messages).toEqual([]);

    // Downloads too: 503, not a missing file.
    const name = `${crypto.randomUUID()}.png`;
    const file = await photoFile({
      request: new Request(`${BASE}/uploads/${name}`),
      params: { file: name },
      context: {},
    });
    expect([file.status, file.headers.get("Retry-After")]).toEqual([503, "30"]);
    // Removing (after the row is gone) logs and goes on: a file left behind harms no one.
    await expect(deletePhoto(name)).resolves.toBeUndefined();
  });

  it("is not ready while the bucket is out of reach", async () => {
    useBucket();
    expect(await readiness()).toEqual({ ready: true });
    useBucket(await downEndpoint());
    expect(await readiness()).toEqual({ ready: false, reason: "storage" });
  });

  it("keeps a data copy in the bucket: sent in 8 MB parts, read back as a stream, gone when aborted or deleted", async () => {
    useBucket();
    // 20 MB in the 256 KB pieces the ZIP writer hands over: two full parts and the rest.
    const file = await openExportFile();
    const written = await fillCopy(file, 80, 256 * 1024);
    const stored = await readExportFile(file.name);
    expect(stored!.size).toBe(20 * 1024 * 1024);
    const back = await sha256Of(stored!.body);
    expect(back.hex).toBe(written);
    expect(back.chunks).toBeGreaterThan(1);
    expect(await listExportFiles("s3")).toContainEqual({ name: file.name, size: 20 * 1024 * 1024 });
    // Not where copies go without the bucket.
    expect(await readExportFile(file.name, "folder")).toBeNull();
    await deleteExportFile(file.name);
    expect(await readExportFile(file.name)).toBeNull();

    // Dropped after one part was sent: no object. (The upload's abort is sent too; s3rver, which
    // implements neither aborting nor listing uploads, cannot show that it left nothing behind.)
    const dropped = await openExportFile();
    await dropped.write(randomBytes(9 * 1024 * 1024));
    await dropped.abort();
    expect(await readExportFile(dropped.name)).toBeNull();
  });

  it("builds a user's copy into the bucket and hands it to its owner; a bucket down puts the job back", async () => {
    const user = await createUser(db);
    useBucket(await downEndpoint());
    const { export: asked } = await requestDataExport(user);
    expect(await runDataExports({ limit: 1 })).toBe(0);
    const waiting = await db
      .selectFrom("data_exports")
      .selectAll()
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ status: "pending", file_name: null, attempts: 1 });

    useBucket();
    expect(await runDataExports({ limit: 5 })).toBeGreaterThanOrEqual(1);
    const copy = await readDataExport(user, asked.id);
    const bytes = new Uint8Array(await new Response(copy.body).arrayBuffer());
    expect(bytes.byteLength).toBe(copy.size);
    expect(JSON.parse(new TextDecoder().decode(unzipSync(bytes)["profile.json"])).email).toBe(user.email);
    const { file_name } = await db
      .selectFrom("data_exports")
      .select("file_name")
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(await listExportFiles("s3")).toContainEqual({ name: file_name, size: copy.size });
  });
});
