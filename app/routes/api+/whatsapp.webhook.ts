import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, withApiHeaders } from "~/web/api.server";
import { readLimitedBytes } from "~/web/bodies.server";
import { apiErrorResponse } from "~/web/errors.server";
import { AppError } from "~/services/platform/errors.server";
import { receiveWebhook, validSignature, verifyHandshake } from "~/services/messaging/whatsapp.server";
import { whileWhatsappOn } from "~/web/whatsapp.server";

/** A notification of statuses and messages is small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 256 * 1024;

/**
 * Meta's Cloud API webhook. Outside the session and the same-origin check on purpose: Meta's
 * servers call it, and only its signature (X-Hub-Signature-256, the app secret's HMAC of the raw
 * body) is trusted. GET is the handshake of its set-up (hub.verify_token, echoing hub.challenge).
 * 404 while WhatsApp is off.
 */
export const { loader, action } = whileWhatsappOn({
  loader: async ({ request }: LoaderFunctionArgs) => {
    const challenge = verifyHandshake(new URL(request.url).searchParams);
    if (challenge === null)
      return withApiHeaders(apiErrorResponse(new AppError(403, "whatsapp_handshake_refused"), request));
    return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  },
  action: async ({ request }: ActionFunctionArgs) => {
    if (request.method !== "POST") return methodNotAllowed();
    try {
      const raw = await readLimitedBytes(request, MAX_WEBHOOK_BYTES);
      // Nothing of an unsigned body is read.
      if (!validSignature(request.headers.get("X-Hub-Signature-256"), raw)) {
        throw new AppError(401, "webhook_bad_signature");
      }
      return withApiHeaders(json({ received: true, ...(await receiveWebhook(raw)) }));
    } catch (error) {
      return withApiHeaders(apiErrorResponse(error, request));
    }
  },
});
