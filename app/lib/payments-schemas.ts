import { z } from "zod";
import { LIMITS } from "./limits";
import { MAX_CENTS } from "./market-constants";
import { intField } from "./market-schemas";
import { line, text } from "./schemas";

// Payments' input schemas, shared by the page actions and the JSON API (docs/payments.md).

/** A contract has 1 to MAX_MILESTONES milestones. */
export const MAX_MILESTONES = 20;
export const MAX_MILESTONE_DAYS = 365;

export const milestoneInputSchema = z.object({
  title: line("milestone_title_length", LIMITS.milestone_title.min, LIMITS.milestone_title.max),
  amount_cents: intField("milestone_amount_invalid", 1, MAX_CENTS),
  days: intField("milestone_days_invalid", 1, MAX_MILESTONE_DAYS),
});

export const splitInputSchema = z.object({
  milestones: z
    .array(milestoneInputSchema, { required_error: "milestones_invalid", invalid_type_error: "milestones_invalid" })
    .min(1, "milestones_invalid")
    .max(MAX_MILESTONES, "milestones_too_many"),
});

/** The Pix end-to-end id: E, the payer's ISPB (8 digits), date and time, and 11 more characters: 32 in all. */
export const E2E_ID = /^[ED]\d{8}\d{12}[A-Za-z0-9]{11}$/;

export const e2eField = z
  .string({ required_error: "e2e_id_invalid", invalid_type_error: "e2e_id_invalid" })
  .trim()
  .regex(E2E_ID, "e2e_id_invalid");

export const confirmChargeSchema = z.object({
  e2e_id: e2eField,
  amount_cents: intField("receipt_amount_invalid", 1, MAX_CENTS),
});

export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;

export const payoutAccountSchema = z.object({
  key_type: z.enum(PIX_KEY_TYPES, { errorMap: () => ({ message: "pix_key_type_invalid" }) }),
  pix_key: z
    .string({ required_error: "pix_key_invalid", invalid_type_error: "pix_key_invalid" })
    .trim()
    .min(1, "pix_key_invalid")
    .max(100, "pix_key_invalid"),
  holder_name: line("holder_name_length", LIMITS.holder_name.min, LIMITS.holder_name.max),
  holder_document: z
    .string({ required_error: "holder_document_invalid", invalid_type_error: "holder_document_invalid" })
    .trim()
    .max(30, "holder_document_invalid"),
});

export const payoutFailedSchema = z.object({
  reason: text("failure_reason_length", LIMITS.failure_reason.min, LIMITS.failure_reason.max),
});

export const splitDecisionSchema = z.object({
  freelancer_cents: intField("split_amount_invalid", 0, MAX_CENTS),
});
