import { randomUUID } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { config } from "~/config.server";
import { db, postgresPool } from "../../db";
import { AppError } from "./errors.server";

export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

const allowed: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};
const contentTypes: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };
/** The content type of a stored photo, by the extension its generated name carries. */
export const contentTypeOf = (name: string) => contentTypes[name.split(".").pop()!];

/** Stored names are generated here, never taken from the client, so they cannot leave the folder. */
const storedName = /^[0-9a-f-]{36}\.(jpg|png|webp)$/;

type Photo = { body: Buffer<ArrayBuffer>; contentType: string };

/**
 * Where photos are kept. SQLite (one machine): files in UPLOADS_DIR, beside the database file.
 * PostgreSQL (several servers): the photos table, which every server reaches; a photo is at most
 * 2 MB, and pg_dump carries them with the rest.
 */
const store = postgresPool
  ? {
      async write(name: string, bytes: Buffer) {
        await db
          .insertInto("photos")
          .values({ name, content_type: contentTypeOf(name), bytes, created_at: new Date().toISOString() })
          .execute();
      },
      async remove(name: string) {
        await db.deleteFrom("photos").where("name", "=", name).execute();
      },
      async read(name: string): Promise<Photo | null> {
        const row = await db.selectFrom("photos").select(["bytes", "content_type"]).where("name", "=", name).executeTakeFirst();
        // pg hands bytea over as a Buffer of its own.
        return row ? { body: row.bytes as Buffer<ArrayBuffer>, contentType: row.content_type } : null;
      },
    }
  : {
      async write(name: string, bytes: Buffer) {
        await mkdir(config.UPLOADS_DIR, { recursive: true });
        await writeFile(join(config.UPLOADS_DIR, name), bytes);
      },
      async remove(name: string) {
        await unlink(join(config.UPLOADS_DIR, name)).catch(() => undefined);
      },
      async read(name: string): Promise<Photo | null> {
        try {
          const body = await readFile(join(config.UPLOADS_DIR, name));
          return { body, contentType: contentTypeOf(name) };
        } catch {
          return null;
        }
      },
    };

/**
 * Checks a photo by its bytes (not its name or declared type) and stores it under a new name.
 * A refusal names `field`, the form field the photo came in.
 */
export async function savePhoto(file: Blob, field = "photo", failKey = "profile_update_failed"): Promise<string> {
  if (file.size > MAX_PHOTO_BYTES) throw new AppError(413, "photo_too_large", { [field]: "photo_too_large" });
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const ext = type && allowed[type.mime];
  if (!ext) throw new AppError(422, failKey, { [field]: "photo_invalid_type" });
  const name = `${randomUUID()}.${ext}`;
  await store.write(name, bytes);
  return name;
}

export async function deletePhoto(name: string | null) {
  if (!name || !storedName.test(name)) return;
  await store.remove(name);
}

export async function readPhoto(name: string): Promise<Photo | null> {
  if (!storedName.test(name)) return null;
  return store.read(name);
}
