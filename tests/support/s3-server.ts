import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { freePort } from "./net";

/** s3rver's fixed keys: it checks signatures against these. */
export const S3_TEST_KEYS = { S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" } as const;

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  /** The settings that point FILE_STORAGE at this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/**
 * An S3-compatible server (s3rver) on a free port of 127.0.0.1, its objects in a temporary
 * folder, with `bucket` created: the bucket path-style (http://127.0.0.1:port/bucket/key).
 */
export async function startS3Server(bucket = "freela-test"): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), "freela-s3-"));
  const port = await freePort();
  const server = new S3rver({
    port,
    address: "127.0.0.1",
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { FILE_STORAGE: "s3", S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: "1", ...S3_TEST_KEYS },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
