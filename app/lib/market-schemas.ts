import { LIMITS } from "~/lib/limits";
import { z } from "zod";
import {
  APPLICATION_STATUSES,
  CONTRACT_STATUSES,
  BUDGET_TYPES,
  CATEGORIES,
  LOCATION_TYPES,
  MAX_CENTS,
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  OPPORTUNITY_STATUSES,
  SORTS,
  TIME_ZONE,
  type LocationType,
} from "./market-constants";
import { line, optionalLine, optionalText, tagsField, text, UUID, withRules } from "./schemas";

// Marketplace input schemas, shared by the page actions and the JSON API. Messages are keys
// of the `messages` namespace. Inputs may be JSON values or form strings: numbers written as
// digits are accepted as numbers, and an empty form field counts as absent.

export * from "./market-constants";

const emptyToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

/** Digits in a string become a number, so forms and JSON share one schema. */
const toNumber = (v: unknown) => {
  const value = emptyToUndefined(v);
  return typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
};

/** An integer within bounds; one message for missing, wrong-typed or out-of-bounds values. */
export function intField(key: string, min: number, max: number) {
  return z.preprocess(
    toNumber,
    z.number({ required_error: key, invalid_type_error: key }).int(key).min(min, key).max(max, key),
  );
}

function enumField<T extends readonly [string, ...string[]]>(values: T, key: string) {
  return z.preprocess(emptyToUndefined, z.enum(values, { errorMap: () => ({ message: key }) }));
}

// Building a formatter is costly (it loads time-zone data); one is enough.
const saoPauloDate = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE });

/** Today's date (YYYY-MM-DD) in São Paulo, where the product's users live. */
export function todayInSaoPaulo(now = new Date()) {
  return saoPauloDate.format(now);
}

function isRealDate(value: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A deadline from today up to two years ahead; null (or empty) means none. */
const deadlineField = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v),
  z
    .string({ invalid_type_error: "deadline_invalid" })
    .refine(isRealDate, "deadline_invalid")
    .refine((value) => {
      const today = todayInSaoPaulo();
      const limit = `${Number(today.slice(0, 4)) + 2}${today.slice(4)}`;
      return value >= today && value <= limit;
    }, "deadline_range")
    .nullable(),
);

const opportunityFields = z.object({
  title: line("title_length", LIMITS.title.min, LIMITS.title.max),
  description: text("description_length", LIMITS.description.min, LIMITS.description.max),
  category: enumField(CATEGORIES, "category_invalid"),
  skills: tagsField(10, "opportunity_skills_invalid"),
  budget_type: enumField(BUDGET_TYPES, "budget_type_invalid"),
  budget_min_cents: intField("budget_min_invalid", 1, MAX_CENTS),
  budget_max_cents: intField("budget_max_invalid", 1, MAX_CENTS),
  deadline: deadlineField.optional(),
  location_type: enumField(LOCATION_TYPES, "location_type_invalid"),
  city: optionalLine("city_length", 2, 80),
  vacancies: z.preprocess(
    toNumber,
    z
      .number({ invalid_type_error: "vacancies_invalid" })
      .int("vacancies_invalid")
      .min(1, "vacancies_invalid")
      .max(20, "vacancies_invalid")
      .default(1),
  ),
});

type RuleValues = {
  budget_min_cents?: number;
  budget_max_cents?: number;
  location_type?: LocationType;
  city?: string | null;
};

/** Rules across fields, checked on creation and again on the merged result of an update. */
export function opportunityRuleErrors(values: RuleValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (
    values.budget_min_cents !== undefined &&
    values.budget_max_cents !== undefined &&
    values.budget_min_cents > values.budget_max_cents
  ) {
    errors.budget_max_cents = "budget_range";
  }
  if (values.location_type && values.location_type !== "remote" && !values.city) {
    errors.city = "city_required";
  }
  return errors;
}

/** A new opportunity: its fields and the rules across them, all reported in one pass. */
export const opportunityInputSchema = withRules(opportunityFields, opportunityRuleErrors);

/**
 * A partial update: absent fields stay as they are; the rules across fields run on the merge
 * with the stored opportunity (updateOpportunity), together with these fields' own checks.
 */
export const opportunityPatchSchema = opportunityFields.partial();

export type OpportunityInput = z.output<typeof opportunityInputSchema>;
export type OpportunityPatch = z.output<typeof opportunityPatchSchema>;

const pageFields = {
  page: z.preprocess(
    toNumber,
    z
      .number({ invalid_type_error: "page_invalid" })
      .int("page_invalid")
      .min(1, "page_invalid")
      .max(1_000_000, "page_invalid")
      .default(1),
  ),
  per_page: z.preprocess(
    toNumber,
    z
      .number({ invalid_type_error: "per_page_invalid" })
      .int("per_page_invalid")
      .min(1, "per_page_invalid")
      .max(MAX_PER_PAGE, "per_page_invalid")
      .default(DEFAULT_PER_PAGE),
  ),
};

/** `page` and `per_page` of any list. */
export const pageQuerySchema = z.object(pageFields);

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.preprocess(emptyToUndefined, z.enum(values, { errorMap: () => ({ message: key }) }).optional());

const optionalCents = (key: string) =>
  z.preprocess(toNumber, z.number({ invalid_type_error: key }).int(key).min(0, key).max(MAX_CENTS, key).optional());

/** The filters of the opportunity list: what a saved search keeps (docs/product.md). */
export const opportunityFilterShape = {
  q: z.preprocess(
    emptyToUndefined,
    z.string({ invalid_type_error: "query_type" }).trim().max(LIMITS.search.max, "query_invalid").optional(),
  ),
  category: optionalEnum(CATEGORIES, "category_invalid"),
  budget_type: optionalEnum(BUDGET_TYPES, "budget_type_invalid"),
  budget_min_cents: optionalCents("budget_filter_invalid"),
  budget_max_cents: optionalCents("budget_filter_invalid"),
  location_type: optionalEnum(LOCATION_TYPES, "location_type_invalid"),
};

/** List filters from a plain object of strings (a URL's search params). */
export const opportunityQuerySchema = z
  .object({
    ...opportunityFilterShape,
    status: optionalEnum(OPPORTUNITY_STATUSES, "status_invalid"),
    mine: z.preprocess(
      emptyToUndefined,
      z
        .enum(["1", "0", "true", "false"], { errorMap: () => ({ message: "mine_invalid" }) })
        .transform((v) => v === "1" || v === "true")
        .optional(),
    ),
    sort: z.preprocess(emptyToUndefined, z.enum(SORTS, { errorMap: () => ({ message: "sort_invalid" }) }).optional()),
    ...pageFields,
  })
  // Unsaid, the order is relevance for a text search and newest first otherwise.
  .transform((q) => ({ ...q, sort: q.sort ?? (q.q ? ("relevance" as const) : ("newest" as const)) }));

export type OpportunityQuery = z.output<typeof opportunityQuerySchema>;

/** A saved search's filters: the list's own, no other field (docs/product.md, "Buscas salvas"). */
export const savedSearchFiltersSchema = z
  .object(opportunityFilterShape, { invalid_type_error: "saved_search_filters_invalid" })
  .strict("saved_search_unknown_filter");

export type SavedSearchFilters = z.output<typeof savedSearchFiltersSchema>;

/** How often a saved search's new matches are e-mailed ('off': never). */
export const SAVED_SEARCH_FREQUENCIES = ["immediate", "daily", "weekly", "off"] as const;

/** An hourly proposal's weekly cap, in whole hours (its price_cents is then the rate per hour). */
export const MAX_WEEKLY_CAP_HOURS = 60;
export const weeklyCapField = z.preprocess(
  toNumber,
  z
    .number({ invalid_type_error: "weekly_cap_invalid" })
    .int("weekly_cap_invalid")
    .min(1, "weekly_cap_invalid")
    .max(MAX_WEEKLY_CAP_HOURS, "weekly_cap_invalid")
    .optional(),
);

/** A monthly proposal's "what a month includes": with it the proposal is monthly (price_cents per month). */
const monthIncludesField = optionalText("month_includes_length", LIMITS.month_includes.min, LIMITS.month_includes.max);

/** A new monthly amount proposed on a monthly contract (its bounds are a proposal's price's). */
export const monthlyAmountInputSchema = z.object({
  amount_cents: intField("price_invalid", 1, MAX_CENTS),
});

export const applyInputSchema = z.object({
  cover_letter: text("cover_letter_length", LIMITS.cover_letter.min, LIMITS.cover_letter.max),
  price_cents: intField("price_invalid", 1, MAX_CENTS),
  delivery_days: intField("delivery_days_invalid", 1, 365),
  weekly_cap_hours: weeklyCapField,
  month_includes: monthIncludesField,
});

export const offerInputSchema = z.object({
  price_cents: intField("price_invalid", 1, MAX_CENTS),
  delivery_days: intField("delivery_days_invalid", 1, 365),
  weekly_cap_hours: weeklyCapField,
  month_includes: monthIncludesField,
  message: optionalText("offer_message_length", LIMITS.offer_message.min, LIMITS.offer_message.max),
});

export const acceptInputSchema = z.object({
  offer_id: z
    .string({ required_error: "offer_id_required", invalid_type_error: "offer_id_required" })
    .trim()
    .min(1, "offer_id_required")
    .max(100, "offer_id_required"),
});

export const rejectInputSchema = z.object({
  message: optionalText("reject_message_length", LIMITS.reject_message.min, LIMITS.reject_message.max),
});

/** A merchant invites a freelancer to one of their open opportunities. */
export const inviteInputSchema = z.object({
  freelancer_id: z
    .string({ required_error: "invite_freelancer_invalid", invalid_type_error: "invite_freelancer_invalid" })
    .regex(UUID, "invite_freelancer_invalid"),
  message: text(
    "invite_message_length",
    LIMITS.invite_message.min,
    LIMITS.invite_message.max,
    "invite_message_required",
  ),
});

export const applicationListQuerySchema = z.object({
  status: optionalEnum(APPLICATION_STATUSES, "status_invalid"),
  ...pageFields,
});

/** How a merchant may order the applications to an opportunity, to compare the candidates. */
export const APPLICATION_SORTS = ["recent", "price", "days", "rating", "contracts"] as const;
export type ApplicationSort = (typeof APPLICATION_SORTS)[number];

export const opportunityApplicationsQuerySchema = applicationListQuerySchema.extend({
  sort: optionalEnum(APPLICATION_SORTS, "sort_invalid"),
});

/** The inbox's filter: every conversation, or those with unread messages. */
export const INBOX_FILTERS = ["all", "unread"] as const;
export const inboxQuerySchema = z.object({
  filter: z.preprocess(
    emptyToUndefined,
    z.enum(INBOX_FILTERS, { errorMap: () => ({ message: "inbox_filter_invalid" }) }).default("all"),
  ),
  ...pageFields,
});

export const notificationListQuerySchema = z.object({
  unread: z.preprocess(
    emptyToUndefined,
    z
      .enum(["1", "0", "true", "false"], { errorMap: () => ({ message: "unread_invalid" }) })
      .transform((v) => v === "1" || v === "true")
      .optional(),
  ),
  ...pageFields,
});

export const markReadInputSchema = z.object({
  ids: z
    .array(z.string({ invalid_type_error: "notification_ids_invalid" }).uuid("notification_ids_invalid"), {
      invalid_type_error: "notification_ids_invalid",
    })
    .max(500, "notification_ids_invalid")
    .optional(),
});

export const contractListQuerySchema = z.object({
  status: optionalEnum(CONTRACT_STATUSES, "status_invalid"),
  ...pageFields,
});

export const deliveryInputSchema = z.object({
  message: text(
    "delivery_message_length",
    LIMITS.delivery_message.min,
    LIMITS.delivery_message.max,
    "delivery_message_required",
  ),
});

export const changeRequestInputSchema = z.object({
  message: text(
    "change_request_message_length",
    LIMITS.change_request_message.min,
    LIMITS.change_request_message.max,
    "change_request_message_required",
  ),
});

export const cancelInputSchema = z.object({
  reason: text("cancel_reason_length", LIMITS.cancel_reason.min, LIMITS.cancel_reason.max, "cancel_reason_required"),
});

export const messageInputSchema = z.object({
  body: text("message_body_length", LIMITS.message_body.min, LIMITS.message_body.max, "message_body_required"),
});

export type ApplyInput = z.output<typeof applyInputSchema>;
export type OfferInput = z.output<typeof offerInputSchema>;
