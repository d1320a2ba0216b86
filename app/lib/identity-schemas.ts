import { z } from "zod";
import { line, text } from "./schemas";

// Identity's input schemas, shared by the page actions and the JSON API (docs/product.md, "Identidade").

export const IDENTITY_KINDS = ["person", "company"] as const;
export const IDENTITY_DOC_TYPES = ["rg", "cnh"] as const;

const digitsField = (key: string) =>
  z.string({ required_error: key, invalid_type_error: key }).trim().max(30, key).default("");

/** The typed data: a person (CPF, full legal name, birth date) or a company (CNPJ, razão social, responsible's CPF). */
export const identitySchema = z.object({
  kind: z.enum(IDENTITY_KINDS, { errorMap: () => ({ message: "identity_kind_invalid" }) }),
  document: digitsField("identity_document_invalid"),
  legal_name: line("identity_legal_name_length", 5, 150),
  birth_date: z
    .string({ invalid_type_error: "identity_birth_date_invalid" })
    .trim()
    .max(10, "identity_birth_date_invalid")
    .default(""),
  responsible_cpf: digitsField("identity_responsible_cpf_invalid"),
});

export const identityDocumentsSchema = z.object({
  doc_type: z.enum(IDENTITY_DOC_TYPES, { errorMap: () => ({ message: "identity_doc_type_invalid" }) }),
});

/** The version of the identity the operator saw (a 32-bit integer on both engines). */
const versionField = z.coerce
  .number({ invalid_type_error: "identity_version_invalid" })
  .int("identity_version_invalid")
  .min(1, "identity_version_invalid")
  .max(2_147_483_647, "identity_version_invalid");

export const identityDecisionSchema = z.discriminatedUnion(
  "decision",
  [
    z.object({
      decision: z.literal("approve"),
      version: versionField,
    }),
    z.object({
      decision: z.literal("reject"),
      version: versionField,
      reason: text("identity_reason_length", 5, 500),
    }),
  ],
  { errorMap: () => ({ message: "identity_decision_invalid" }) },
);
