import { randomUUID } from "node:crypto";
import { db } from "../../../db";
import { config } from "~/config.server";
import { E2E_ID } from "~/lib/payments-schemas";
import { AppError } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { settleNotifiedCharge, type Settlement } from "./charges.server";
import {
  fetchMercadoPagoPayment,
  mercadoPagoSignatureProblem,
  ProviderError,
  type MercadoPagoPayment,
} from "./providers.server";
import { logger } from "../platform/log.server";

// Mercado Pago's webhook (docs/decisions/020-mercado-pago.md). Trusted by its signature only
// (no session, no origin check). Each notification is processed once by its id; the payment's
// state is read from the API, so a late or repeated notification changes nothing; refusals are
// answered with their status, logged, recorded in payment_events, and credit nothing.

export type WebhookInput = {
  /** `data.id` of the query string (what the signature covers), else the body's. */
  dataId: string | null;
  type: string | null;
  signature: string | null;
  requestId: string | null;
  body: string;
};

export type WebhookOutcome = "processed" | "duplicate" | "ignored" | "pending";

async function record(eventId: string | null, outcome: string, detail: string | null) {
  await db
    .insertInto("payment_events")
    .values({ id: randomUUID(), provider: "mercadopago", event_id: eventId, outcome, detail, created_at: now() })
    .execute();
}

/** Refuses the notification: logged, recorded, and answered with `status`. */
async function refuse(status: number, key: string, eventId: string | null, detail: string): Promise<never> {
  logger.warn(`[payments] Mercado Pago webhook refused (${key}): ${detail}`);
  await record(eventId, key, detail.slice(0, 500));
  throw new AppError(status, key);
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

function parseBody(body: string): { id: string | null; type: string | null; dataId: string | null } {
  try {
    const value = JSON.parse(body) as { id?: unknown; type?: unknown; data?: { id?: unknown } };
    const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : null);
    return { id: str(value?.id), type: str(value?.type), dataId: str(value?.data?.id) };
  } catch {
    return { id: null, type: null, dataId: null };
  }
}

export async function receiveMercadoPagoWebhook(
  input: WebhookInput,
): Promise<{ outcome: WebhookOutcome; settlement?: Settlement }> {
  const secret = config.MERCADOPAGO_WEBHOOK_SECRET;
  if (config.PAYMENTS_PROVIDER !== "mercadopago" || !secret) throw new AppError(404, "not_found");
  const body = parseBody(input.body);
  const dataId = input.dataId ?? body.dataId;
  const eventId = body.id && ID.test(body.id) ? body.id : null;
  if (!dataId || !ID.test(dataId)) return refuse(400, "webhook_malformed", eventId, "no data.id");
  const problem = mercadoPagoSignatureProblem(
    { signature: input.signature, requestId: input.requestId },
    dataId,
    secret,
  );
  if (problem === "bad_signature") return refuse(401, "webhook_bad_signature", eventId, `data.id ${dataId}`);
  if (problem === "stale") return refuse(401, "webhook_stale", eventId, `data.id ${dataId}`);
  if (!eventId) return refuse(400, "webhook_malformed", null, "no notification id");
  if ((input.type ?? body.type) !== "payment") {
    await record(eventId, "ignored", `type ${input.type ?? body.type}`);
    return { outcome: "ignored" };
  }
  const seen = await db
    .selectFrom("payment_events")
    .select("id")
    .where("provider", "=", "mercadopago")
    .where("event_id", "=", eventId)
    .where("outcome", "=", "processed")
    .executeTakeFirst();
  if (seen) return { outcome: "duplicate" };

  const charge = await db
    .selectFrom("pix_charges")
    .selectAll()
    .where("provider", "=", "mercadopago")
    .where("provider_payment_id", "=", dataId)
    .executeTakeFirst();
  if (!charge) return refuse(404, "webhook_unknown_charge", eventId, `payment ${dataId}`);

  let payment: MercadoPagoPayment;
  try {
    payment = await fetchMercadoPagoPayment(dataId);
  } catch (error) {
    if (!(error instanceof ProviderError) && !(error instanceof Error)) throw error;
    // Mercado Pago sends the notification again later: the answer asks for that.
    logger.error(`[payments] Mercado Pago unreachable: ${(error as Error).message}`);
    throw new AppError(503, "provider_unavailable", undefined, undefined, { "Retry-After": "60" });
  }
  if (String(payment.id) !== dataId || payment.external_reference !== charge.id) {
    return refuse(404, "webhook_unknown_charge", eventId, `payment ${dataId} is not charge ${charge.id}`);
  }
  if (payment.status !== "approved") {
    // Not paid (yet): a notification of an earlier state, or one that arrives after another.
    await record(eventId, "pending", `status ${payment.status}`);
    return { outcome: "pending" };
  }
  if (Math.round(payment.transaction_amount * 100) !== charge.amount_cents) {
    return refuse(
      422,
      "webhook_wrong_amount",
      eventId,
      `payment ${dataId}: ${payment.transaction_amount} for a charge of ${charge.amount_cents} centavos`,
    );
  }
  const e2e = [
    payment.point_of_interaction?.transaction_data?.e2e_id,
    payment.transaction_details?.transaction_id,
  ].find((v): v is string => typeof v === "string" && E2E_ID.test(v));
  return settleNotifiedCharge(charge, {
    provider: "mercadopago",
    eventId,
    detail: `payment ${dataId} approved`,
    e2e: e2e ?? null,
  });
}
