import { AppError } from "~/services/platform/errors.server";
import { EMAIL_KINDS } from "~/lib/email-kinds";
import { MAX_PHOTO_BYTES } from "~/services/platform/uploads.server";

// Body readers, for the API and pages alike: JSON, url-encoded and multipart forms, each with its
// size limit read no further than that, and the right refusal (413, 415, 400) when it does not fit.

export const MAX_JSON_BYTES = 1024 * 1024;

/** A delivery's body: its files (10 MB each, checked one by one later) and text, 50 MB in all. */
export const MAX_DELIVERY_BYTES = 50 * 1024 * 1024;

/** Reads a JSON object body: 415 for another content type, 413 over 1 MB, 400 when malformed. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw refuseBody(request, 415, "unsupported_media_type");
  return parseJsonObject(await readLimited(request, MAX_JSON_BYTES));
}

function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new AppError(400, "malformed_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(400, "json_not_object");
  }
  return value as Record<string, unknown>;
}

/** Like readJson, for endpoints whose body may be left out: no body and no content type is `{}`. */
export async function readOptionalJson(request: Request): Promise<Record<string, unknown>> {
  if (request.headers.get("Content-Type")) return readJson(request);
  // The server hands every POST a body stream, empty or not, so emptiness is known by reading.
  if ((await readLimitedBytes(request, MAX_JSON_BYTES)).byteLength === 0) return {};
  throw new AppError(415, "unsupported_media_type");
}

/** A URL's query string as a plain object, for the list schemas. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/** Reads the body as text, stopping at the limit instead of buffering whatever is sent. */
export async function readLimited(request: Request, limit: number) {
  return (await readLimitedBytes(request, limit)).toString("utf8");
}

/** The body's bytes: 413 past the limit (declared or actual), without buffering the rest. */
export async function readLimitedBytes(request: Request, limit: number): Promise<Buffer> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    throw refuseBody(request, 413, "payload_too_large");
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: nobody reads the answer, but it is no server error either.
      throw new AppError(400, "body_incomplete");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      discard(reader);
      throw new AppError(413, "payload_too_large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** How much of a refused body is still read (and dropped) so the client gets to see the refusal. */
const DISCARD_BYTES = 16 * 1024 * 1024;

/**
 * The error for a body refused without being read; the body is drained in the background.
 * Closing the stream instead would reset the connection before the answer goes out, and the
 * client, still sending, would see a network error rather than the 413 or 415.
 */
export function refuseBody(request: Request, status: number, key: string) {
  if (request.body && !request.bodyUsed) discard(request.body.getReader());
  return new AppError(status, key);
}

function discard(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let left = DISCARD_BYTES;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        left -= value.byteLength;
        // Past this the client is not uploading by mistake: the connection is cut.
        if (left < 0) return void (await reader.cancel());
      }
    } catch {
      // The client went away.
    }
  })();
}

/** A form's text fields as an object (files are left out). */
export function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/** A plain form's body limit; the photo form adds the photo's own. */
export const MAX_FORM_BYTES = 1024 * 1024;

const URLENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/**
 * Reads a posted form the way every page action (and the profile API) takes it: 415 for a body
 * that is not url-encoded or multipart, 413 past the limit (read no further than that), 400 when
 * it does not parse. A post with no body at all is an empty form. Call it inside the action's
 * try, so the refusal shows as the form's message with its status.
 */
export async function readForm(request: Request, { limit = MAX_FORM_BYTES } = {}): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type === "") {
    // The server hands every POST a body stream, empty or not, so emptiness is known by reading.
    if ((await readLimitedBytes(request, limit)).byteLength === 0) return new FormData();
    throw new AppError(415, "unsupported_media_type");
  }
  if (!URLENCODED.test(type) && !MULTIPART.test(type)) throw refuseBody(request, 415, "unsupported_media_type");
  const body = await readLimitedBytes(request, limit);
  try {
    return await new Response(new Uint8Array(body), { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new AppError(400, "malformed_form");
  }
}

/**
 * Reads a form holding at most one photo (in `field`) (JPEG/PNG/WebP, checked later by content). Only the
 * photo can make such a form large, so anything over the limit is reported on the photo field.
 */
export async function readPhotoForm(request: Request, field = "photo") {
  let form: FormData;
  try {
    form = await readForm(request, { limit: MAX_PHOTO_BYTES + MAX_FORM_BYTES });
  } catch (error) {
    if (error instanceof AppError && error.status === 413) throw photoTooLarge(field);
    throw error;
  }
  const photo = form.get(field);
  if (photo instanceof Blob && photo.size > MAX_PHOTO_BYTES) throw photoTooLarge(field);
  return form;
}

function photoTooLarge(field: string) {
  return new AppError(413, "photo_too_large", { [field]: "photo_too_large" });
}

/**
 * The profile fields of a form, only those it carries (a field left out stays as it is); skills
 * may come as one comma-separated field or several. A check box is sent after a hidden field of
 * the same name, so the last value is the box's when ticked and the hidden one's otherwise.
 */
export function profileInput(form: FormData) {
  const input: Record<string, unknown> = formValues(form);
  const skills = form.getAll("skills").filter((v): v is string => typeof v === "string");
  if (skills.length > 1) input.skills = skills;
  const remote = form.getAll("remote").filter((v): v is string => typeof v === "string");
  if (remote.length > 0) input.remote = remote[remote.length - 1];
  const photo = form.get("photo");
  return { input, photo: photo instanceof Blob ? photo : null };
}

/** The file in a form's `field`, if one was chosen. */
export function fileOf(form: FormData, field: string): Blob | null {
  const file = form.get(field);
  return file instanceof Blob && file.size > 0 ? file : null;
}

/**
 * Reads a form carrying files (a contract delivery): past MAX_DELIVERY_BYTES the refusal is
 * reported on the files field, where the size comes from. Returns the text fields and the files
 * chosen (a file input left empty sends a nameless empty part, which is no file).
 */
export async function readFilesForm(request: Request, field = "files") {
  let form: FormData;
  try {
    form = await readForm(request, { limit: MAX_DELIVERY_BYTES });
  } catch (error) {
    if (error instanceof AppError && error.status === 413) {
      throw new AppError(413, "delivery_too_large", { [field]: "delivery_too_large" });
    }
    throw error;
  }
  const files = form
    .getAll(field)
    .filter((v): v is File => v instanceof Blob && !(v.size === 0 && (v as File).name === ""));
  return { values: formValues(form), files };
}

/**
 * The settings form's fields as the JSON input: every kind checked is on, every other kind off
 * (a checkbox left unchecked sends nothing); an unknown kind is kept, for the 422.
 */
export function emailSettingsFromForm(form: FormData) {
  const checked = form.getAll("kinds").filter((v): v is string => typeof v === "string");
  const kinds: Record<string, boolean> = Object.fromEntries(EMAIL_KINDS.map((k) => [k, false]));
  for (const kind of checked) kinds[kind] = true;
  const locale = form.get("locale");
  return { kinds, ...(typeof locale === "string" ? { locale: locale === "" ? null : locale } : {}) };
}
