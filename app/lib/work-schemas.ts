import { z } from "zod";
import { LIMITS } from "./limits";
import { intField } from "./market-schemas";
import { text } from "./schemas";

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
