import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_TARGETS, USER_STATUSES } from "./admin-constants";
import { LIMITS } from "./limits";
import { intField, pageQuerySchema } from "./market-schemas";
import {
  MAX_SUSPENSION_DAYS,
  REPORT_ACTIONS,
  REPORT_AGES,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGETS,
} from "./moderation";
import { optionalText, text, typeable, UUID } from "./schemas";

// Input schemas of the operator console, shared by its pages and its JSON API (/api/admin).
// Messages are keys of the `messages` namespace. Query values come as strings; an empty one is
// left out.

export * from "./admin-constants";
export * from "./moderation";

const empty = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

export const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.preprocess(empty, z.enum(values, { errorMap: () => ({ message: key }) }).optional());

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

// ---------------------------------------------------------------------------------------------
// Reports and moderation

export const reportInputSchema = z.object({
  target_type: z.enum(REPORT_TARGETS, { errorMap: () => ({ message: "report_target_invalid" }) }),
  target_id: z
    .string({ required_error: "report_target_invalid", invalid_type_error: "report_target_invalid" })
    .trim()
    .regex(UUID, "report_target_invalid"),
  reason: z.enum(REPORT_REASONS, { errorMap: () => ({ message: "report_reason_invalid" }) }),
  details: optionalText("report_details_length", 1, LIMITS.report_details.max),
});

export const reportQueueSchema = pageQuerySchema.extend({
  type: optionalEnum(REPORT_TARGETS, "report_target_invalid"),
  status: z.preprocess(
    empty,
    z.enum(REPORT_STATUSES, { errorMap: () => ({ message: "status_invalid" }) }).default("open"),
  ),
  age: optionalEnum(REPORT_AGES, "report_age_invalid"),
  /** Only the reports about this account's content (the link from its risk signals). */
  author: optionalUuid("report_author_invalid"),
});

/** An operator's reason, told to the author and kept in the log. */
export const reason = text("moderation_reason_length", LIMITS.moderation_reason.min, LIMITS.moderation_reason.max);

/** A form's check box or a JSON boolean. */
const flag = z.preprocess(
  (v) => (v === "1" || v === "on" || v === "true" ? true : v === "0" || v === "" || v === "false" ? false : v),
  z.boolean({ invalid_type_error: "flag_invalid" }).optional(),
);

export const resolveInputSchema = z
  .object({
    action: z.enum(REPORT_ACTIONS, { errorMap: () => ({ message: "report_action_invalid" }) }),
    // Told to the author (and kept in the log); a dismissal may go without.
    reason: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), reason.optional()),
    days: intField("suspension_days_invalid", 1, MAX_SUSPENSION_DAYS).optional(),
    /** With warn, suspend or ban: hide the content too. */
    hide: flag,
  })
  .superRefine((v, ctx) => {
    if (v.action !== "dismiss" && v.reason === undefined) {
      ctx.addIssue({ code: "custom", path: ["reason"], message: "moderation_reason_length" });
    }
    if (v.action === "suspend" && v.days === undefined) {
      ctx.addIssue({ code: "custom", path: ["days"], message: "suspension_days_invalid" });
    }
  });

export const restoreInputSchema = z.object({ reason });

export const premoderationDecisionSchema = z
  .object({
    decision: z.enum(["approve", "reject"], { errorMap: () => ({ message: "premoderation_decision_invalid" }) }),
    reason: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), reason.optional()),
  })
  .superRefine((v, ctx) => {
    if (v.decision === "reject" && v.reason === undefined) {
      ctx.addIssue({ code: "custom", path: ["reason"], message: "moderation_reason_length" });
    }
  });

export const userQuerySchema = pageQuerySchema.extend({
  q: z.preprocess(
    empty,
    z
      .string({ invalid_type_error: "query_invalid" })
      .trim()
      .max(LIMITS.search.max, "query_invalid")
      .refine(typeable, "text_invalid_characters")
      .optional(),
  ),
  role: optionalEnum(["merchant", "freelancer", "operator"] as const, "account_type_invalid"),
  status: optionalEnum(USER_STATUSES, "status_invalid"),
});

/** The daily series of the marketplace's metrics (the operator's overview). */
export const METRIC_SERIES = ["signups", "opportunities", "applications", "hires", "completed"] as const;
export type MetricSeries = (typeof METRIC_SERIES)[number];

/** The metrics' period: the last 30 or 90 days (30 when left out). */
export const METRIC_PERIODS = ["30", "90"] as const;
export const metricsQuerySchema = z.object({
  days: z.preprocess(
    empty,
    z.enum(METRIC_PERIODS, { errorMap: () => ({ message: "metrics_days_invalid" }) }).default("30"),
  ),
});
