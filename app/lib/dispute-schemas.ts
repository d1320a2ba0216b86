import { z } from "zod";
import { DISPUTE_REASONS, DISPUTE_STATUSES } from "./disputes";
import { LIMITS } from "./limits";
import { pageQuerySchema } from "./market-schemas";
import { text } from "./schemas";

// Input schemas of disputes, shared by the contract's page, the console and the JSON API.
// Messages are keys of the `messages` namespace.

const statement = text("dispute_statement_length", LIMITS.dispute_statement.min, LIMITS.dispute_statement.max);

/** A side opens a dispute: why (from the list) and its statement. */
export const disputeOpenInputSchema = z.object({
  reason: z.enum(DISPUTE_REASONS, { errorMap: () => ({ message: "dispute_reason_invalid" }) }),
  statement,
  /** An hourly contract's dispute names its questioned week (its Monday, AAAA-MM-DD). */
  week: z.string({ errorMap: () => ({ message: "dispute_week_required" }) }).optional(),
});

/** A side adds a statement (with files) while the dispute is open. */
export const disputeStatementInputSchema = z.object({ statement });

/**
 * The operator's decision: its kind (checked against the decision registry, which the payments
 * extend) and the written reason both sides will read.
 */
export const disputeDecisionInputSchema = z
  .object({
    decision: z
      .string({ required_error: "dispute_decision_invalid", invalid_type_error: "dispute_decision_invalid" })
      .trim()
      .max(40, "dispute_decision_invalid"),
    reason: text(
      "dispute_decision_reason_length",
      LIMITS.dispute_decision_reason.min,
      LIMITS.dispute_decision_reason.max,
    ),
  })
  .passthrough();

const empty = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

/** The console's queue: open disputes first by default. */
export const disputeQueueQuerySchema = pageQuerySchema.extend({
  status: z.preprocess(
    empty,
    z.enum(DISPUTE_STATUSES, { errorMap: () => ({ message: "dispute_status_invalid" }) }).default("open"),
  ),
});
