import {
  MaxPartSizeExceededError,
  json,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { AppError, describeError } from "./errors.server";
import { getRequestT } from "./i18n.server";
import { MAX_PHOTO_BYTES } from "./uploads.server";

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
  return json(
    { ...describeError(error, t), values: kept },
    { status: error.status, headers: error.headers },
  );
}

export type FormErrorData = {
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

/**
 * Reads a multipart (or url-encoded) form holding at most one photo. The photo part is
 * cut off at its limit, so an oversized upload is refused without being buffered whole.
 */
export async function readPhotoForm(request: Request) {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) return request.formData();
  if (!type.startsWith("multipart/form-data")) throw new AppError(415, "unsupported_media_type");
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_PHOTO_BYTES }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      throw new AppError(413, "photo_too_large", { photo: "photo_too_large" });
    }
    throw new AppError(400, "malformed_form");
  }
}

/** The profile fields of a form; skills may come as one comma-separated field or several. */
export function profileInput(form: FormData) {
  const skills = form.getAll("skills").filter((v): v is string => typeof v === "string");
  const photo = form.get("photo");
  return {
    input: { ...formValues(form), skills: skills.length > 1 ? skills : skills[0] ?? "" },
    photo: photo instanceof Blob ? photo : null,
  };
}
