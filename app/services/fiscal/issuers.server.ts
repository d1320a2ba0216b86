import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { z } from "zod";
import {
  CERTIFICATE_WARNING_DAYS,
  MAX_PFX_BYTES,
  bpsToPercent,
  fiscalFields,
  fiscalSchema,
  fiscalSwitchSchema,
  takerSchema,
  type FiscalInput,
} from "~/lib/fiscal-schemas";
import { checkFields } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { ContractRow, Database, FiscalIssuerRow, UserRow } from "../../../db/schema";
import { currentSealPrefix, seal, unseal } from "../accounts/sealed-secrets.server";
import { operatorActor, recordAudit } from "../operator/audit.server";
import { AppError, fieldErrorsOf, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { CertificateError, loadA1Certificate, type A1Certificate } from "./certificate.server";

/** The owner of the platform's own issuer (its fees' notas); a freelancer's issuer is owned by their user id. */
export const PLATFORM_ISSUER = "platform";

/** The PFX (base64) and its password, sealed for the issuer's owner: what fiscal_issuers keeps. */
export function sealCertificate(owner: string, pfx: Buffer, password: string) {
  return {
    certificate_sealed: seal(pfx.toString("base64"), `fiscal:${owner}`),
    password_sealed: seal(password, `fiscal:${owner}`),
  };
}

/** What signs an issuer's DPS and opens its mutual TLS: the PFX and password unsealed, and the certificate read. */
export function issuerCredentials(
  issuer: Pick<FiscalIssuerRow, "owner" | "certificate_sealed" | "password_sealed">,
  now = new Date(),
): { pfx: Buffer; password: string; certificate: A1Certificate } {
  const pfx = Buffer.from(unseal(issuer.certificate_sealed, `fiscal:${issuer.owner}`), "base64");
  const password = unseal(issuer.password_sealed, `fiscal:${issuer.owner}`);
  return { pfx, password, certificate: loadA1Certificate(pfx, password, now) };
}

// The issuers' fiscal settings (docs/payments.md, "Notas fiscais"): the platform's, kept by the
// operator in /admin/settings, and a freelancer's own, for "emitir minhas notas". What is read back
// is a view without the secrets: the certificate and its password are sealed on the way in and
// never leave (not in answers, logs, the audit log nor a copy of someone's data). The A1 is
// required on the first save and optional afterwards (the stored one stays); it is read with its
// password and must be the CNPJ's own. Every write repeats the version the form saw (409 when it
// changed); the first save is an insert that one wins (owner is unique).

export type IssuerView = {
  cnpj: string;
  legal_name: string;
  municipal_registration: string | null;
  municipality: string;
  simples_nacional: FiscalIssuerRow["simples_nacional"];
  simples_regime: string | null;
  national_code: string;
  nbs_code: string;
  municipal_code: string | null;
  description: string;
  iss_rate_bps: number | null;
  /** The ISS rate as typed in the form ("2,00"), empty when not informed. */
  iss_rate: string;
  environment: FiscalIssuerRow["environment"];
  enabled: boolean;
  version: number;
  updated_at: string;
  /** The stored certificate (null once erased): its holder's CNPJ and expiry. */
  certificate: { cnpj: string; expires_at: string; expires_soon: boolean; expired: boolean } | null;
};

const DAY_MS = 86_400_000;

export function issuerView(row: FiscalIssuerRow, at = new Date()): IssuerView {
  const expires = Date.parse(row.certificate_expires_at);
  return {
    cnpj: row.cnpj,
    legal_name: row.legal_name,
    municipal_registration: row.municipal_registration,
    municipality: row.municipality,
    simples_nacional: row.simples_nacional,
    simples_regime: row.simples_regime === null ? null : String(row.simples_regime),
    national_code: row.national_code,
    nbs_code: row.nbs_code,
    municipal_code: row.municipal_code,
    description: row.description,
    iss_rate_bps: row.iss_rate_bps,
    iss_rate: bpsToPercent(row.iss_rate_bps),
    environment: row.environment,
    enabled: row.enabled === 1,
    version: row.version,
    updated_at: row.updated_at,
    certificate:
      row.certificate_sealed === ""
        ? null
        : {
            cnpj: row.cnpj,
            expires_at: row.certificate_expires_at,
            expires_soon: expires - at.getTime() <= CERTIFICATE_WARNING_DAYS * DAY_MS,
            expired: expires <= at.getTime(),
          },
  };
}

const issuerRow = (owner: string, q: Kysely<Database> = db) =>
  q.selectFrom("fiscal_issuers").selectAll().where("owner", "=", owner).executeTakeFirst();

/** The platform's fiscal settings, or null before the operator saves them. */
export async function getPlatformIssuer(): Promise<IssuerView | null> {
  const row = await issuerRow(PLATFORM_ISSUER);
  return row ? issuerView(row) : null;
}

/** The certificate sent: a file of a form, or base64 in a JSON body's `certificate`; null when none. */
async function certificateBytes(input: unknown, upload: Blob | null): Promise<Buffer | null> {
  if (upload && upload.size > 0) {
    if (upload.size > MAX_PFX_BYTES) throw certificateTooLarge();
    return Buffer.from(await upload.arrayBuffer());
  }
  const sent = typeof input === "object" && input !== null ? (input as Record<string, unknown>).certificate : undefined;
  if (sent === undefined || sent === null || sent === "") return null;
  if (typeof sent !== "string" || !/^[A-Za-z0-9+/=\s]+$/.test(sent)) {
    throw new AppError(422, "validation_failed", { certificate: "certificate_not_pfx" });
  }
  const bytes = Buffer.from(sent, "base64");
  if (bytes.byteLength > MAX_PFX_BYTES) throw certificateTooLarge();
  return bytes;
}

export const certificateTooLarge = () =>
  new AppError(413, "fiscal_certificate_too_large", { certificate: "fiscal_certificate_too_large" });

type Checked = {
  data: z.output<typeof fiscalSchema>;
  certificate: { pfx: Buffer; password: string; expires: Date } | null;
};

/**
 * The input checked: every field's problem at once, with the certificate's (read with its
 * password, the CNPJ typed's own). `extra` adds the owner's own rules (a freelancer's CNPJ).
 */
async function checkInput(
  before: FiscalIssuerRow | undefined,
  input: unknown,
  upload: Blob | null,
  extra: (data: Partial<FiscalInput>) => Record<string, string> = () => ({}),
): Promise<Checked> {
  const pfx = await certificateBytes(input, upload);
  const parsed = fiscalSchema.safeParse(input);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrorsOf(parsed.error);
  const values = (parsed.success ? parsed.data : checkFields(fiscalFields, input).values) as Partial<FiscalInput>;
  Object.assign(errors, extra(values));
  let certificate: Checked["certificate"] = null;
  const password = values.certificate_password ?? "";
  if (pfx) {
    if (password === "") errors.certificate_password ??= "fiscal_certificate_password_required";
    else {
      try {
        const read = loadA1Certificate(pfx, password);
        if (values.cnpj && read.cnpj !== values.cnpj) errors.certificate ??= "fiscal_certificate_other_cnpj";
        certificate = { pfx, password, expires: read.notAfter };
      } catch (error) {
        if (!(error instanceof CertificateError)) throw error;
        const field = error.code === "wrong_password" ? "certificate_password" : "certificate";
        errors[field] ??= `certificate_${error.code}`;
      }
    }
  } else if (!before || before.certificate_sealed === "") {
    errors.certificate ??= "fiscal_certificate_required";
  } else if (values.cnpj && values.cnpj !== before.cnpj) {
    // The stored certificate is the old CNPJ's: another CNPJ comes with its own.
    errors.certificate ??= "fiscal_certificate_other_cnpj";
  }
  if (Object.keys(errors).length > 0 || !parsed.success) throw new AppError(422, "validation_failed", errors);
  return { data: parsed.data, certificate };
}

/** The columns a save writes, from the checked input. */
function columnsOf(owner: string, { data, certificate }: Checked, enabled: number, at: string) {
  return {
    cnpj: data.cnpj,
    legal_name: data.legal_name,
    municipal_registration: data.municipal_registration ?? null,
    municipality: data.municipality,
    simples_nacional: data.simples_nacional,
    simples_regime: data.simples_nacional === "me_epp" ? Number(data.simples_regime) : null,
    national_code: data.national_code,
    nbs_code: data.nbs_code,
    municipal_code: data.municipal_code ?? null,
    description: data.description,
    iss_rate_bps: data.iss_rate ?? null,
    environment: data.environment,
    enabled,
    updated_at: at,
    ...(certificate
      ? {
          ...sealCertificate(owner, certificate.pfx, certificate.password),
          certificate_expires_at: certificate.expires.toISOString(),
        }
      : {}),
  };
}

type AfterWrite = (trx: Kysely<Database>, before: FiscalIssuerRow | undefined, after: FiscalIssuerRow) => Promise<void>;

/**
 * Writes an owner's settings: the first save inserts (of two at once one wins, the other gets
 * 409), a later one updates over the version the form saw (409 when it changed). `afterWrite`
 * runs in the same transaction (the operator's audit row).
 */
async function writeIssuer(
  owner: string,
  before: FiscalIssuerRow | undefined,
  checked: Checked,
  enabled: number,
  afterWrite?: AfterWrite,
): Promise<IssuerView> {
  if (before && checked.data.version !== before.version) throw new AppError(409, "fiscal_changed");
  const at = now();
  const columns = columnsOf(owner, checked, enabled, at);
  const write = transaction(async (trx) => {
    const row = before
      ? await trx
          .updateTable("fiscal_issuers")
          .set({ ...columns, version: before.version + 1 })
          .where("owner", "=", owner)
          .where("version", "=", before.version)
          .returningAll()
          .executeTakeFirst()
      : await trx
          .insertInto("fiscal_issuers")
          .values({
            id: randomUUID(),
            owner,
            ...columns,
            certificate_sealed: columns.certificate_sealed!,
            password_sealed: columns.password_sealed!,
            certificate_expires_at: columns.certificate_expires_at!,
            version: 1,
            created_at: at,
          })
          .onConflict((oc) => oc.column("owner").doNothing())
          .returningAll()
          .executeTakeFirst();
    if (!row) throw new AppError(409, "fiscal_changed");
    await afterWrite?.(trx, before, row);
    return row;
  });
  const written = await write.catch((error: unknown) => {
    // Another issuer has this CNPJ (the owner's own conflict is the 409 above).
    if (isUniqueViolation(error, "fiscal_issuers"))
      throw new AppError(422, "validation_failed", { cnpj: "fiscal_cnpj_taken" });
    throw error;
  });
  return issuerView(written);
}

/** The fields of a view the audit log keeps: the settings and the certificate's CNPJ and expiry, never a secret. */
function audited(row: FiscalIssuerRow | undefined) {
  if (!row) return null;
  const { certificate, ...settings } = issuerView(row);
  const { version: _version, updated_at: _updated, iss_rate: _rate, ...kept } = settings;
  return { ...kept, certificate_expires_at: certificate?.expires_at ?? null };
}

/**
 * The operator saves the platform's fiscal settings (multipart form or JSON, see fiscalSchema;
 * `certificate` a PFX file, or base64 in JSON): 422 per field, 409 when they changed meanwhile;
 * one audit row with what changed (no secret).
 */
export async function savePlatformIssuer(operator: UserRow, input: unknown, upload: Blob | null = null) {
  const before = await issuerRow(PLATFORM_ISSUER);
  const checked = await checkInput(before, input, upload);
  return writeIssuer(PLATFORM_ISSUER, before, checked, 1, async (trx, old, row) => {
    const [was, is] = [audited(old), audited(row)!];
    const changed = Object.keys(is).filter(
      (k) => JSON.stringify(was?.[k as keyof typeof is]) !== JSON.stringify(is[k as keyof typeof is]),
    );
    await recordAudit(trx, operatorActor(operator), {
      action: "setting.update",
      target_type: "setting",
      target_id: "fiscal",
      before: was ? Object.fromEntries(changed.map((k) => [k, was[k as keyof typeof was]])) : null,
      after: Object.fromEntries(changed.map((k) => [k, is[k as keyof typeof is]])),
    });
  });
}

// A freelancer's own issuer.

export type OwnIssuer = {
  issuer: IssuerView | null;
  /** Whether they may issue: a verified identity first (and, for a company, its own CNPJ). */
  identity: "verified" | "missing";
  /** The verified company's CNPJ, when their identity is a company's (the only CNPJ they may use). */
  company_cnpj: string | null;
};

async function verifiedIdentity(userId: string) {
  return db
    .selectFrom("identities")
    .select(["kind", "document"])
    .where("user_id", "=", userId)
    .where("status", "=", "verified")
    .executeTakeFirst();
}

/** A freelancer's fiscal settings and whether they may have them (403 for anyone else). */
export async function getOwnIssuer(
  user: Pick<UserRow, "id" | "account_type" | "email_verified_at">,
): Promise<OwnIssuer> {
  assertRoleFor(user, "fiscal.manage");
  const [row, identity] = await Promise.all([issuerRow(user.id), verifiedIdentity(user.id)]);
  return {
    issuer: row ? issuerView(row) : null,
    identity: identity ? "verified" : "missing",
    company_cnpj: identity?.kind === "company" ? identity.document : null,
  };
}

/**
 * A freelancer saves their fiscal settings (as savePlatformIssuer) to have their notas issued for
 * them: only with a verified identity (409 otherwise), and a company's identity only for its own
 * CNPJ. `enabled` turns "emitir minhas notas" on (the default on the first save) or off.
 */
export async function saveOwnIssuer(
  user: Pick<UserRow, "id" | "account_type" | "email_verified_at">,
  input: unknown,
  upload: Blob | null = null,
) {
  assertRoleFor(user, "fiscal.manage");
  await consumeWrite(user.id);
  const identity = await verifiedIdentity(user.id);
  if (!identity) throw new AppError(409, "fiscal_identity_required");
  const before = await issuerRow(user.id);
  const checked = await checkInput(before, input, upload, (values): Record<string, string> =>
    identity.kind === "company" && values.cnpj && values.cnpj !== identity.document
      ? { cnpj: "fiscal_cnpj_not_yours" }
      : {},
  );
  const enabled = checked.data.enabled ?? (before ? before.enabled === 1 : true);
  return writeIssuer(user.id, before, checked, enabled ? 1 : 0);
}

/** Turns a freelancer's issuing on or off (`{ enabled, version }`); on only with a certificate kept. */
export async function switchOwnIssuing(
  user: Pick<UserRow, "id" | "account_type" | "email_verified_at">,
  input: unknown,
) {
  assertRoleFor(user, "fiscal.manage");
  await consumeWrite(user.id);
  const { enabled, version } = parseInput(fiscalSwitchSchema, input);
  const before = await issuerRow(user.id);
  if (!before) throw new AppError(404, "fiscal_not_found");
  if (enabled && (before.certificate_sealed === "" || !(await verifiedIdentity(user.id)))) {
    throw new AppError(409, "fiscal_cannot_enable");
  }
  const row = await db
    .updateTable("fiscal_issuers")
    .set({ enabled: enabled ? 1 : 0, version: before.version + 1, updated_at: now() })
    .where("owner", "=", user.id)
    .where("version", "=", version)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError(409, "fiscal_changed");
  return issuerView(row);
}

/**
 * A deleted account's issuer: the certificate and its password erased and issuing off; the row
 * stays (its notas point at it).
 */
export async function eraseIssuer(trx: Kysely<Database>, owner: string, at: string) {
  await trx
    .updateTable("fiscal_issuers")
    .set({ certificate_sealed: "", password_sealed: "", enabled: 0, version: sql`version + 1`, updated_at: at })
    .where("owner", "=", owner)
    .execute();
}

/**
 * Re-seals under the current key the certificates and passwords sealed under another known key (or
 * kept in clear); run by `npm run migrate`, like resealTwoFactorSecrets. Each row is written only
 * over the values read.
 */
export async function resealFiscalCertificates(database: Kysely<Database> = db) {
  const prefix = `${currentSealPrefix()}%`;
  const rows = await database
    .selectFrom("fiscal_issuers")
    .select(["owner", "certificate_sealed", "password_sealed"])
    .where("certificate_sealed", "!=", "")
    .where((eb) => eb.or([eb("certificate_sealed", "not like", prefix), eb("password_sealed", "not like", prefix)]))
    .execute();
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    let plain: { certificate: string; password: string };
    try {
      plain = {
        certificate: unseal(row.certificate_sealed, `fiscal:${row.owner}`),
        password: unseal(row.password_sealed, `fiscal:${row.owner}`),
      };
    } catch {
      unreadable++;
      continue;
    }
    const written = await database
      .updateTable("fiscal_issuers")
      .set({
        certificate_sealed: seal(plain.certificate, `fiscal:${row.owner}`),
        password_sealed: seal(plain.password, `fiscal:${row.owner}`),
      })
      .where("owner", "=", row.owner)
      .where("certificate_sealed", "=", row.certificate_sealed)
      .where("password_sealed", "=", row.password_sealed)
      .executeTakeFirst();
    resealed += Number(written.numUpdatedRows);
  }
  return { resealed, unreadable };
}

/**
 * At funding: when the contract's freelancer issues their own notas and the merchant has no
 * verified identity, the merchant's CPF/CNPJ and name for the nota (`taker_document`,
 * `taker_name`) are asked for once and kept on the contract (422 per field until given). Nothing
 * is asked otherwise, nor once the contract has them.
 */
export async function assertFundingTaker(
  contract: Pick<ContractRow, "id" | "merchant_id" | "freelancer_id" | "taker_document">,
  input: unknown,
) {
  if (contract.taker_document) return;
  const [issuing, verified] = await Promise.all([
    db
      .selectFrom("fiscal_issuers")
      .select("id")
      .where("owner", "=", contract.freelancer_id)
      .where("enabled", "=", 1)
      .where("certificate_sealed", "!=", "")
      .executeTakeFirst(),
    verifiedIdentity(contract.merchant_id),
  ]);
  if (!issuing || verified) return;
  const taker = parseInput(takerSchema, input, "fiscal_taker_required");
  await db
    .updateTable("contracts")
    .set({ taker_document: taker.taker_document, taker_name: taker.taker_name })
    .where("id", "=", contract.id)
    .where("taker_document", "is", null)
    .execute();
}
