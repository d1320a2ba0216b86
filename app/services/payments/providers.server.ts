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
