import { z } from "zod";
import { LIMITS } from "./limits";
import { intField, weeklyCapField } from "./market-schemas";
import { flagField, text } from "./schemas";

// Hourly contracts' input schemas, shared by the page actions and the JSON API (docs/payments.md,
// "Contratos por hora"). Messages are keys of the `messages` namespace.

/** Minutes in a day: no day holds more time than this, whatever its entries. */
export const DAY_MINUTES = 24 * 60;

const dayField = z
  .string({ required_error: "entry_day_invalid", invalid_type_error: "entry_day_invalid" })
  .trim()
  .refine(isDate, { message: "entry_day_invalid" });

/** A real calendar date written YYYY-MM-DD (not 2026-02-30). */
function isDate(value: string) {
  const time = Date.parse(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** A time entry: a day of the week, its minutes (1 to 24 h) and what was done. */
export const timeEntryInputSchema = z.object({
  day: dayField,
  minutes: intField("entry_minutes_invalid", 1, DAY_MINUTES),
  description: text("entry_description_length", LIMITS.time_entry_description.min, LIMITS.time_entry_description.max),
});

/** Most entries questioned at once (a week holds at most 60 h; a question per entry). */
export const QUESTIONS_MAX = 200;

/** The merchant questions entries of a submitted week: each with its reason. */
export const entryQuestionsSchema = z.object({
  entries: z
    .array(
      z.object({
        id: z
          .string({ required_error: "entry_question_entry", invalid_type_error: "entry_question_entry" })
          .uuid("entry_question_entry"),
        reason: text("entry_question_length", LIMITS.time_entry_question.min, LIMITS.time_entry_question.max),
      }),
      { required_error: "entry_questions_none", invalid_type_error: "entry_questions_none" },
    )
    .min(1, "entry_questions_none")
    .max(QUESTIONS_MAX, "entry_questions_none")
    .refine((list) => new Set(list.map((e) => e.id)).size === list.length, "entry_question_twice"),
});

/** The freelancer answers an entry's question. */
export const entryAnswerSchema = z.object({
  answer: text("entry_answer_length", LIMITS.time_entry_answer.min, LIMITS.time_entry_answer.max),
});

/** The merchant's new weekly cap, in whole hours as the proposal's (1 to 60). */
export const weeklyCapChangeSchema = z
  .object({ weekly_cap_hours: weeklyCapField })
  .refine((d) => d.weekly_cap_hours !== undefined, { message: "weekly_cap_invalid", path: ["weekly_cap_hours"] });

/** The merchant keeps an approved week's unused money for the next week (true) or has it refunded (false). */
export const keepUnusedSchema = z.object({ keep: flagField("keep_unused_invalid") });
