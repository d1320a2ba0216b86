import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import type { ExpressionBuilder } from "kysely";
import { config } from "~/config.server";
import { db, postgresPool } from "../../../db";
import type { Database } from "../../../db/schema";
import { logger } from "./log.server";
import { folderFiles, s3Client, storageUnavailable } from "./uploads.server";

// Copies of a user's data (accounts/data-export.server.ts): ZIPs the export job writes piece by
// piece, read back only by their owner as a stream, deleted once they expire. Neither writing nor
// reading one holds more than a piece of it in memory, whatever its size (up to the 1 GB of a
// user's files). Kept in the bucket with FILE_STORAGE=s3; otherwise in the database on
// PostgreSQL and in UPLOADS_DIR on SQLite, which every server of the installation reaches.

export type ExportStorage = "folder" | "database" | "s3";
/** Where new data copies go. */
export const exportStorage = (): ExportStorage =>
  config.FILE_STORAGE === "s3" ? "s3" : postgresPool ? "database" : "folder";

const exportName = /^x_[0-9a-f-]{36}\.zip$/;
export const isExportName = (name: string) => exportName.test(name);

/** A data copy's ZIP being written piece by piece: `close` when complete, `abort` to drop it. */
export type ExportFileWriter = {
  name: string;
  write: (chunk: Uint8Array) => Promise<void>;
  close: () => Promise<void>;
  abort: () => Promise<void>;
};

/** A stored copy, to be read once from the start: its size and its bytes as they arrive. */
export type ExportFileReader = { size: number; body: ReadableStream<Uint8Array> };

/**
 * The database keeps a ZIP as rows of at most this many bytes (`<name>#000001`, `#000002`…, in
 * the photos table); the bucket receives it in parts of this size (S3's multipart upload, whose
 * parts but the last must be at least 5 MB).
 */
const EXPORT_PART_BYTES = 8 * 1024 * 1024;
const partName = (name: string, n: number) => `${name}#${String(n).padStart(6, "0")}`;
/**
 * The rows of an export: its parts, named from `<name>#` up to (not including) `<name>$`, or one
 * row under the name itself (a copy written whole, before the parts). Sorted by name, in order.
 */
const ofExport = (name: string) => (eb: ExpressionBuilder<Database, "photos">) =>
  eb.or([eb("name", "=", name), eb.and([eb("name", ">=", `${name}#`), eb("name", "<", `${name}$`)])]);
const removeExportParts = (name: string) => db.deleteFrom("photos").where(ofExport(name)).execute();

/** Collects written chunks and hands them on `EXPORT_PART_BYTES` at a time (the rest at the end). */
function inParts(put: (part: Buffer, last: boolean) => Promise<void>) {
  let buffered: Buffer[] = [];
  let bytes = 0;
  const flush = async (last: boolean) => {
    const part = Buffer.concat(buffered, bytes);
    buffered = [];
    bytes = 0;
    await put(part, last);
  };
  return {
    async write(chunk: Uint8Array) {
      buffered.push(Buffer.from(chunk));
      bytes += chunk.byteLength;
      if (bytes >= EXPORT_PART_BYTES) await flush(false);
    },
    close: () => flush(true),
    drop() {
      buffered = [];
      bytes = 0;
    },
  };
}

/** A writer over `inParts`: aborting drops what is buffered, then `removeStored` what went out. */
function partsWriter(
  name: string,
  parts: ReturnType<typeof inParts>,
  removeStored: () => Promise<unknown>,
): ExportFileWriter {
  return {
    name,
    write: parts.write,
    close: parts.close,
    async abort() {
      parts.drop();
      await removeStored();
    },
  };
}

const failed = (what: string) => (error: unknown) => {
  logger.error({ err: error }, `[storage] could not ${what}`);
  throw storageUnavailable();
};

function bucketWriter(name: string): ExportFileWriter {
  const s3 = s3Client();
  const at = { Bucket: config.S3_BUCKET, Key: name };
  let uploadId: string | undefined;
  const done: CompletedPart[] = [];
  const parts = inParts(async (part, last) => {
    // A copy smaller than one part goes in one request.
    if (last && !uploadId) {
      await s3
        .send(new PutObjectCommand({ ...at, Body: part, ContentType: "application/zip" }))
        .catch(failed(`store ${name}`));
      return;
    }
    if (!uploadId) {
      const created = await s3
        .send(new CreateMultipartUploadCommand({ ...at, ContentType: "application/zip" }))
        .catch(failed(`start ${name}`));
      uploadId = created.UploadId;
    }
    if (part.byteLength > 0) {
      const PartNumber = done.length + 1;
      const sent = await s3
        .send(new UploadPartCommand({ ...at, UploadId: uploadId, PartNumber, Body: part }))
        .catch(failed(`store part ${PartNumber} of ${name}`));
      done.push({ PartNumber, ETag: sent.ETag });
    }
    if (last) {
      await s3
        .send(new CompleteMultipartUploadCommand({ ...at, UploadId: uploadId, MultipartUpload: { Parts: done } }))
        .catch(failed(`complete ${name}`));
    }
  });
  return partsWriter(name, parts, async () => {
    // An unfinished upload would keep its parts (and their cost) until the bucket's own rules
    // drop them; a finished one is an object to remove.
    if (uploadId) await s3.send(new AbortMultipartUploadCommand({ ...at, UploadId: uploadId })).catch(() => undefined);
    await s3.send(new DeleteObjectCommand(at)).catch(() => undefined);
  });
}

function databaseWriter(name: string): ExportFileWriter {
  let count = 0;
  const parts = inParts(async (part) => {
    if (part.byteLength === 0) return;
    await db
      .insertInto("photos")
      .values({
        name: partName(name, ++count),
        content_type: "application/zip",
        bytes: part,
        created_at: new Date().toISOString(),
      })
      .execute();
  });
  return partsWriter(name, parts, () => removeExportParts(name));
}

async function folderWriter(name: string): Promise<ExportFileWriter> {
  await mkdir(config.UPLOADS_DIR, { recursive: true });
  const path = join(config.UPLOADS_DIR, name);
  const file = await open(path, "w");
  return {
    name,
    async write(chunk) {
      await file.write(chunk);
    },
    close: () => file.close(),
    async abort() {
      await file.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
    },
  };
}

/**
 * Opens a data copy's ZIP for writing as it is built, under a new name (or `name`, to copy one
 * from another storage), in `storage` (where new copies go, unless said).
 */
export async function openExportFile(
  name = `x_${randomUUID()}.zip`,
  storage = exportStorage(),
): Promise<ExportFileWriter> {
  if (storage === "s3") return bucketWriter(name);
  if (storage === "database") return databaseWriter(name);
  return folderWriter(name);
}

/** The stored copy `name` as a stream, or null when there is none (in `storage`, by default where copies go). */
export async function readExportFile(name: string, storage = exportStorage()): Promise<ExportFileReader | null> {
  if (!isExportName(name)) return null;
  if (storage === "s3") {
    try {
      const object = await s3Client().send(new GetObjectCommand({ Bucket: config.S3_BUCKET, Key: name }));
      return { size: object.ContentLength ?? 0, body: object.Body!.transformToWebStream() };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as { name?: string }).name === "NoSuchKey") return null;
      return failed(`read ${name}`)(error);
    }
  }
  if (storage === "database") {
    const parts = await db
      .selectFrom("photos")
      .select((eb) => ["name", eb.fn<number>("octet_length", ["bytes"]).as("size")])
      .where(ofExport(name))
      .orderBy("name")
      .execute();
    if (parts.length === 0) return null;
    let next = 0;
    // One row read at a time, when the reader wants more.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next === parts.length) return controller.close();
        const row = await db
          .selectFrom("photos")
          .select("bytes")
          .where("name", "=", parts[next++]!.name)
          .executeTakeFirst();
        if (!row) return controller.error(new Error(`${name}: a part went missing while it was read`));
        controller.enqueue(new Uint8Array(row.bytes as Buffer));
      },
    });
    return { size: parts.reduce((sum, p) => sum + Number(p.size), 0), body };
  }
  const path = join(config.UPLOADS_DIR, name);
  const info = await stat(path).catch(() => null);
  if (!info) return null;
  return { size: info.size, body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array> };
}

export async function deleteExportFile(name: string | null, storage = exportStorage()) {
  if (!name || !isExportName(name)) return;
  if (storage === "s3") {
    await s3Client()
      .send(new DeleteObjectCommand({ Bucket: config.S3_BUCKET, Key: name }))
      .catch((error: unknown) => logger.error({ err: error }, `[storage] could not remove ${name}`));
  } else if (storage === "database") await removeExportParts(name);
  else await unlink(join(config.UPLOADS_DIR, name)).catch(() => undefined);
}

/** The data copies a storage holds, with their sizes, by name. */
export async function listExportFiles(storage: ExportStorage): Promise<{ name: string; size: number }[]> {
  if (storage === "s3") {
    const found: { name: string; size: number }[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await s3Client().send(
        new ListObjectsV2Command({ Bucket: config.S3_BUCKET, Prefix: "x_", ContinuationToken }),
      );
      for (const o of page.Contents ?? []) if (isExportName(o.Key!)) found.push({ name: o.Key!, size: o.Size ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }
  if (storage === "database") {
    const rows = await db
      .selectFrom("photos")
      .select((eb) => ["name", eb.fn<number>("octet_length", ["bytes"]).as("size")])
      .where("name", ">=", "x_")
      .where("name", "<", "x`")
      .execute();
    const sizes = new Map<string, number>();
    for (const r of rows) {
      const name = r.name.split("#")[0]!;
      if (isExportName(name)) sizes.set(name, (sizes.get(name) ?? 0) + Number(r.size));
    }
    return [...sizes].map(([name, size]) => ({ name, size })).sort((a, b) => a.name.localeCompare(b.name));
  }
  return folderFiles(isExportName);
}
