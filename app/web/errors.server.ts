import { json } from "@remix-run/node";
import { isUnavailable } from "../../db/dialect";
import { AppError, describeError } from "~/services/platform/errors.server";
import { apiT, fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "./i18n.server";
import { logError, logger, requestIdOf } from "~/services/platform/log.server";

/** The request's id in an API error body (`error_code`), so support can find its log line. */
const errorCode = (request: Request | undefined) => {
  const id = requestIdOf(request);
  return id ? { error_code: id } : {};
};

// From an error to an answer, for each door: the API (JSON in Portuguese), a page form (the form
// again with its messages and what was typed), a page loader (the error page's status) and a file
// route (a bare 404). A refusal is an AppError (status, message key, field errors); the database
// out of reach is a 503 with Retry-After; anything else is a server error and is rethrown (pages)
// or logged and answered 500 (API).

/** API: the refusal's status and `{ message, errors? }`; 503 while the database is out of reach. */
export function apiErrorResponse(error: unknown, request?: Request): Response {
  if (error instanceof Response) return error;
  if (error instanceof AppError) {
    return json(describeError(error, apiT), { status: error.status, headers: error.headers });
  }
  if (isUnavailable(error)) {
    // PostgreSQL is restarting or out of reach: a passing state, the client may try again.
    logger.error({ req_id: requestIdOf(request) }, `[db] ${error instanceof Error ? error.message : error}`);
    return json(
      { message: apiT("database_unavailable"), ...errorCode(request) },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
  logError(error, "error", request);
  return json({ message: apiT("internal_error"), ...errorCode(request) }, { status: 500 });
}

export type FormErrorData = {
  message?: string;
  /** What else the refusal says, e.g. contact_detected (the form offers to send anyway). */
  code?: string;
  /** A message's files held by the contact notice, sent again by their ids. */
  pending_files?: { id: string; name: string }[];
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

/**
 * Page forms: a refusal becomes action data with the translated messages and what the user typed
 * (passwords, the account's and a certificate's, excepted), so the form re-renders with nothing lost.
 */
export async function formError(request: Request, error: unknown, values: Record<string, string>) {
  if (!(error instanceof AppError)) throw error;
  const { t } = await getRequestT(request);
  const { password: _password, certificate_password: _certificate, ...kept } = values;
  return json({ ...describeError(error, t), values: kept }, { status: error.status, headers: error.headers });
}

/**
 * Page loaders: the HTTP answer the page's error boundary shows for a refusal (not found or not
 * yours is 404 either way, so nobody learns what exists). Anything else is returned as it is.
 */
export function loaderRefusal(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const t = fixedT("pt-BR");
  return new Response(JSON.stringify({ message: t(error.key, error.params) }), {
    status: error.status === 403 ? 404 : error.status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

/** Page loaders: the service's answer, or its refusal as the page's error (see loaderRefusal). */
export async function orRefusal<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw loaderRefusal(error);
  }
}

const notFoundText = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

/**
 * File routes of pages (photos, contract and message files): no file (null) or a refusal of the
 * service is a bare 404, whatever the reason (nobody learns what exists); the database out of
 * reach is a 503 with Retry-After; a redirect (to the login page) goes through.
 */
export async function fileRoute(read: () => Promise<Response | null>): Promise<Response> {
  try {
    return (await read()) ?? notFoundText();
  } catch (error) {
    if (error instanceof AppError && error.status === 503) {
      // The file store out of reach (uploads.server.ts): a passing state, not a missing file.
      const headers = new Headers(error.headers);
      headers.set("Content-Type", "text/plain; charset=utf-8");
      headers.set("Cache-Control", "no-store");
      return new Response(apiT(error.key), { status: 503, headers });
    }
    if (error instanceof AppError) return notFoundText();
    if (isUnavailable(error)) {
      logger.error(`[db] ${error instanceof Error ? error.message : error}`);
      return new Response(apiT("database_unavailable"), {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" },
      });
    }
    throw error;
  }
}
