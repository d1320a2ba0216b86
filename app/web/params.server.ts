import type { Params } from "@remix-run/react";
import { AppError } from "~/services/platform/errors.server";
import { UUID } from "~/services/platform/records.server";
import { loaderRefusal } from "./errors.server";

/**
 * The one way to read an id from a path, for the API and pages alike: ids are uuids as this app
 * makes them, and anything else (empty, too long, NUL or other control characters, non-ASCII)
 * names nothing: 404 with the message `key`, before any query (PostgreSQL refuses a NUL in text
 * with an error).
 */
export function idParam(params: Params, name: string, key = "not_found"): string {
  const id = params[name];
  if (!id || !UUID.test(id)) throw new AppError(404, key);
  return id;
}

/** Several ids at once: `{ id: "not_found", file: "not_found" }` → `{ id, file }`. */
export function idParams(params: Params, keys: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, idParam(params, name, key)]));
}

/** Pages: the same check; a bad id is the page's 404. */
export function pageId(params: Params, name: string, key = "not_found"): string {
  try {
    return idParam(params, name, key);
  } catch (error) {
    throw loaderRefusal(error);
  }
}
