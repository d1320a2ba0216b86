import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "./admin-constants";
import { pageQuerySchema } from "./market-schemas";
import { typeable } from "./schemas";

// Input schemas of the operator console, shared by its pages and its JSON API (/api/admin).
// Messages are keys of the `messages` namespace. Query values come as strings; an empty one is
// left out.

export * from "./admin-constants";

const empty = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

export const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.preprocess(empty, z.enum(values, { errorMap: () => ({ message: key }) }).optional());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const optionalUuid = (key: string) =>
  z.preprocess(empty, z.string({ invalid_type_error: key }).trim().regex(UUID, key).optional());

function isRealDate(value: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar day, YYYY-MM-DD. */
export const optionalDate = (key: string) =>
  z.preprocess(empty, z.string({ invalid_type_error: key }).trim().refine(isRealDate, key).optional());

/** An id of something in the log: text as the app makes ids (uuids, opportunity uuids, setting names). */
const targetId = z.preprocess(
  empty,
  z
    .string({ invalid_type_error: "audit_target_invalid" })
    .trim()
    .max(100, "audit_target_invalid")
    .regex(/^[\w.-]+$/, "audit_target_invalid")
    .refine(typeable, "audit_target_invalid")
    .optional(),
);

export const auditQuerySchema = pageQuerySchema.extend({
  action: optionalEnum(AUDIT_ACTIONS, "audit_action_invalid"),
  actor: z.preprocess(
    empty,
    z
      .string({ invalid_type_error: "audit_actor_invalid" })
      .trim()
      .refine((v) => v === "cli" || UUID.test(v), "audit_actor_invalid")
      .optional(),
  ),
  target_type: optionalEnum(AUDIT_TARGETS, "audit_target_invalid"),
  target_id: targetId,
  from: optionalDate("date_invalid"),
  to: optionalDate("date_invalid"),
});
