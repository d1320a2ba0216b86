import { sql, type SelectQueryBuilder } from "kysely";
import { AppError } from "./errors.server";

// Small pieces shared by the marketplace services.

export type PageMeta = {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  /** Present (true) when more rows match than were counted: `total` is then a lower bound. */
  total_capped?: true;
};

export function pageMeta(page: number, perPage: number, total: number, capped = false): PageMeta {
  return {
    page,
    per_page: perPage,
    total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    ...(capped ? { total_capped: true as const } : {}),
  };
}

export function offsetOf(page: number, perPage: number) {
  return (page - 1) * perPage;
}

/**
 * `limit` rows from `offset`, newest first; rows made at the same time by id, so that pages
 * neither repeat nor skip one. For `.$call(newestFirst(…))` on a table with `created_at` and `id`.
 */
export const newestFirst =
  (limit: number, offset = 0) =>
  <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>) =>
    qb.orderBy(sql.ref("created_at"), "desc").orderBy(sql.ref("id"), "desc").limit(limit).offset(offset);

export const now = () => new Date().toISOString();

/** An id as this app makes them (randomUUID: lowercase). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Ids in paths are uuids, as this app makes them: anything else names nothing (404, with the
 * message `key`) and is never sent to the database (PostgreSQL refuses a NUL character in text
 * with an error).
 */
export function assertId(id: string, key = "not_found") {
  if (!UUID.test(id)) throw new AppError(404, key);
}
