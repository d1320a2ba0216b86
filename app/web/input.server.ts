import { typeable } from "~/lib/schemas";
import { AppError } from "~/services/platform/errors.server";

// The edge's one rule for text: whatever arrives in a body (JSON, url-encoded, multipart) or a
// query string is refused here, before any service or database sees it, when it holds control
// characters (tab and line breaks aside) or lone surrogates. Nobody types them; PostgreSQL cannot
// even store a NUL, and SQLite would keep what PostgreSQL refuses, so the two engines would
// answer differently. Ids in paths are checked by format (a UUID, a generated file name) by the
// services, which keeps NUL, overlong and foreign ids away from the database on both engines.

/** The first string in `value` (itself, or inside an array or object) that is not typeable. */
function untypeableIn(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return !typeable(value);
  if (depth > 32 || value === null || typeof value !== "object") return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.some((item) => untypeableIn(item, depth + 1));
}

/** The fields of `values` holding text nobody types, each with its message key. */
export function untypeableFields(values: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, value] of Object.entries(values))
    if (untypeableIn(value)) errors[field] = "text_invalid_characters";
  return errors;
}

/** A 422 naming every field with control characters or lone surrogates; nothing otherwise. */
export function refuseUntypeable(values: Record<string, unknown>) {
  const errors = untypeableFields(values);
  if (Object.keys(errors).length > 0) throw new AppError(422, "validation_failed", errors);
}

/** A form's text entries (files aside) checked the same way; repeated fields too. */
export function refuseUntypeableForm(form: FormData) {
  const values: Record<string, string[]> = {};
  for (const [key, value] of form) if (typeof value === "string") (values[key] ??= []).push(value);
  refuseUntypeable(values);
}
