import { z } from "zod";
import { reason } from "./admin-schemas";
import { CATEGORIES, DEFAULT_PER_PAGE, MAX_PER_PAGE } from "./market-constants";
import { intField } from "./market-schemas";
import { flagField, line, tagsField, text } from "./schemas";

// Ready-made services (docs/product.md, "Serviços prontos"): the input of the freelancer's form
// and of the API, and the one parser of the JSON columns (packages, extras, FAQ, questions) when
// a service is read back. Messages are keys of the `services` namespace.

/** The documented bounds (docs/product.md, "Serviços prontos"): lengths in characters, money in centavos. */
export const SERVICE_LIMITS = {
  title: { min: 10, max: 120 },
  description: { min: 50, max: 5000 },
  skills: 10,
  packages: { min: 1, max: 3 },
  package_name: { min: 3, max: 60 },
  package_includes: { min: 1, max: 10 },
  include_line: { min: 1, max: 120 },
  package_price_cents: { min: 1_000, max: 5_000_000 },
  delivery_days: { min: 1, max: 90 },
  revisions: { min: 0, max: 10 },
  extras: 5,
  extra_title: { min: 3, max: 80 },
  extra_price_cents: { min: 500, max: 1_000_000 },
  extra_days: { min: 0, max: 30 },
  faq: 10,
  faq_question: { min: 5, max: 200 },
  faq_answer: { min: 1, max: 1000 },
  questions: 5,
  question_text: { min: 5, max: 300 },
  choices: { min: 2, max: 10 },
  choice: { min: 1, max: 80 },
  published_per_freelancer: 20,
  images: 6,
} as const;

export const SERVICE_STATUSES = ["draft", "pending", "published", "paused", "archived"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const QUESTION_KINDS = ["text", "choice", "file"] as const;
export const SERVICE_SORTS = ["relevance", "price", "rating", "newest"] as const;

const L = SERVICE_LIMITS;
const key = (name: string) => `services:${name}`;

/** A list of at most `max` items (an array, or absent for none); one message when it is not a list or too long. */
function listOf<T extends z.ZodTypeAny>(item: T, max: number, message: string, min = 0) {
  return z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : v),
    z
      .array(item, { invalid_type_error: key(message) })
      .min(min, key(message))
      .max(max, key(message)),
  );
}

/** Lines of text: a list, or a textarea's text one per line (blank lines dropped). */
const linesOf = (v: unknown) =>
  typeof v === "string"
    ? v
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter(Boolean)
    : Array.isArray(v)
      ? v.filter((s) => !(typeof s === "string" && s.trim() === ""))
      : v;

export const packageSchema = z.object({
  name: line(key("package_name_length"), L.package_name.min, L.package_name.max),
  includes: z.preprocess(
    linesOf,
    z
      .array(line(key("package_includes_invalid"), L.include_line.min, L.include_line.max), {
        invalid_type_error: key("package_includes_invalid"),
        required_error: key("package_includes_invalid"),
      })
      .min(L.package_includes.min, key("package_includes_invalid"))
      .max(L.package_includes.max, key("package_includes_invalid")),
  ),
  price_cents: intField(key("package_price_invalid"), L.package_price_cents.min, L.package_price_cents.max),
  delivery_days: intField(key("delivery_days_invalid"), L.delivery_days.min, L.delivery_days.max),
  revisions: intField(key("revisions_invalid"), L.revisions.min, L.revisions.max),
});

export const extraSchema = z.object({
  title: line(key("extra_title_length"), L.extra_title.min, L.extra_title.max),
  price_cents: intField(key("extra_price_invalid"), L.extra_price_cents.min, L.extra_price_cents.max),
  extra_days: intField(key("extra_days_invalid"), L.extra_days.min, L.extra_days.max),
});

export const faqSchema = z.object({
  question: line(key("faq_question_length"), L.faq_question.min, L.faq_question.max),
  answer: text(key("faq_answer_length"), L.faq_answer.min, L.faq_answer.max),
});

export const questionSchema = z
  .object({
    text: line(key("question_text_length"), L.question_text.min, L.question_text.max),
    kind: z.enum(QUESTION_KINDS, { errorMap: () => ({ message: key("question_kind_invalid") }) }),
    choices: z.preprocess(
      (v) => (v === undefined || v === null ? undefined : linesOf(v)),
      z
        .array(line(key("question_choices_invalid"), L.choice.min, L.choice.max), {
          invalid_type_error: key("question_choices_invalid"),
        })
        .max(L.choices.max, key("question_choices_invalid"))
        .optional(),
    ),
    required: z.preprocess((v) => v ?? false, flagField(key("question_required_invalid"))),
  })
  // Only a choice has choices, at least two of them.
  .transform((q, ctx) => {
    if (q.kind !== "choice") return { text: q.text, kind: q.kind, required: q.required };
    if (!q.choices || q.choices.length < L.choices.min) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["choices"], message: key("question_choices_invalid") });
      return z.NEVER;
    }
    return { text: q.text, kind: q.kind, choices: [...new Set(q.choices)], required: q.required };
  });

export type ServicePackage = z.output<typeof packageSchema>;
export type ServiceExtra = z.output<typeof extraSchema>;
export type ServiceFaq = z.output<typeof faqSchema>;
export type ServiceQuestion = z.output<typeof questionSchema>;

const serviceFields = {
  title: line(key("title_length"), L.title.min, L.title.max),
  category: z.enum(CATEGORIES, { errorMap: () => ({ message: key("category_invalid") }) }),
  description: text(key("description_length"), L.description.min, L.description.max),
  skills: tagsField(L.skills, key("skills_invalid")),
  packages: listOf(packageSchema, L.packages.max, "packages_count", L.packages.min),
  extras: listOf(extraSchema, L.extras, "extras_count"),
  faq: listOf(faqSchema, L.faq, "faq_count"),
  questions: listOf(questionSchema, L.questions, "questions_count"),
};

/** A new service (a draft): every field checked in one pass. */
export const serviceInputSchema = z.object(serviceFields);
/** An update: the fields sent replace the stored ones (a list is replaced whole). */
export const servicePatchSchema = z.object(serviceFields).partial();

export type ServiceInput = z.output<typeof serviceInputSchema>;
export type ServicePatch = z.output<typeof servicePatchSchema>;

const LISTS = new Set(["packages", "extras", "faq", "questions"]);

/**
 * Every refused field at once, keyed by its path (`title`, `packages.1.price_cents`,
 * `questions.0.choices`): the first message of each, in the order the schema met them.
 */
export function serviceFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    // A field of a list's item is named by its item (`packages.1.price_cents`, `questions.0.choices`
    // for any of its choices); a plain field or list (skills) by its name.
    const [field, index, inner] = issue.path;
    const path =
      field === undefined
        ? "form"
        : LISTS.has(String(field)) && inner !== undefined
          ? `${field}.${index}.${inner}`
          : String(field);
    errors[path] ??= issue.message;
  }
  return errors;
}

/** The JSON columns as stored: the same item schemas, so what is read is what was checked. */
const storedLists = z.object({
  packages: z.array(packageSchema).min(1),
  extras: z.array(extraSchema),
  faq: z.array(faqSchema),
  questions: z.array(questionSchema),
});

export type ServiceLists = z.output<typeof storedLists>;

/** The one parser of a service's JSON columns; a row that does not hold up throws. */
export function parseServiceLists(row: { packages: string; extras: string; faq: string; questions: string }) {
  return storedLists.parse({
    packages: JSON.parse(row.packages),
    extras: JSON.parse(row.extras),
    faq: JSON.parse(row.faq),
    questions: JSON.parse(row.questions),
  });
}

const emptyToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);
const optionalInt = (message: string, min: number, max: number) =>
  z.preprocess(emptyToUndefined, intField(key(message), min, max).optional());

/** The public list's filters, sort and page (GET /api/services, /servicos). */
export const serviceQuerySchema = z
  .object({
    q: z.preprocess(
      emptyToUndefined,
      z
        .string({ invalid_type_error: key("query_invalid") })
        .trim()
        .max(200, key("query_invalid"))
        .optional(),
    ),
    category: z.preprocess(
      emptyToUndefined,
      z.enum(CATEGORIES, { errorMap: () => ({ message: key("category_invalid") }) }).optional(),
    ),
    min_price_cents: optionalInt("price_filter_invalid", 0, L.package_price_cents.max),
    max_price_cents: optionalInt("price_filter_invalid", 0, L.package_price_cents.max),
    max_days: optionalInt("days_filter_invalid", 1, L.delivery_days.max),
    min_rating: optionalInt("rating_filter_invalid", 1, 5),
    verified: z.preprocess(
      emptyToUndefined,
      z
        .enum(["1", "true"], { errorMap: () => ({ message: key("verified_filter_invalid") }) })
        .transform(() => true)
        .optional(),
    ),
    sort: z.preprocess(
      emptyToUndefined,
      z.enum(SERVICE_SORTS, { errorMap: () => ({ message: key("sort_invalid") }) }).optional(),
    ),
    page: z.preprocess(emptyToUndefined, intField(key("page_invalid"), 1, 1_000_000).default(1)),
    per_page: z.preprocess(emptyToUndefined, intField(key("page_invalid"), 1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE)),
  })
  // Unsaid, the order is relevance for a text search and newest first otherwise.
  .transform((q) => ({ ...q, sort: q.sort ?? (q.q ? ("relevance" as const) : ("newest" as const)) }));

export type ServiceQuery = z.output<typeof serviceQuerySchema>;

/** What an operator does to a service: approve a pending one, hide one (with the reason its owner reads), show it again. */
export const SERVICE_MODERATION = ["approve", "hide", "restore"] as const;

export const serviceModerationSchema = z
  .object({
    action: z.enum(SERVICE_MODERATION, { errorMap: () => ({ message: key("moderation_action_invalid") }) }),
    reason: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), reason.optional()),
  })
  .superRefine((v, ctx) => {
    if (v.action !== "approve" && v.reason === undefined) {
      ctx.addIssue({ code: "custom", path: ["reason"], message: "moderation_reason_length" });
    }
  });

/** Where an image of a service goes in its gallery (0 is the first, the catalogue card's picture). */
export const serviceImageMoveSchema = z.object({
  position: intField(key("image_position_invalid"), 0, SERVICE_LIMITS.images - 1),
});
