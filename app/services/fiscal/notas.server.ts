import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db, transaction } from "../../../db";
import type { Database, FiscalIssuerRow, MilestoneRow, NfseDocumentRow } from "../../../db/schema";
import { AppError } from "../platform/errors.server";
import { every } from "../platform/jobs.server";
import { backoffMs, claimDue, MAX_ATTEMPTS } from "../platform/outbox.server";
import { CertificateError } from "./certificate.server";
import { buildDps, dpsId, DpsInputError, localDateTime } from "./dps.server";
import { issuerCredentials, PLATFORM_ISSUER } from "./issuers.server";
import { validateDpsXml } from "./schema.server";
import type { IssueResult, SefinMessage } from "./sefin.server";
import { sefinClient, type CancelResult, type SefinClient } from "./sefin-client.server";
import { signDps } from "./signature.server";

// Notas fiscais (docs/payments.md, "Notas fiscais"). A settlement with money writes its notas in its
// own transaction (enqueueNotas): the platform's for the fee, the freelancer's own for the amount
// released when they asked Freela to issue theirs. Every server process drains them like the e-mail
// outbox (platform/outbox.server.ts): one conditional UPDATE claims due rows ('pending' and due, or
// 'issuing' whose lease ran out) under a claim id, and each outcome is recorded under that claim only.
// A nota gets its DPS series and number at its first attempt, in the statement that advances the
// issuer's counter, and keeps them: every retry sends the same DPS id, and a retry after an attempt
// that may have reached the Sefin asks it first whether that DPS already became an NFS-e.

/** How long a claim holds a nota: far more than one exchange with the Sefin takes. */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 20;
/** The Sefin's "this DPS already became an NFS-e" (E0014): the nota is read back, not refused. */
export const DUPLICATE_DPS = "E0014";
const MESSAGE_MAX = 500;

export type NotasResult = { issued: number; rejected: number; retried: number; failed: number };

type Contract = { id: string; merchant_id: string; freelancer_id: string };

/**
 * The notas of a milestone settled with money, in the settlement's transaction, one statement: the
 * fee's (the platform's issuer, when it has one; to the freelancer) when there is a fee, and the
 * freelancer's own (their issuer, when on; to the merchant) when money was released to them.
 */
export async function enqueueNotas(
  trx: Kysely<Database>,
  contract: Contract,
  milestone: Pick<MilestoneRow, "id">,
  amounts: { releasedCents: number; feeCents: number },
  at: string,
) {
  const owners = [
    ...(amounts.feeCents > 0 ? [PLATFORM_ISSUER] : []),
    ...(amounts.releasedCents > 0 ? [contract.freelancer_id] : []),
  ];
  if (owners.length === 0) return;
  const platform = sql<boolean>`owner = ${PLATFORM_ISSUER}`;
  const competence = localDateTime(new Date(at)).slice(0, 10);
  await trx
    .insertInto("nfse_documents")
    .columns([
      "id",
      "kind",
      "issuer_id",
      "milestone_id",
      "contract_id",
      "provider_user_id",
      "taker_user_id",
      "amount_cents",
      "competence",
      "next_attempt_at",
      "created_at",
      "updated_at",
    ])
    .expression((eb) =>
      eb
        .selectFrom("fiscal_issuers")
        .select([
          sql<string>`CASE WHEN ${platform} THEN ${randomUUID()} ELSE ${randomUUID()} END`.as("id"),
          sql<string>`CASE WHEN ${platform} THEN 'fee' ELSE 'service' END`.as("kind"),
          "id as issuer_id",
          sql<string>`${milestone.id}`.as("milestone_id"),
          sql<string>`${contract.id}`.as("contract_id"),
          sql<string | null>`CASE WHEN ${platform} THEN NULL ELSE owner END`.as("provider_user_id"),
          sql<string>`CASE WHEN ${platform} THEN ${contract.freelancer_id} ELSE ${contract.merchant_id} END`.as(
            "taker_user_id",
          ),
          // Integers written in the statement: PostgreSQL types a parameter in a CASE as text.
          sql<number>`CASE WHEN ${platform} THEN ${sql.lit(amounts.feeCents)} ELSE ${sql.lit(amounts.releasedCents)} END`.as(
            "amount_cents",
          ),
          sql<string>`${competence}`.as("competence"),
          sql<string>`${at}`.as("next_attempt_at"),
          sql<string>`${at}`.as("created_at"),
          sql<string>`${at}`.as("updated_at"),
        ])
        .where("owner", "in", owners)
        .where((w) => w.or([w("owner", "=", PLATFORM_ISSUER), w("enabled", "=", 1)])),
    )
    .onConflict((oc) => oc.columns(["milestone_id", "kind"]).doNothing())
    .execute();
}

type Outcome = Partial<
  Pick<
    NfseDocumentRow,
    | "status"
    | "access_key"
    | "nfse_number"
    | "xml"
    | "error_code"
    | "error_message"
    | "issued_at"
    | "next_attempt_at"
    | "taker_document"
    | "taker_name"
  >
>;

/** Records a claimed nota's outcome, unless its claim lapsed and another drain took it over. */
async function settle(row: NfseDocumentRow, set: Outcome, at: string) {
  await db
    .updateTable("nfse_documents")
    .set({ ...set, claim: null, locked_until: null, updated_at: at })
    .where("id", "=", row.id)
    .where("claim", "=", row.claim)
    .where("status", "=", "issuing")
    .execute();
}

/** One message as stored and shown: the Sefin's description and its complement, never a secret. */
function messageOf(error: SefinMessage | undefined) {
  if (!error) return "A Sefin Nacional recusou a DPS sem dizer por quê.";
  const text = error.complement ? `${error.description} (${error.complement})` : error.description;
  return (text || "A Sefin Nacional recusou a DPS sem dizer por quê.").slice(0, MESSAGE_MAX);
}

/** The NFS-e's number (nNFSe) in the XML the Sefin returned, when it is there. */
export function nfseNumberOf(xml: string) {
  return /<(?:\w+:)?nNFSe>\s*(\d+)\s*<\/(?:\w+:)?nNFSe>/.exec(xml)?.[1] ?? null;
}

const issuedOutcome = (found: { accessKey: string; nfseXml: string }, at: string): Outcome => ({
  status: "issued",
  access_key: found.accessKey,
  nfse_number: nfseNumberOf(found.nfseXml),
  xml: found.nfseXml,
  issued_at: at,
  error_code: null,
  error_message: null,
});

const rejectedOutcome = (code: string, message: string): Outcome => ({
  status: "rejected",
  error_code: code || "SEFIN",
  error_message: message.slice(0, MESSAGE_MAX),
});

/** The tomador of a nota: its CPF/CNPJ and name, or null when none is known. */
async function takerOf(row: NfseDocumentRow) {
  const found = await db
    .selectFrom("contracts as c")
    .leftJoin("identities as i", (j) =>
      j.on("i.user_id", "=", row.taker_user_id).on("i.status", "=", "verified").on("i.document", "is not", null),
    )
    .leftJoin("payout_accounts as p", (j) => j.on("p.user_id", "=", row.taker_user_id))
    .select(["c.taker_document", "c.taker_name", "i.document", "i.legal_name", "p.holder_document", "p.holder_name"])
    .where("c.id", "=", row.contract_id)
    .executeTakeFirst();
  if (!found) return null;
  const identity = found.document ? { document: found.document, name: found.legal_name ?? "" } : null;
  if (row.kind === "service")
    return found.taker_document ? { document: found.taker_document, name: found.taker_name ?? "" } : identity;
  return (
    identity ?? (found.holder_document ? { document: found.holder_document, name: found.holder_name ?? "" } : null)
  );
}

class ClaimLost extends Error {}

/**
 * The nota's DPS series and number, taken from its issuer's counter in the statement that advances
 * it, stored on the nota (with its DPS id and tomador) in the same transaction: two drains never
 * share a number, and a nota that lost its claim meanwhile takes none.
 */
async function number(row: NfseDocumentRow, issuer: FiscalIssuerRow, taker: { document: string; name: string }) {
  return transaction(async (trx) => {
    const { series, next_number } = await trx
      .updateTable("fiscal_issuers")
      .set({ next_number: sql<number>`next_number + 1` })
      .where("id", "=", issuer.id)
      .returning(["series", "next_number"])
      .executeTakeFirstOrThrow();
    const set = {
      series,
      number: next_number - 1,
      dps_id: dpsId(issuer.municipality, issuer.cnpj, series, next_number - 1),
      taker_document: taker.document,
      taker_name: taker.name,
    };
    const stored = await trx
      .updateTable("nfse_documents")
      .set(set)
      .where("id", "=", row.id)
      .where("claim", "=", row.claim)
      .where("status", "=", "issuing")
      .where("number", "is", null)
      .executeTakeFirst();
    if (Number(stored.numUpdatedRows) === 0) throw new ClaimLost();
    return { ...row, ...set };
  });
}

type Failure = { kind: "failed"; errors: SefinMessage[] };

/** What to do with one claimed nota: an outcome to record, or a failure to retry later. */
async function attempt(row: NfseDocumentRow, client: SefinClient, at: Date): Promise<Outcome | Failure> {
  const stamp = at.toISOString();
  const issuer = await db.selectFrom("fiscal_issuers").selectAll().where("id", "=", row.issuer_id).executeTakeFirst();
  if (!issuer) return rejectedOutcome("FREELA-EMITENTE", "O emitente desta nota não está mais configurado.");
  // A certificate that no longer opens (expired, password changed) stops the nota before it takes a number.
  let credentials: ReturnType<typeof issuerCredentials>;
  try {
    credentials = issuerCredentials(issuer, at);
  } catch (error) {
    return rejectedOutcome(
      "FREELA-CERTIFICADO",
      error instanceof CertificateError ? error.message : "O certificado do emitente não pôde ser aberto.",
    );
  }
  if (row.number === null || row.taker_document === null) {
    const taker = row.taker_document
      ? { document: row.taker_document, name: row.taker_name ?? "" }
      : await takerOf(row);
    if (!taker)
      return rejectedOutcome(
        "FREELA-TOMADOR",
        row.kind === "fee"
          ? "O freelancer ainda não tem CPF ou CNPJ conhecido (identidade verificada ou chave Pix cadastrada)."
          : "O cliente não informou CPF ou CNPJ para a nota e não tem identidade verificada.",
      );
    if (row.number === null) row = await number(row, issuer, taker);
    else row = { ...row, taker_document: taker.document, taker_name: taker.name };
  }
  const sefin = { pfx: credentials.pfx, password: credentials.password };
  // An earlier attempt may have reached the Sefin (a timeout after it accepted): ask before sending again.
  if (row.attempts > 1) {
    const found = await client.findByDpsId(row.dps_id!, sefin, issuer.environment);
    if (found.kind === "found") return issuedOutcome(found, stamp);
    if (found.kind === "failed") return { kind: "failed", errors: found.errors };
  }
  let signed: string;
  try {
    const dps = buildDps({
      environment: issuer.environment,
      issuer: {
        cnpj: issuer.cnpj,
        municipalRegistration: issuer.municipal_registration,
        municipality: issuer.municipality,
        simplesNacional: issuer.simples_nacional,
        simplesNacionalRegime: issuer.simples_regime as 1 | 2 | 3 | null,
      },
      series: row.series!,
      number: row.number!,
      issuedAt: at,
      competence: row.competence,
      taker: { document: row.taker_document!, name: row.taker_name! },
      service: {
        nationalCode: issuer.national_code,
        nbsCode: issuer.nbs_code,
        municipalCode: issuer.municipal_code,
        description: issuer.description,
      },
      amountCents: row.amount_cents,
      issRateBasisPoints: issuer.iss_rate_bps,
    });
    signed = signDps(dps.xml, credentials.certificate);
  } catch (error) {
    if (error instanceof DpsInputError) return rejectedOutcome("FREELA-DPS", error.message);
    throw error;
  }
  const validation = validateDpsXml(signed);
  if (!validation.valid)
    return rejectedOutcome("FREELA-XSD", `A DPS não segue o leiaute da NFS-e: ${validation.errors[0]}`);
  let result: IssueResult;
  try {
    result = await client.issue(signed, sefin, issuer.environment);
  } catch {
    result = { kind: "failed", status: 0, errors: [] };
  }
  if (result.kind === "issued") return issuedOutcome(result, stamp);
  if (result.kind === "failed") return { kind: "failed", errors: result.errors };
  const [first] = result.errors;
  if (result.errors.some((e) => e.code === DUPLICATE_DPS)) {
    const found = await client.findByDpsId(row.dps_id!, sefin, issuer.environment);
    if (found.kind === "found") return issuedOutcome(found, stamp);
    if (found.kind === "failed") return { kind: "failed", errors: found.errors };
  }
  return rejectedOutcome(first?.code ?? "", messageOf(first));
}

/**
 * Issues the notas due at `at` through `client` (the Sefin Nacional by default). Each is settled on
 * its own; a failure of the Sefin (5xx, timeout) is retried with the outbox's backoff up to its
 * MAX_ATTEMPTS, a rejection waits for someone to fix it and ask again ("emitir de novo").
 */
export async function drainNotas(
  options: { at?: Date; client?: SefinClient; limit?: number } = {},
): Promise<NotasResult> {
  const at = options.at ?? new Date();
  const stamp = at.toISOString();
  const result: NotasResult = { issued: 0, rejected: 0, retried: 0, failed: 0 };
  const rows = await claimDue(
    { table: "nfse_documents", busy: "issuing" },
    stamp,
    options.limit ?? CLAIM_BATCH,
    LEASE_MS,
  );
  if (rows.length === 0) return result;
  const client = options.client ?? defaultClient();
  for (const row of rows) {
    let outcome: Outcome | Failure;
    try {
      outcome = await attempt(row, client, at);
    } catch (error) {
      if (error instanceof ClaimLost) continue;
      // Never the error's text: it could carry what the certificate holds.
      console.error(`[nfse] nota ${row.id} could not be attempted: ${error instanceof Error ? error.name : "error"}`);
      outcome = { kind: "failed", errors: [] };
    }
    if ("kind" in outcome) {
      const [first] = outcome.errors;
      const error = {
        error_code: first?.code || "SEFIN-INDISPONIVEL",
        error_message: first?.description ? messageOf(first) : "A Sefin Nacional não respondeu.",
      };
      if (row.attempts >= MAX_ATTEMPTS) {
        await settle(row, { status: "failed", ...error }, stamp);
        result.failed++;
        console.error(`[nfse] gave up on nota ${row.id} after ${row.attempts} attempts: ${error.error_code}`);
      } else {
        const next = new Date(at.getTime() + backoffMs(row.attempts)).toISOString();
        await settle(row, { status: "pending", next_attempt_at: next, ...error }, stamp);
        result.retried++;
      }
      continue;
    }
    await settle(row, outcome, stamp);
    if (outcome.status === "issued") result.issued++;
    else {
      result.rejected++;
      console.warn(`[nfse] nota ${row.id} rejected: ${outcome.error_code}`);
    }
  }
  return result;
}

let shared: SefinClient | null = null;
function defaultClient() {
  return (shared ??= sefinClient());
}

/**
 * Drains the notas every `interval` ms in this server process (each process runs its own; claims
 * keep them apart). The timer does not keep a stopping server alive.
 */
export function startNotas(interval: number) {
  return every(interval, "[nfse] notas drain failed", async () => {
    for (;;) {
      const r = await drainNotas();
      if (r.issued + r.rejected + r.retried + r.failed < CLAIM_BATCH) break;
    }
  });
}

/**
 * Cancels an issued nota through the Sefin's cancellation event (when a fee that was charged is
 * refunded): 'cancelled' with the moment. 409 when the nota is not (or no longer) issued.
 */
export async function cancelNota(id: string, reason: string, client: SefinClient = defaultClient()) {
  const found = await db
    .selectFrom("nfse_documents as n")
    .innerJoin("fiscal_issuers as f", "f.id", "n.issuer_id")
    .select([
      "n.status",
      "n.access_key",
      "f.owner",
      "f.cnpj",
      "f.environment",
      "f.certificate_sealed",
      "f.password_sealed",
    ])
    .where("n.id", "=", id)
    .executeTakeFirst();
  if (!found) throw new AppError(404, "not_found");
  if (found.status !== "issued" || !found.access_key) throw new AppError(409, "nota_not_issued");
  let credentials: ReturnType<typeof issuerCredentials>;
  try {
    credentials = issuerCredentials(found);
  } catch (error) {
    if (error instanceof CertificateError)
      throw new AppError(422, "nota_certificate", undefined, { message: error.message });
    throw error;
  }
  let answer: CancelResult;
  try {
    answer = await client.cancel(
      {
        accessKey: found.access_key,
        issuerCnpj: found.cnpj,
        reasonCode: 9,
        reason,
        certificate: credentials.certificate,
      },
      { pfx: credentials.pfx, password: credentials.password },
      found.environment,
    );
  } catch (error) {
    // The reason's length (15 to 255 characters), checked before anything is sent.
    if (error instanceof DpsInputError)
      throw new AppError(422, "nota_cancel_refused", undefined, { message: error.message });
    throw error;
  }
  if (answer.kind === "failed") throw new AppError(503, "sefin_unavailable");
  if (answer.kind === "rejected")
    throw new AppError(422, "nota_cancel_refused", undefined, { message: messageOf(answer.errors[0]) });
  const at = new Date().toISOString();
  const updated = await db
    .updateTable("nfse_documents")
    .set({ status: "cancelled", cancelled_at: at, updated_at: at })
    .where("id", "=", id)
    .where("status", "=", "issued")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "nota_not_issued");
}
