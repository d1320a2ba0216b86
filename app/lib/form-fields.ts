import { z } from "zod";

// A form's fields read from the zod schema its service parses: names, whether each is required,
// its limits and its error, so a page neither repeats a limit nor types a field's name as a string
// (a renamed field fails to compile). Runs on both sides, like the schemas.

/** What a page gives a field (`<Field {...f.title} label=… />`). */
export type FormField<K extends string = string> = {
  name: K;
  /** What the user typed before a refusal, else the saved value. */
  defaultValue?: string;
  error?: string;
  required?: true;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
};

/** A form's refusal as the action hands it back (FormErrorData, without importing server code). */
type Refusal = { errors?: Record<string, string>; values?: Record<string, string> } | null | undefined;

/** A value as a record holds it: shown in its field as text (a list comma-separated). */
type Saved = string | number | boolean | null | undefined | readonly string[];

/** An object schema, refined (superRefine), or with rules across its fields (withRules, which carries its fields). */
export type FieldsSchema<S extends z.ZodRawShape = z.ZodRawShape> =
  z.ZodObject<S> | z.ZodEffects<z.ZodObject<S>> | { fields: z.ZodObject<S> };

type ShapeOf<T> = T extends { fields: { shape: infer S } }
  ? S
  : T extends { shape: infer S }
    ? S
    : T extends z.ZodEffects<infer O>
      ? ShapeOf<O>
      : never;

export type FormFields<T extends FieldsSchema> = { [K in keyof ShapeOf<T> & string]: FormField<K> };

// Lengths checked by a refinement (text(), which counts visible characters) are not in zod's own
// checks: the schema that checks them says so here.
const lengths = new WeakMap<z.ZodTypeAny, { min: number; max: number }>();

/** Marks `schema` as holding text of `min`..`max` characters, for its form field. */
export function withLengths<T extends z.ZodTypeAny>(schema: T, min: number, max: number): T {
  lengths.set(schema, { min, max });
  return schema;
}

/** The schemas a field's schema wraps (preprocess, refinements, optional, default…), outermost first. */
function layers(schema: z.ZodTypeAny): z.ZodTypeAny[] {
  const def = schema._def as { schema?: z.ZodTypeAny; innerType?: z.ZodTypeAny; in?: z.ZodTypeAny; type?: unknown };
  const inner =
    def.schema ?? def.innerType ?? def.in ?? (schema instanceof z.ZodBranded ? (def.type as z.ZodTypeAny) : null);
  return inner ? [schema, ...layers(inner)] : [schema];
}

/** The HTML limits a field's schema holds: length for text, bounds for numbers. */
function limitsOf(schema: z.ZodTypeAny): Omit<FormField, "name" | "defaultValue" | "error" | "required"> {
  for (const layer of layers(schema)) {
    const marked = lengths.get(layer);
    if (marked) return { ...(marked.min > 1 ? { minLength: marked.min } : {}), maxLength: marked.max };
    if (layer instanceof z.ZodString) {
      const limits: Omit<FormField, "name"> = {};
      for (const check of layer._def.checks) {
        if (check.kind === "max") limits.maxLength = check.value;
        if (check.kind === "min" && check.value > 1) limits.minLength = check.value;
      }
      return limits;
    }
    if (layer instanceof z.ZodNumber) {
      const limits: Omit<FormField, "name"> = {};
      for (const check of layer._def.checks) {
        if (check.kind === "min") limits.min = check.value;
        if (check.kind === "max") limits.max = check.value;
      }
      return limits;
    }
  }
  return {};
}

const asText = (value: Saved) =>
  value === null || value === undefined ? undefined : Array.isArray(value) ? value.join(", ") : String(value);

/**
 * The fields of a form from the schema its service parses: `f.title` is the title's name, its
 * limits, whether it is required (the schema refuses it absent), what the user typed before a
 * refusal (else `saved`'s value, empty when it has none) and its error. `f.titel` does not compile.
 */
export function formFields<T extends FieldsSchema>(
  schema: T,
  refusal?: Refusal,
  saved?: { [K in keyof ShapeOf<T>]?: Saved } | null,
): FormFields<T> {
  const object: z.AnyZodObject =
    "fields" in schema ? schema.fields : schema instanceof z.ZodEffects ? schema.innerType() : schema;
  const fields: Record<string, FormField> = {};
  for (const [name, field] of Object.entries(object.shape as z.ZodRawShape)) {
    const typed = refusal?.values?.[name];
    fields[name] = {
      name,
      defaultValue: typed ?? (saved ? (asText(saved[name as keyof ShapeOf<T>] as Saved) ?? "") : undefined),
      error: refusal?.errors?.[name],
      ...(field.safeParse(undefined).success ? {} : { required: true as const }),
      ...limitsOf(field),
    };
  }
  return fields as FormFields<T>;
}
