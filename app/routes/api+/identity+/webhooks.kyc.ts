import { json, type ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, withApiHeaders } from "~/web/api.server";
import { readLimited } from "~/web/bodies.server";
import { apiErrorResponse } from "~/web/errors.server";
import { receiveIdentityWebhook } from "~/services/accounts/identity-provider.server";

export const loader = methodNotAllowed;

/** A result is small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * The automatic identity provider's results (IDENTITY_PROVIDER=kyc). Outside the session and the
 * same-origin check on purpose: the provider's server calls it, and only its signature
 * (x-kyc-signature over the timestamp and the raw body) is trusted.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const result = await receiveIdentityWebhook({
      signature: request.headers.get("x-kyc-signature"),
      timestamp: request.headers.get("x-kyc-timestamp"),
      body: await readLimited(request, MAX_WEBHOOK_BYTES),
    });
    return withApiHeaders(json({ received: true, outcome: result.outcome }));
  } catch (error) {
    return withApiHeaders(apiErrorResponse(error, request));
  }
}
