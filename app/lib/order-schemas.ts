import { z } from "zod";
import { intField } from "./market-schemas";
import { SERVICE_LIMITS } from "./service-schemas";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): what the confirmation
// page and the API send. Messages are keys of the `services` namespace. The answers are checked
// against the service's own questions in the service (orders.server.ts).

const key = (name: string) => `services:${name}`;
const L = SERVICE_LIMITS;

/** The longest answer to a text question. */
export const ANSWER_MAX = 2_000;

/** Extras as a list of indexes: a JSON array, repeated form fields, or "0,2" (a link's query). */
const extrasList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return [];
    if (typeof v === "string") return v.split(",").filter((s) => s.trim() !== "");
    return v;
  },
  z
    .array(intField(key("order_extras_invalid"), 0, L.extras - 1), { invalid_type_error: key("order_extras_invalid") })
    .max(L.extras, key("order_extras_invalid"))
    // Each extra once, in the service's order.
    .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
);

/** A package and extras: the quote's question (GET …/quote, the confirmation page's link). */
export const orderChoiceSchema = z.object({
  package_index: intField(key("order_package_invalid"), 0, L.packages.max - 1),
  extras: extrasList,
});

/** Answers: one per question, in the questions' order (null or "" for none). */
export const answersSchema = z
  .array(z.union([z.string(), z.null()], { invalid_type_error: key("order_answers_invalid") }), {
    invalid_type_error: key("order_answers_invalid"),
  })
  .max(L.questions, key("order_answers_invalid"));

/** The order itself: the choice, the total the buyer confirmed, and (optionally) the answers. */
export const orderInputSchema = orderChoiceSchema.extend({
  expected_total_cents: intField(key("order_total_invalid"), 1, Number.MAX_SAFE_INTEGER),
  answers: answersSchema.optional(),
});

export const answersInputSchema = z.object({ answers: answersSchema });

/** A file answering a question: the question's index (the file is the form's `files`). */
export const orderFileInputSchema = z.object({
  question: intField(key("order_file_question_invalid"), 0, L.questions - 1),
});

/** A form's answers (`answer_0` … `answer_4`, as many as it has) as the list the schemas take; none: undefined. */
export function answersFromForm(values: Record<string, string>): string[] | undefined {
  const count = Object.keys(values).filter((k) => /^answer_\d$/.test(k)).length;
  return count ? Array.from({ length: count }, (_, i) => values[`answer_${i}`] ?? "") : undefined;
}
