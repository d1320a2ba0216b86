import { json, type ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, withApiHeaders } from "~/web/api.server";
import { readLimited } from "~/web/bodies.server";
import { apiErrorResponse } from "~/web/errors.server";
import { receiveMercadoPagoWebhook } from "~/services/payments/webhooks.server";

export const loader = methodNotAllowed;

/** Notifications are small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * Mercado Pago's payment notifications. Outside the session and the same-origin check on
 * purpose: the provider's server calls it, and only its signature (x-signature over data.id,
 * x-request-id and the timestamp) is trusted.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const url = new URL(request.url);
    const result = await receiveMercadoPagoWebhook({
      dataId: url.searchParams.get("data.id") ?? url.searchParams.get("id"),
      type: url.searchParams.get("type") ?? url.searchParams.get("topic"),
      signature: request.headers.get("x-signature"),
      requestId: request.headers.get("x-request-id"),
      body: await readLimited(request, MAX_WEBHOOK_BYTES),
    });
    return withApiHeaders(json({ received: true, outcome: result.outcome }));
  } catch (error) {
    return withApiHeaders(apiErrorResponse(error, request));
  }
}
