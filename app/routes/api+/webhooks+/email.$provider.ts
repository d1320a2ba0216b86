import { json, type ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, withApiHeaders } from "~/web/api.server";
import { readLimited } from "~/web/bodies.server";
import { apiErrorResponse } from "~/web/errors.server";
import { receiveEmailWebhook } from "~/services/platform/email-suppressions.server";

export const loader = methodNotAllowed;

/** A bounce or complaint notification is small; anything larger is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * The e-mail provider's bounces and complaints (`mailgun`, or `generic`). Outside the session
 * and the same-origin check on purpose: the provider's server calls it, and only its signature is
 * trusted. 404 while the provider's secret is not set.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    const outcome = await receiveEmailWebhook(params.provider ?? "", {
      headers: request.headers,
      body: await readLimited(request, MAX_WEBHOOK_BYTES),
    });
    return withApiHeaders(json({ received: true, outcome }));
  } catch (error) {
    return withApiHeaders(apiErrorResponse(error, request));
  }
}
