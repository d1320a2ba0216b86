import { isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";
import { z } from "zod";
import { flagField, line, text, withRules } from "./schemas";

// The fiscal settings of an issuer of NFS-e (the platform's, or a freelancer's own), shared by the
// page actions and the JSON API (docs/payments.md, "Notas fiscais"). The A1 certificate (a PFX
// file) travels beside these fields; its password is one of them and is never sent back.

export const FISCAL_REGIMES = ["nao_optante", "mei", "me_epp"] as const;
export const SIMPLES_REGIMES = ["1", "2", "3"] as const;
export const FISCAL_ENVIRONMENTS = ["producao_restrita", "producao"] as const;

/** The largest PFX accepted: an A1 with its chain is a few KB. */
export const MAX_PFX_BYTES = 50 * 1024;
/** The largest ISS rate, in basis points (LC 116/2003: 5 %). */
export const MAX_ISS_RATE_BPS = 500;
/** Days before the certificate's expiry when its pages warn. */
export const CERTIFICATE_WARNING_DAYS = 30;

/** Digits typed with or without their punctuation (CNPJ "11.222.333/0001-81", IBGE "3550308"). */
const digitsField = (key: string, valid: (digits: string) => boolean) =>
  z
    .string({ required_error: key, invalid_type_error: key })
    .trim()
    .max(30, key)
    .transform((s) => s.replace(/[\s./-]/g, ""))
    .refine(valid, key);

const optionalDigits = (key: string, length: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
    digitsField(key, (d) => new RegExp(`^\\d{${length}}$`).test(d)).optional(),
  );

const exactly = (length: number) => (d: string) => new RegExp(`^\\d{${length}}$`).test(d);

/** "2,00" (or 2, "2.5") percent → basis points 0..500; empty means not informed. */
const issRateField = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
  z
    .string({ invalid_type_error: "fiscal_iss_rate_invalid" })
    .trim()
    .max(10, "fiscal_iss_rate_invalid")
    .regex(/^\d{1,3}([.,]\d{1,2})?$/, "fiscal_iss_rate_invalid")
    .transform((s) => Math.round(Number(s.replace(",", ".")) * 100))
    .refine((bps) => bps <= MAX_ISS_RATE_BPS, "fiscal_iss_rate_invalid")
    .optional(),
);

const enumOf = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.enum(values, { errorMap: () => ({ message: key }) });

export const fiscalFields = z.object({
  cnpj: digitsField("fiscal_cnpj_invalid", (d) => d.length === 14 && isValidCnpj(d)),
  legal_name: line("fiscal_legal_name_length", 2, 150),
  municipal_registration: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
    z
      .string({ invalid_type_error: "fiscal_municipal_registration_invalid" })
      .trim()
      .regex(/^[0-9A-Za-z./-]{1,15}$/, "fiscal_municipal_registration_invalid")
      .optional(),
  ),
  municipality: digitsField("fiscal_municipality_invalid", exactly(7)),
  simples_nacional: enumOf(FISCAL_REGIMES, "fiscal_regime_invalid"),
  simples_regime: z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v === "" || v === null ? undefined : v),
    enumOf(SIMPLES_REGIMES, "fiscal_simples_regime_invalid").optional(),
  ),
  national_code: digitsField("fiscal_national_code_invalid", exactly(6)),
  nbs_code: digitsField("fiscal_nbs_code_invalid", exactly(9)),
  municipal_code: optionalDigits("fiscal_municipal_code_invalid", 3),
  description: text("fiscal_description_length", 5, 1000),
  iss_rate: issRateField,
  environment: enumOf(FISCAL_ENVIRONMENTS, "fiscal_environment_invalid"),
  /** The certificate's password: only with a new certificate (never shown, never kept in a form). */
  certificate_password: z
    .string({ invalid_type_error: "fiscal_certificate_password_required" })
    .max(200, "fiscal_certificate_password_required")
    .optional(),
  /** A freelancer's "emitir minhas notas" (the platform's issuer is on while it exists). */
  enabled: flagField("fiscal_enabled_invalid").optional(),
  /** The version of the settings the form saw (absent only on the first save). */
  version: z.coerce
    .number({ invalid_type_error: "fiscal_changed" })
    .int("fiscal_changed")
    .min(1, "fiscal_changed")
    .max(2_147_483_647, "fiscal_changed")
    .optional(),
});

/** The settings, with the ME/EPP's regime asked for (and dropped for the other regimes). */
export const fiscalSchema = withRules(fiscalFields, (values): Record<string, string> =>
  values.simples_nacional === "me_epp" && !values.simples_regime
    ? { simples_regime: "fiscal_simples_regime_invalid" }
    : {},
);

export type FiscalInput = z.output<typeof fiscalFields>;

/** Turning a freelancer's issuing on or off: `{ enabled, version }`. */
export const fiscalSwitchSchema = z.object({
  enabled: flagField("fiscal_enabled_invalid"),
  version: z.coerce
    .number({ invalid_type_error: "fiscal_changed", required_error: "fiscal_changed" })
    .int("fiscal_changed")
    .min(1, "fiscal_changed")
    .max(2_147_483_647, "fiscal_changed"),
});

/** Basis points as the form shows them: 200 → "2,00". */
export const bpsToPercent = (bps: number | null) => (bps === null ? "" : (bps / 100).toFixed(2).replace(".", ","));

/**
 * The merchant as the freelancer's nota names them (tomador), asked for at funding when the
 * freelancer issues their own notas and the merchant has no verified identity: a CPF or CNPJ and
 * the name (or razão social).
 */
export const takerSchema = z.object({
  taker_document: digitsField(
    "fiscal_taker_document_invalid",
    (d) => (d.length === 11 && isValidCpf(d)) || (d.length === 14 && isValidCnpj(d)),
  ),
  taker_name: line("fiscal_taker_name_length", 2, 150),
});
