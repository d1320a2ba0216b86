import { createHmac, timingSafeEqual } from "node:crypto";
import { createStaticPix, hasError } from "pix-utils";
import { config } from "~/config.server";
import type { PaymentsProvider } from "../../../db/schema";

// Who issues the Pix charges (docs/payments.md, docs/decisions/020-mercado-pago.md):
//
//   manual       the operator's own Pix key (PIX_KEY, PIX_NAME, PIX_CITY): a static BR Code with
//                the charge's amount and txid, built with pix-utils; the operator confirms the
//                receipt in the console with its end-to-end id.
//   mercadopago  a dynamic Pix charge made through Mercado Pago's payments API (POST
//                /v1/payments, payment_method_id "pix"), confirmed by its webhook: the
//                notification is signed (x-signature: HMAC-SHA256 of "id:<data.id>;request-id:
//                <x-request-id>;ts:<ts>;" with the webhook's secret), and carries only the
//                payment's id, whose state is then read from the API (GET /v1/payments/:id).

export type NewCharge = {
  chargeId: string;
  txid: string;
  amountCents: number;
  description: string;
  payerEmail: string;
  expiresAt: string;
};

export type IssuedCharge = { br_code: string; provider_payment_id: string | null };

export interface Provider {
  name: PaymentsProvider;
  createCharge(charge: NewCharge): Promise<IssuedCharge>;
}

/** Reais for the BR Code and the provider's API: 153050 → 1530.5 (exact for every centavo count below 2^53). */
const reais = (cents: number) => cents / 100;

export const manualProvider: Provider = {
  name: "manual",
  async createCharge(charge) {
    const pix = createStaticPix({
      merchantName: config.PIX_NAME,
      merchantCity: config.PIX_CITY,
      pixKey: config.PIX_KEY,
      txid: charge.txid,
      transactionAmount: reais(charge.amountCents),
      infoAdicional: charge.description.slice(0, 40),
    });
    if (hasError(pix)) throw new Error(`BR Code refused: ${JSON.stringify(pix)}`);
    return { br_code: pix.toBRCode(), provider_payment_id: null };
  },
};

export class ProviderError extends Error {}

/** Mercado Pago's answer for one payment, the fields this app reads. */
export type MercadoPagoPayment = {
  id: number | string;
  status: string;
  transaction_amount: number;
  external_reference?: string | null;
  point_of_interaction?: { transaction_data?: { qr_code?: string; e2e_id?: string | null } };
  transaction_details?: { transaction_id?: string | null };
};

async function mercadoPago(path: string, init: RequestInit = {}): Promise<MercadoPagoPayment> {
  const response = await fetch(new URL(path, config.MERCADOPAGO_API_URL), {
    ...init,
    headers: {
      Authorization: `Bearer ${config.MERCADOPAGO_ACCESS_TOKEN}`,
      "Content-Type": "application/json",
      ...init.headers,
    },
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json().catch(() => null)) as MercadoPagoPayment | null;
  if (!response.ok || !body) throw new ProviderError(`Mercado Pago answered ${response.status} to ${path}`);
  return body;
}

export const mercadoPagoProvider: Provider = {
  name: "mercadopago",
  async createCharge(charge) {
    const payment = await mercadoPago("/v1/payments", {
      method: "POST",
      // The charge's id: a retried request makes no second payment.
      headers: { "X-Idempotency-Key": charge.chargeId },
      body: JSON.stringify({
        transaction_amount: reais(charge.amountCents),
        description: charge.description,
        payment_method_id: "pix",
        external_reference: charge.chargeId,
        date_of_expiration: charge.expiresAt,
        notification_url: `${config.APP_URL}/api/payments/webhooks/mercadopago`,
        payer: { email: charge.payerEmail },
      }),
    });
    const brCode = payment.point_of_interaction?.transaction_data?.qr_code;
    if (!brCode) throw new ProviderError("Mercado Pago gave no BR Code");
    return { br_code: brCode, provider_payment_id: String(payment.id) };
  },
};

/**
 * Whether the holder of a Pix key (e-mail, phone or random key) has this CPF or CNPJ, by the
 * provider's DICT lookup. Mercado Pago documents no public DICT lookup; the call follows the
 * shape banking-as-a-service APIs document for it (GET /pix_key/<key>?document_number=<CPF or
 * CNPJ>, answering the DICT's data with `is_pix_key_owner`): the holder's document comes back
 * masked, so the provider compares it. 404: no such key (false). Anything else throws.
 */
export async function pixKeyOwnedBy(key: string, document: string): Promise<boolean> {
  const url = new URL(`/pix_key/${encodeURIComponent(key)}`, config.MERCADOPAGO_API_URL);
  url.searchParams.set("document_number", document);
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${config.MERCADOPAGO_ACCESS_TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404) return false;
  const body = (await response.json().catch(() => null)) as { is_pix_key_owner?: unknown } | null;
  if (!response.ok || typeof body?.is_pix_key_owner !== "boolean") {
    throw new ProviderError(`Mercado Pago answered ${response.status} to the key lookup`);
  }
  return body.is_pix_key_owner;
}

/** A payment as Mercado Pago has it now. */
export function fetchMercadoPagoPayment(id: string) {
  return mercadoPago(`/v1/payments/${encodeURIComponent(id)}`);
}

export function providerNamed(name: PaymentsProvider = config.PAYMENTS_PROVIDER): Provider {
  return name === "mercadopago" ? mercadoPagoProvider : manualProvider;
}

/** How old (or early) a webhook's signed timestamp may be: an older one is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks Mercado Pago's x-signature header ("ts=<seconds>,v1=<hex HMAC>") against the manifest
 * of the notification. Answers why not, or null when it is genuine and fresh.
 */
export function mercadoPagoSignatureProblem(
  headers: { signature: string | null; requestId: string | null },
  dataId: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): "bad_signature" | "stale" | null {
  if (!headers.signature) return "bad_signature";
  const parts = Object.fromEntries(
    headers.signature.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const ts = parts.ts;
  const v1 = parts.v1;
  if (!ts || !/^\d{1,13}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return "bad_signature";
  const manifest = `id:${dataId.toLowerCase()};request-id:${headers.requestId ?? ""};ts:${ts};`;
  return hmacProblem(manifest, ts, v1, secret, nowSeconds);
}

/**
 * Whether `hex` is the HMAC-SHA256 of `signed` with `secret` (compared in constant time) and the
 * signed timestamp `ts` (seconds, or milliseconds) is within WEBHOOK_TOLERANCE_SECONDS of now.
 * `ts` and `hex` must already have their shape (digits; 64 hex digits).
 */
export function hmacProblem(
  signed: string,
  ts: string,
  hex: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): "bad_signature" | "stale" | null {
  const expected = createHmac("sha256", secret).update(signed).digest();
  if (!timingSafeEqual(expected, Buffer.from(hex, "hex"))) return "bad_signature";
  // Mercado Pago's ts is in seconds (some senders use milliseconds: both are read).
  const seconds = ts.length > 11 ? Math.floor(Number(ts) / 1000) : Number(ts);
  if (Math.abs(nowSeconds - seconds) > WEBHOOK_TOLERANCE_SECONDS) return "stale";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Pix Automático (docs/payments.md, "Pix Automático"; docs/decisions/066-monthly-contracts.md):
// the capability `recurring`, by a PSP answering the Banco Central's API Pix (v2) for recurrences,
// at PIX_AUTOMATICO_API_URL. Journey 2: a location (POST /v2/locrec), the recurrence on it
// (POST /v2/rec: vinculo, calendario MENSAL, valor.valorRec), whose "copia e cola" the payer's
// bank reads to authorise it (GET /v2/rec/{idRec}: dadosQR.pixCopiaECola); each month a recurring
// charge (PUT /v2/cobr/{txid}: idRec, calendario.dataDeVencimento, valor.original); cancelling is
// a PATCH of the status to CANCELADA. The API's webhooks carry the ids; the state is read back.

/** A recurrence as the API Pix answers it, the fields this app reads. */
export type ApiRecurrence = {
  idRec: string;
  status: "CRIADA" | "APROVADA" | "REJEITADA" | "CANCELADA" | "EXPIRADA";
  valor?: { valorRec?: string };
  dadosQR?: { pixCopiaECola?: string };
};

/** A recurring charge (cobr) as the API Pix answers it. */
export type ApiRecurringCharge = {
  txid: string;
  idRec: string;
  status: "CRIADA" | "ATIVA" | "CONCLUIDA" | "EXPIRADA" | "REJEITADA" | "CANCELADA";
  valor: { original: string };
  pix?: { endToEndId?: string; valor?: string }[];
};

export type NewRecurrence = {
  /** The contract's id (vinculo.contrato) and what it is (vinculo.objeto). */
  contract: string;
  object: string;
  debtor: { document: string; name: string };
  amountCents: number;
  /** The first month's due date ('YYYY-MM-DD'). */
  startsOn: string;
};

export interface RecurringProvider {
  name: "pix_automatico";
  createRecurrence(recurrence: NewRecurrence): Promise<{ id: string; br_code: string }>;
  getRecurrence(id: string): Promise<ApiRecurrence>;
  cancelRecurrence(id: string): Promise<void>;
  createRecurringCharge(
    txid: string,
    charge: { recurrenceId: string; dueOn: string; amountCents: number; info: string },
  ): Promise<void>;
  getRecurringCharge(txid: string): Promise<ApiRecurringCharge>;
  cancelRecurringCharge(txid: string): Promise<void>;
}

/** "2400.00" for 240000 centavos: the API Pix's amounts are decimal strings. */
export const decimalReais = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
/** Centavos of the API Pix's "2400.00" (null when it is not one). */
export function centsOf(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{1,15}\.\d{2}$/.test(value)) return null;
  const [whole, part] = value.split(".");
  return Number(whole) * 100 + Number(part);
}

/** One call of the API Pix; any failure (out of reach, refused, no JSON) is a ProviderError. */
async function pixApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(path, config.PIX_AUTOMATICO_API_URL), {
      method,
      headers: { Authorization: `Bearer ${config.PIX_AUTOMATICO_TOKEN}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new ProviderError(`The API Pix is out of reach (${method} ${path}): ${(error as Error).message}`);
  }
  const answer = (await response.json().catch(() => null)) as T | null;
  if (!response.ok || !answer) throw new ProviderError(`The API Pix answered ${response.status} to ${method} ${path}`);
  return answer;
}

export const pixAutomaticoProvider: RecurringProvider = {
  name: "pix_automatico",
  async createRecurrence(r) {
    const location = await pixApi<{ id: number }>("POST", "/v2/locrec");
    const debtor = r.debtor.document.length === 11 ? { cpf: r.debtor.document } : { cnpj: r.debtor.document };
    const created = await pixApi<ApiRecurrence>("POST", "/v2/rec", {
      vinculo: { objeto: r.object.slice(0, 35), contrato: r.contract, devedor: { ...debtor, nome: r.debtor.name } },
      calendario: { dataInicial: r.startsOn, periodicidade: "MENSAL" },
      valor: { valorRec: decimalReais(r.amountCents) },
      // A month not debited is paid by ordinary Pix: no retries by the payer's bank.
      politicaRetentativa: "NAO_PERMITE",
      loc: location.id,
    });
    const shown = await pixApi<ApiRecurrence>("GET", `/v2/rec/${encodeURIComponent(created.idRec)}`);
    const brCode = shown.dadosQR?.pixCopiaECola;
    if (!brCode) throw new ProviderError("The API Pix gave no copia e cola for the recurrence");
    return { id: created.idRec, br_code: brCode };
  },
  getRecurrence: (id) => pixApi<ApiRecurrence>("GET", `/v2/rec/${encodeURIComponent(id)}`),
  async cancelRecurrence(id) {
    await pixApi("PATCH", `/v2/rec/${encodeURIComponent(id)}`, { status: "CANCELADA" });
  },
  async createRecurringCharge(txid, c) {
    await pixApi("PUT", `/v2/cobr/${encodeURIComponent(txid)}`, {
      idRec: c.recurrenceId,
      infoAdicional: c.info.slice(0, 140),
      calendario: { dataDeVencimento: c.dueOn },
      valor: { original: decimalReais(c.amountCents) },
      ajusteDiaUtil: true,
    });
  },
  getRecurringCharge: (txid) => pixApi<ApiRecurringCharge>("GET", `/v2/cobr/${encodeURIComponent(txid)}`),
  async cancelRecurringCharge(txid) {
    await pixApi("PATCH", `/v2/cobr/${encodeURIComponent(txid)}`, { status: "CANCELADA" });
  },
};

/** The capability `recurring`: Pix Automático, when escrow payments and its PSP are configured; else none. */
export function recurringProvider(): RecurringProvider | null {
  return config.PAYMENTS === "escrow" && config.PIX_AUTOMATICO_API_URL ? pixAutomaticoProvider : null;
}

/**
 * Checks a Pix Automático webhook's x-signature header ("ts=<seconds>,v1=<hex HMAC-SHA256 of
 * '<ts>.<body>'>"): the API Pix authenticates its webhooks by mutual TLS at the TLS terminator;
 * this shared-secret HMAC (as PSPs offer beside it) is what the application itself checks.
 */
export function pixAutomaticoSignatureProblem(
  signature: string | null,
  body: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): "bad_signature" | "stale" | null {
  const parts = Object.fromEntries(
    (signature ?? "").split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const ts = parts.ts;
  const v1 = parts.v1;
  if (!ts || !/^\d{1,13}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return "bad_signature";
  return hmacProblem(`${ts}.${body}`, ts, v1, secret, nowSeconds);
}
