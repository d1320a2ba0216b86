import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { config } from "~/config.server";
import { db } from "../../../db";
import { AppError } from "./errors.server";
import { logger } from "./log.server";

export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

/**
 * The largest image taken (profile photos, portfolio images, images attached to messages and
 * deliveries), read from its header: no side over 8 192 px and at most 4 096 × 4 096 pixels
 * (16,8 megapixels). Every browser that shows an image decodes it to width × height × 4 bytes:
 * a 48 KB PNG of 20 000 × 20 000 px took a tab past 1 GB; at the limit it is 64 MB.
 */
export const MAX_IMAGE_SIDE = 8_192;
export const MAX_IMAGE_PIXELS = 4_096 * 4_096;

/** An image's problem by its dimensions: none, too large, or a header that gives none. */
function dimensionsProblem(bytes: Uint8Array): "image_dimensions_too_large" | "unreadable" | null {
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes);
  } catch {
    return "unreadable";
  }
  const { width, height } = size;
  if (!(width > 0 && height > 0)) return "unreadable";
  return width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS
    ? "image_dimensions_too_large"
    : null;
}

const allowed: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

/** What a contract file may be (by its content): documents, images, spreadsheets, archives. */
const attachmentTypes: Record<string, string> = {
  ...allowed,
  "image/gif": "gif",
  "application/pdf": "pdf",
  "application/zip": "zip",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
  "application/vnd.oasis.opendocument.presentation": "odp",
};
const contentTypes: Record<string, string> = Object.fromEntries(
  Object.entries(attachmentTypes).map(([mime, ext]) => [ext, mime]),
);
/** The content type of a stored file, by the extension its generated name carries. */
export const contentTypeOf = (name: string) => contentTypes[name.split(".").pop()!];

// Stored names are generated here, never taken from the client, so they cannot leave the folder.
// Photos are public (/uploads); attachments (c_…: contract and message files) are served only to
// the two sides of their contract or conversation.
const storedName = /^[0-9a-f-]{36}\.(jpg|png|webp)$/;
const attachmentName = new RegExp(`^c_[0-9a-f-]{36}\\.(${Object.values(attachmentTypes).join("|")})$`);
/** A photo's or an attachment's stored name (not a data copy's, nor anything else in the folder). */
export const isUploadName = (name: string) => storedName.test(name) || attachmentName.test(name);

type StoredFile = { body: Buffer<ArrayBuffer>; contentType: string };

export type FileStore = {
  write(name: string, bytes: Buffer): Promise<void>;
  remove(name: string): Promise<void>;
  read(name: string): Promise<StoredFile | null>;
};

/** One machine: files in UPLOADS_DIR, beside the database file. */
export const folderStore: FileStore = {
  async write(name, bytes) {
    await mkdir(config.UPLOADS_DIR, { recursive: true });
    await writeFile(join(config.UPLOADS_DIR, name), bytes);
  },
  async remove(name) {
    await unlink(join(config.UPLOADS_DIR, name)).catch(() => undefined);
  },
  async read(name) {
    try {
      const body = await readFile(join(config.UPLOADS_DIR, name));
      return { body, contentType: contentTypeOf(name) };
    } catch {
      return null;
    }
  },
};

/** The files of UPLOADS_DIR whose names `accept` takes, by name, with their sizes (none: an empty list). */
export async function folderFiles(accept: (name: string) => boolean): Promise<{ name: string; size: number }[]> {
  const names = await readdir(config.UPLOADS_DIR).catch(() => [] as string[]);
  const files = [];
  for (const name of names.filter(accept).sort())
    files.push({ name, size: (await stat(join(config.UPLOADS_DIR, name))).size });
  return files;
}

/**
 * PostgreSQL (several servers): the photos table, which every server reaches; a photo is at most
 * 2 MB, a contract file 10 MB, and pg_dump carries them with the rest.
 */
export const databaseStore: FileStore = {
  async write(name, bytes) {
    await db
      .insertInto("photos")
      .values({ name, content_type: contentTypeOf(name), bytes, created_at: new Date().toISOString() })
      .execute();
  },
  async remove(name) {
    await db.deleteFrom("photos").where("name", "=", name).execute();
  },
  async read(name) {
    const row = await db
      .selectFrom("photos")
      .select(["bytes", "content_type"])
      .where("name", "=", name)
      .executeTakeFirst();
    // pg hands bytea over as a Buffer of its own.
    return row ? { body: row.bytes as Buffer<ArrayBuffer>, contentType: row.content_type } : null;
  },
};

/** The bucket out of reach (down, refusing the keys): a passing state, the client may try again. */
export const storageUnavailable = () =>
  new AppError(503, "storage_unavailable", undefined, undefined, { "Retry-After": "30" });

let s3: { client: S3Client; key: string } | undefined;
/** The S3 client of the configured bucket, made on first use (and again if the settings change). */
export function s3Client(): S3Client {
  const key = [config.S3_ENDPOINT, config.S3_REGION, config.S3_FORCE_PATH_STYLE, config.S3_ACCESS_KEY_ID].join(" ");
  if (s3?.key === key) return s3.client;
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID!, secretAccessKey: config.S3_SECRET_ACCESS_KEY! },
    // A bucket that does not answer fails the request in seconds, not minutes.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 20_000, throwOnRequestTimeout: true },
  });
  s3 = { client, key };
  return client;
}

/** A bucket of S3 or a compatible service (MinIO…), shared by every server: FILE_STORAGE=s3. */
export const s3Store: FileStore = {
  async write(name, bytes) {
    const command = new PutObjectCommand({
      Bucket: config.S3_BUCKET,
      Key: name,
      Body: bytes,
      ContentType: contentTypeOf(name),
    });
    await s3Client()
      .send(command)
      .catch((error: unknown) => {
        logger.error({ err: error }, `[storage] could not store ${name}`);
        throw storageUnavailable();
      });
  },
  async remove(name) {
    // Removed after the row that named it is gone: a file left behind harms no one, a failed
    // request after the change committed would.
    await s3Client()
      .send(new DeleteObjectCommand({ Bucket: config.S3_BUCKET, Key: name }))
      .catch((error: unknown) => logger.error({ err: error }, `[storage] could not remove ${name}`));
  },
  async read(name) {
    try {
      const object = await s3Client().send(new GetObjectCommand({ Bucket: config.S3_BUCKET, Key: name }));
      const body = Buffer.from(await object.Body!.transformToByteArray());
      return { body, contentType: object.ContentType ?? contentTypeOf(name) };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
      logger.error({ err: error }, `[storage] could not read ${name}`);
      throw storageUnavailable();
    }
  },
};

const stores = { folder: folderStore, database: databaseStore, s3: s3Store };
/** Where uploaded files (profile photos, contract and message files) are kept: FILE_STORAGE. */
export const fileStore = (): FileStore => stores[config.FILE_STORAGE];

/**
 * Checks a photo by its bytes (not its name or declared type) and stores it under a new name.
 * A refusal names `field`, the form field the photo came in.
 */
export async function savePhoto(file: Blob, field = "photo", failKey = "profile_update_failed"): Promise<string> {
  const checked = await checkPhoto(file);
  if ("problem" in checked) {
    const { status, problem } = checked;
    throw new AppError(status, status === 413 ? problem : failKey, { [field]: problem });
  }
  const { bytes, ext } = checked;
  const name = `${randomUUID()}.${ext}`;
  await fileStore().write(name, bytes);
  return name;
}

async function checkPhoto(file: Blob): Promise<{ status: number; problem: string } | { bytes: Buffer; ext: string }> {
  if (file.size > MAX_PHOTO_BYTES) return { status: 413, problem: "photo_too_large" };
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const ext = type && allowed[type.mime];
  if (!ext) return { status: 422, problem: "photo_invalid_type" };
  const dimensions = dimensionsProblem(bytes);
  if (dimensions) return { status: 422, problem: dimensions === "unreadable" ? "photo_invalid_type" : dimensions };
  return { bytes, ext };
}

/**
 * What is wrong with a photo (none chosen: nothing), as a field error, without storing it: for a
 * form refused for its other fields, so it reports the photo's problem at the same time.
 */
export async function photoProblems(file: Blob | null | undefined, field: string): Promise<Record<string, string>> {
  if (!file || file.size === 0) return {};
  const checked = await checkPhoto(file);
  return "problem" in checked ? { [field]: checked.problem } : {};
}

export async function deletePhoto(name: string | null) {
  if (!name || !storedName.test(name)) return;
  await fileStore().remove(name);
}

export async function readPhoto(name: string): Promise<StoredFile | null> {
  if (!storedName.test(name)) return null;
  return fileStore().read(name);
}

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export type SavedAttachment = { stored_name: string; original_name: string; content_type: string; size_bytes: number };

/**
 * Checks a contract file by its bytes and stores it under a new name. `field` is the form field
 * the refusal is reported on. The name the client gave is kept for display only, cleaned.
 */
export async function saveAttachment(file: Blob, field: string, only?: ReadonlySet<string>): Promise<SavedAttachment> {
  const checked = await checkAttachment(file, only);
  if ("problem" in checked) {
    const { status, problem } = checked;
    throw new AppError(status, status === 413 ? problem : "validation_failed", { [field]: problem });
  }
  const { bytes, ext, type } = checked;
  const name = `c_${randomUUID()}.${ext}`;
  await fileStore().write(name, bytes);
  return {
    stored_name: name,
    original_name: displayFileName(file instanceof File ? file.name : "", ext),
    content_type: type.mime,
    size_bytes: bytes.byteLength,
  };
}

/** A contract or message file checked by its bytes, or the message key of its problem. */
async function checkAttachment(
  file: Blob,
  only?: ReadonlySet<string>,
): Promise<{ status: number; problem: string } | { bytes: Buffer; ext: string; type: { mime: string } }> {
  if (file.size > MAX_ATTACHMENT_BYTES) return { status: 413, problem: "file_too_large" };
  if (file.size === 0) return { status: 422, problem: "file_empty" };
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const ext = type && (!only || only.has(type.mime)) && attachmentTypes[type.mime];
  if (!ext) return { status: 422, problem: only ? "photo_invalid_type" : "file_invalid_type" };
  // Images are shown in the conversation and on the contract: held to the photos' dimensions.
  const dimensions = INLINE_TYPES.has(type.mime) ? dimensionsProblem(bytes) : null;
  if (dimensions) return { status: 422, problem: dimensions === "unreadable" ? "file_invalid_type" : dimensions };
  return { bytes, ext, type };
}

/**
 * What is wrong with the files of a delivery or a message, as a field error (too many, or the
 * first file refused), without storing any: reported with the text's own problems, at once.
 */
export async function attachmentProblems(
  files: Blob[],
  field: string,
  max: number,
  tooManyKey: string,
): Promise<Record<string, string>> {
  if (files.length > max) return { [field]: tooManyKey };
  for (const file of files) {
    const checked = await checkAttachment(file);
    if ("problem" in checked) return { [field]: checked.problem };
  }
  return {};
}

/**
 * A file name fit to show and to offer for download: no folders, control or format characters,
 * at most 120 characters, ending with the extension its content has.
 */
export function displayFileName(name: string, ext: string): string {
  const cleaned = (name.split(/[\\/]/).pop() ?? "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f"<>|:*?]|\p{Cf}/gu, "")
    .trim()
    .replace(/\.[^.]*$/, "");
  // Cut by code points, so no emoji is split in half.
  const base = Array.from(cleaned).slice(0, 100).join("").trim();
  return `${base || "arquivo"}.${ext}`;
}

export async function deleteAttachment(name: string) {
  if (attachmentName.test(name)) await fileStore().remove(name);
}

export async function readAttachment(name: string): Promise<StoredFile | null> {
  if (!attachmentName.test(name)) return null;
  return fileStore().read(name);
}

const INLINE_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"]);
/** Photos of documents and selfies: JPEG, PNG or WebP only. */
export const PHOTO_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/webp"]);

/**
 * The answer carrying a contract file: images shown inline, anything else downloaded, never
 * sniffed into another type, sandboxed, kept by no shared cache (only the two sides may see it).
 */
export function attachmentResponse(
  file: { name: string; contentType: string } & (
    | { body: Buffer }
    | { body: ReadableStream<Uint8Array>; size: number } // a large file, sent as it is read
  ),
) {
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const disposition = INLINE_TYPES.has(file.contentType) ? "inline" : "attachment";
  const streamed = "size" in file;
  return new Response(streamed ? file.body : new Uint8Array(file.body), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(streamed ? file.size : file.body.byteLength),
      "Content-Disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Referrer-Policy": "no-referrer",
    },
  });
}
