import { json, type ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, withApiHeaders } from "~/web/api.server";
import { readLimited } from "~/web/bodies.server";
import { apiErrorResponse } from "~/web/errors.server";
import { receivePixAutomaticoWebhook } from "~/services/payments/recurring.server";

export const loader = methodNotAllowed;

/** Notifications are small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * Pix Automático's notifications of recurrences and recurring charges. Outside the session and the
 * same-origin check on purpose: the PSP's server calls it, and only its signature is trusted.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const result = await receivePixAutomaticoWebhook({
      signature: request.headers.get("x-signature"),
      body: await readLimited(request, MAX_WEBHOOK_BYTES),
    });
    return withApiHeaders(json({ received: true, outcomes: result.outcomes }));
  } catch (error) {
    return withApiHeaders(apiErrorResponse(error, request));
  }
}
