// Files in an S3 bucket (FILE_STORAGE=s3, s3rver here) shared by two app servers: a photo sent
// through one server is served by the other, read from the bucket, not from the database or a
// folder of the machine.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_1X1 } from "../../support/fixtures";
import { startS3Server, type S3TestServer } from "../../support/s3-server";
import { apiUser } from "../crash/server";
import { twoServersFor } from "./two-servers";

const twoServers = twoServersFor("s3-files");
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

describe.each(["postgres", "sqlite"] as const)("files in a bucket on two servers (%s)", (engine) => {
  it("a photo sent through server A is downloaded through server B", async () => {
    const { bases, rows, uploads } = await twoServers(engine, s3.env);
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
  }, 120_000);
});
