import { randomUUID } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { config } from "~/config.server";
import { AppError } from "./errors.server";

export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

const allowed: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};
const contentTypes: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** Stored names are generated here, never taken from the client, so they cannot leave the folder. */
const storedName = /^[0-9a-f-]{36}\.(jpg|png|webp)$/;

/** Checks a photo by its bytes (not its name or declared type) and stores it under a new name. */
export async function savePhoto(file: Blob): Promise<string> {
  if (file.size > MAX_PHOTO_BYTES) throw new AppError(413, "photo_too_large", { photo: "photo_too_large" });
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await fileTypeFromBuffer(bytes);
  const ext = type && allowed[type.mime];
  if (!ext) throw new AppError(422, "profile_update_failed", { photo: "photo_invalid_type" });
  const name = `${randomUUID()}.${ext}`;
  await mkdir(config.UPLOADS_DIR, { recursive: true });
  await writeFile(join(config.UPLOADS_DIR, name), bytes);
  return name;
}

export async function deletePhoto(name: string | null) {
  if (!name || !storedName.test(name)) return;
  await unlink(join(config.UPLOADS_DIR, name)).catch(() => undefined);
}

export async function readPhoto(name: string) {
  if (!storedName.test(name)) return null;
  try {
    const body = await readFile(join(config.UPLOADS_DIR, name));
    return { body, contentType: contentTypes[name.split(".").pop()!] };
  } catch {
    return null;
  }
}
