// Files in an S3 bucket (FILE_STORAGE=s3, s3rver here) shared by two app servers: a photo sent
// through one server is served by the other, read from the bucket, not from the database or a
// folder of the machine; so is the data copy (ZIP) that holds it.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_1X1 } from "../../support/fixtures";
import { startS3Server, type S3TestServer } from "../../support/s3-server";
import { apiUser, fresh } from "../crash/server";
import { twoServersFor } from "./two-servers";

const twoServers = twoServersFor("s3-files");
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

describe.each(["postgres", "sqlite"] as const)("files in a bucket on two servers (%s)", (engine) => {
  it("a photo sent through server A is downloaded through server B, and so is the data copy holding it", async () => {
    const { bases, rows, uploads } = await twoServers(engine, { ...s3.env, OUTBOX_SECONDS: "1" });
    const [a, b] = bases;
    const ana = await apiUser(a, `ana.${engine}@example.com`);
    const form = new FormData();
    form.append("photo", new Blob([PNG_1X1], { type: "image/png" }), "eu.png");
    const sent = await fetch(`${a}/api/profile`, {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${ana.token}` },
    });
    expect(sent.status).toBe(200);
    const [{ photo_path: name }] = await rows<{ photo_path: string }>(
      `SELECT photo_path FROM users WHERE id = ${engine === "postgres" ? "$1" : "?"}`,
      [ana.id],
    );
    expect(name).toMatch(/\.png$/);

    const got = await fetch(`${b}/uploads/${name}`);
    expect([got.status, got.headers.get("Content-Type")]).toEqual([200, "image/png"]);
    expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), Buffer.from(PNG_1X1))).toBe(0);
    // Only the bucket has it.
    if (engine === "postgres") expect(await rows("SELECT name FROM photos")).toEqual([]);
    else expect(existsSync(join(uploads, name))).toBe(false);

    // The copy of Ana's data, asked through A, built by whichever server's job, read through B.
    expect((await fresh(a, "POST", "/api/account/export", { token: ana.token })).status).toBe(202);
    const status = async () =>
      ((await fresh(b, "GET", "/api/account/export", { token: ana.token })).json.export as { status: string }).status;
    await expect.poll(status, { timeout: 30_000, interval: 300 }).toBe("ready");
    const zip = await fetch(`${b}/api/account/export/download`, { headers: { Authorization: `Bearer ${ana.token}` } });
    expect([zip.status, zip.headers.get("Content-Type")]).toEqual([200, "application/zip"]);
    const bytes = new Uint8Array(await zip.arrayBuffer());
    expect(Number(zip.headers.get("Content-Length"))).toBe(bytes.byteLength);
    expect(Object.keys(unzipSync(bytes))).toContain(`files/profile/${name}`);
    if (engine === "postgres") expect(await rows("SELECT name FROM photos")).toEqual([]);
    else expect(existsSync(uploads) && readdirSync(uploads).some((n) => n.startsWith("x_"))).toBe(false);
  }, 120_000);
});
