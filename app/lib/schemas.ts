import { isValidCnpj } from "@brazilian-utils/brazilian-utils";
import { LIMITS } from "~/lib/limits";
import { z } from "zod";
import { withLengths } from "./form-fields";

/** A record's id as the routes and the API take it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Messages are keys of the `messages` namespace; the door that answers translates them.

const byteLength = (s: string) => new TextEncoder().encode(s).length;

/**
 * Control characters (C0 and C1; tab and line breaks aside) and lone surrogates: nothing a person
 * types, and a lone surrogate cannot even be stored as UTF-8, so it would not come back as it was sent.
 */
const UNTYPEABLE =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const typeable = (s: string) => !UNTYPEABLE.test(s);

/** Invisible format characters: zero-width spaces and joiners, word joiners, BOMs, bidi marks. */
const INVISIBLE = /\p{Cf}/gu;

/** Characters a reader sees: the text without format characters and surrounding spaces. */
export const visibleLength = (s: string) => s.replace(INVISIBLE, "").trim().length;

/**
 * A text field: trimmed, with one message for a wrong-typed or out-of-bounds value, and
 * `requiredKey` (when given) for one left out or empty, so a required field says so. The
 * minimum counts visible characters, so a title of zero-width spaces is too short; the text is
 * kept as sent (a joiner inside an emoji stays).
 */
export function text(key: string, min: number, max: number, requiredKey = key) {
  const schema = z
    .string({ required_error: requiredKey, invalid_type_error: key })
    .trim()
    .superRefine((s, ctx) => {
      const visible = visibleLength(s);
      const message =
        visible === 0 && min > 0
          ? requiredKey
          : s.length < min || s.length > max || visible < min
            ? key
            : typeable(s)
              ? null
              : "text_invalid_characters";
      if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
    });
  return withLengths(schema, min, max);
}

/** An optional text field: empty means absent. */
export function optionalText(key: string, min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
    text(key, min, max).optional(),
  );
}

/** Line breaks, Unicode's line and paragraph separators included (tab and the rest: `typeable`). */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/** Text on one line: no line breaks. */
export const oneLine = (s: string) => !LINE_BREAK.test(s);

/**
 * A one-line text field (a name, a title): `text` without line breaks. These fields reach other
 * people's e-mails, subjects included, as they are: a name with line breaks could write a
 * paragraph of its own there. Page forms use one-line inputs; an API client gets the message.
 */
export function line(key: string, min: number, max: number, requiredKey = key) {
  return text(key, min, max, requiredKey).refine(oneLine, "text_line_break");
}

/** An optional one-line text field: empty means absent. */
export function optionalLine(key: string, min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
    line(key, min, max).optional(),
  );
}

type Shape = z.ZodRawShape;
type Output<S extends Shape> = z.output<z.ZodObject<S>>;

/**
 * Checks every field of an object schema on its own: the values of the fields that passed (a
 * rule across fields can use them even when another field failed) and the first message of
 * each field that did not.
 */
export function checkFields<S extends Shape>(object: z.ZodObject<S>, input: unknown) {
  const parsed = object.safeParse(input);
  if (parsed.success) return { data: parsed.data, values: parsed.data as Partial<Output<S>>, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  const record = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const values: Partial<Output<S>> = {};
  for (const [field, schema] of Object.entries(object.shape)) {
    if (errors[field]) continue;
    const one = (schema as z.ZodTypeAny).safeParse(record[field]);
    if (one.success) values[field as keyof Output<S>] = one.data;
  }
  return { data: null, values, errors };
}

/** Field errors in the order of the object's fields (the form's order), others last. */
export function inFieldOrder(object: z.AnyZodObject, errors: Record<string, string>): Record<string, string> {
  const fields = Object.keys(object.shape);
  const rank = (field: string) => (fields.includes(field) ? fields.indexOf(field) : fields.length);
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * An object schema whose rules across fields (max ≥ min, a city unless remote…) run in the same
 * pass as the fields' own checks, on the fields that passed them: a form reports every problem at
 * once instead of in rounds. A field keeps its own message over a rule's.
 */
export function withRules<S extends Shape>(
  object: z.ZodObject<S>,
  rules: (values: Partial<Output<S>>) => Record<string, string>,
) {
  const checked = z.unknown().transform((input, ctx): Output<S> => {
    const { data, values, errors } = checkFields(object, input);
    const all = inFieldOrder(object, { ...rules(values), ...errors });
    for (const [field, message] of Object.entries(all)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: field === "form" ? [] : [field], message });
    }
    return data !== null && Object.keys(all).length === 0 ? data : z.NEVER;
  });
  // Its fields, for the form that posts them (formFields).
  return Object.assign(checked, { fields: object });
}

/**
 * The domain of the addresses given to deleted accounts (`excluida-<id>@conta-excluida.invalid`).
 * RFC 2606's `.invalid` never delivers, so no one can own an address there: the whole top-level
 * domain is refused wherever an address is given (registration, e-mail change, operators), and an
 * anonymised address (it carries the account's id) is unique by construction.
 */
export const DELETED_EMAIL_DOMAIN = "conta-excluida.invalid";

export const emailField = z
  .string({ required_error: "email_required", invalid_type_error: "email_invalid" })
  .trim()
  .min(1, "email_required")
  .max(254, "email_too_long")
  .email("email_invalid")
  .transform((s) => s.toLowerCase())
  .refine((s) => !/\.invalid\.?$/.test(s), "email_reserved");

export const newPasswordField = z
  .string({ required_error: "password_required", invalid_type_error: "password_length" })
  .refine((s) => byteLength(s) >= LIMITS.password.min && byteLength(s) <= LIMITS.password.max, "password_length");

/** Tags from an array or a comma-separated string: trimmed, de-duplicated. */
export function tagsField(maxTags: number, key: string) {
  return z.preprocess(
    (v) => {
      const list = typeof v === "string" ? v.split(",") : (v ?? []);
      if (!Array.isArray(list)) return list;
      const tags = list.map((s) => (typeof s === "string" ? s.trim() : s)).filter((s) => s !== "");
      return [...new Set(tags)];
    },
    z
      .array(
        z
          .string({ invalid_type_error: key })
          .min(LIMITS.skill.min, key)
          .max(LIMITS.skill.max, key)
          .refine((s) => typeable(s) && oneLine(s), key),
        {
          invalid_type_error: key,
        },
      )
      .max(maxTags, key),
  );
}

export const accountTypes = ["merchant", "freelancer"] as const;

export const registerSchema = z.object({
  full_name: line("full_name_length", LIMITS.full_name.min, LIMITS.full_name.max),
  display_name: optionalLine("display_name_length", 2, 60),
  email: emailField,
  password: newPasswordField,
  account_type: z.enum(accountTypes, { errorMap: () => ({ message: "account_type_invalid" }) }),
});

export const loginSchema = z.object({
  email: z
    .string({ required_error: "email_required", invalid_type_error: "email_invalid" })
    .trim()
    .min(1, "email_required")
    .max(254, "email_invalid")
    // No account has such an address; PostgreSQL could not even be asked about one with a NUL.
    .refine(typeable, "email_invalid")
    .transform((s) => s.toLowerCase()),
  password: z
    .string({ required_error: "password_required", invalid_type_error: "password_required" })
    .min(1, "password_required")
    .max(1024, "password_length"),
});

/** A yes/no form or JSON value: true/false, "1"/"0", "true"/"false", "on" (a checked box). */
export function flagField(key: string) {
  return z.preprocess(
    (v) =>
      typeof v === "string"
        ? (({ "1": true, true: true, on: true, "0": false, false: false } as Record<string, boolean>)[v.trim()] ?? v)
        : v,
    z.boolean({ invalid_type_error: key, required_error: key }),
  );
}

/**
 * A profile update: every field is optional and a field left out stays as it is (an API client
 * may send only the bio, or only a photo). A field sent empty clears it (the page form always
 * sends every field); only the full name, which an account cannot be without, refuses that.
 */
export const profileSchema = z.object({
  full_name: line("full_name_length", LIMITS.full_name.min, LIMITS.full_name.max).optional(),
  display_name: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    line("display_name_length", LIMITS.display_name.min, LIMITS.display_name.max).nullable().optional(),
  ),
  bio: z.preprocess(
    (v) => (v === null ? "" : v),
    z
      .string({ invalid_type_error: "bio_length" })
      .trim()
      .max(LIMITS.bio.max, "bio_length")
      .refine(typeable, "text_invalid_characters")
      .optional(),
  ),
  skills: z.preprocess((v) => (v === null ? [] : v), tagsField(15, "skills_invalid").optional()),
  city: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    line("city_length", LIMITS.city.min, LIMITS.city.max).nullable().optional(),
  ),
  remote: flagField("remote_invalid").optional(),
  /** Freelancers: the profile on the public page and the sitemap (true) or not. */
  public_profile: flagField("public_profile_invalid").optional(),
  /** Merchants: their company's name (public) and CNPJ (on their contracts' receipts), both optional. */
  company_name: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    line("company_name_length", LIMITS.company_name.min, LIMITS.company_name.max).nullable().optional(),
  ),
  company_cnpj: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string({ invalid_type_error: "company_cnpj_invalid" })
      .transform((v) => v.replace(/[\s./-]/g, ""))
      .refine((v) => /^\d{14}$/.test(v) && isValidCnpj(v), "company_cnpj_invalid")
      .nullable()
      .optional(),
  ),
});

export const MAX_PORTFOLIO_ITEMS = 20;

/** Bidirectional overrides, embeddings and isolates: in an address they disguise where it goes. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/**
 * A web address to show as a link: http or https only (no javascript:, data: or file:), with no
 * control characters (the URL parser would quietly drop or escape them) nor bidi controls.
 */
const webLink = z
  .string({ invalid_type_error: "portfolio_link_invalid" })
  .trim()
  .max(LIMITS.portfolio_link.max, "portfolio_link_invalid")
  .refine((s) => typeable(s) && !BIDI_CONTROLS.test(s), "portfolio_link_invalid")
  .refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
    } catch {
      return false;
    }
  }, "portfolio_link_invalid");

/** A portfolio item; for an edit every field is optional (left out: unchanged; link sent empty: removed). */
export const portfolioItemSchema = z.object({
  title: line("portfolio_title_length", LIMITS.portfolio_title.min, LIMITS.portfolio_title.max),
  description: text("portfolio_description_length", LIMITS.portfolio_description.min, LIMITS.portfolio_description.max),
  link: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), webLink.nullable().optional()),
  remove_image: flagField("remove_image_invalid").optional(),
});
export const portfolioPatchSchema = portfolioItemSchema.partial();

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z.object({
  token: z.string({ required_error: "reset_invalid" }).min(1, "reset_invalid").max(200, "reset_invalid"),
  password: newPasswordField,
});
