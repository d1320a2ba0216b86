import { json } from "@remix-run/node";
import { readLimitedBytes, refuseBody } from "./api.server";
import { AppError, describeError } from "~/services/platform/errors.server";
import { getRequestT } from "./i18n.server";
import { MAX_PHOTO_BYTES } from "~/services/platform/uploads.server";

/** A delivery's body: its files (10 MB each, checked one by one later) and text, 50 MB in all. */
export const MAX_DELIVERY_BYTES = 50 * 1024 * 1024;

/** A form's text fields as an object (files are left out). */
export function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/**
 * Pages: a refusal becomes action data with the translated messages and what the user typed
 * (passwords excepted), so the form re-renders with nothing lost.
 */
export async function formError(request: Request, error: unknown, values: Record<string, string>) {
  if (!(error instanceof AppError)) throw error;
  const { t } = await getRequestT(request);
  const { password: _password, ...kept } = values;
  return json({ ...describeError(error, t), values: kept }, { status: error.status, headers: error.headers });
}

export type FormErrorData = {
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

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
