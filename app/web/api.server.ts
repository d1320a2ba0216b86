import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { assertSameOrigin } from "./csrf.server";
import { isUnavailable } from "../../db/dialect";
import { AppError, describeError } from "~/services/platform/errors.server";
import { apiT } from "~/services/platform/i18n.server";
import { refuseUntypeable } from "./input.server";
import { applySecurityHeaders } from "./security.server";

export const MAX_JSON_BYTES = 1024 * 1024;

/** Reads a JSON object body: 415 for another content type, 413 over 1 MB, 400 when malformed. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw refuseBody(request, 415, "unsupported_media_type");
  const body = parseJsonObject(await readLimited(request, MAX_JSON_BYTES));
  refuseUntypeable(body);
  return body;
}

function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new AppError(400, "malformed_json");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(400, "json_not_object");
  }
  return value as Record<string, unknown>;
}

/** Like readJson, for endpoints whose body may be left out: no body and no content type is `{}`. */
export async function readOptionalJson(request: Request): Promise<Record<string, unknown>> {
  if (request.headers.get("Content-Type")) return readJson(request);
  // The server hands every POST a body stream, empty or not, so emptiness is known by reading.
  if ((await readLimitedBytes(request, MAX_JSON_BYTES)).byteLength === 0) return {};
  throw new AppError(415, "unsupported_media_type");
}

/**
 * A URL's query string as a plain object, for the list schemas; a parameter holding control
 * characters is a 422 naming it, like a body field.
 */
export function queryOf(request: Request): Record<string, string> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  refuseUntypeable(query);
  return query;
}

/** Reads the body as text, stopping at the limit instead of buffering whatever is sent. */
export async function readLimited(request: Request, limit: number) {
  return (await readLimitedBytes(request, limit)).toString("utf8");
}

/** The next piece of a body; 400 when the client went away mid-body. */
export async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch {
    // Nobody reads the answer then, but it is no server error either.
    throw new AppError(400, "body_incomplete");
  }
}

/** The body's bytes: 413 past the limit (declared or actual), without buffering the rest. */
export async function readLimitedBytes(request: Request, limit: number): Promise<Buffer> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) {
    throw refuseBody(request, 413, "payload_too_large");
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await nextChunk(reader);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      discard(reader);
      throw new AppError(413, "payload_too_large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** How much of a refused body is still read (and dropped) so the client gets to see the refusal. */
const DISCARD_BYTES = 16 * 1024 * 1024;

/**
 * The error for a body refused without being read; the body is drained in the background.
 * Closing the stream instead would reset the connection before the answer goes out, and the
 * client, still sending, would see a network error rather than the 413 or 415.
 */
export function refuseBody(request: Request, status: number, key: string) {
  if (request.body && !request.bodyUsed) discard(request.body.getReader());
  return new AppError(status, key);
}

export function discard(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let left = DISCARD_BYTES;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        left -= value.byteLength;
        // Past this the client is not uploading by mistake: the connection is cut.
        if (left < 0) return void (await reader.cancel());
      }
    } catch {
      // The client went away.
    }
  })();
}

export function apiErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof AppError) {
    return json(describeError(error, apiT), { status: error.status, headers: error.headers });
  }
  if (isUnavailable(error)) {
    // PostgreSQL is restarting or out of reach: a passing state, the client may try again.
    console.error(`[db] ${error instanceof Error ? error.message : error}`);
    return json({ message: apiT("database_unavailable") }, { status: 503, headers: { "Retry-After": "5" } });
  }
  console.error(error);
  return json({ message: apiT("internal_error") }, { status: 500 });
}

const notFoundText = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

/**
 * Resource routes that serve a file to a page (photos, contract and message files): a refusal of
 * the service is a plain 404 (nobody learns what exists), the database out of reach a 503 with
 * Retry-After; a redirect (to the login page) goes through.
 */
export async function fileRoute(work: () => Promise<Response | null>): Promise<Response> {
  try {
    return (await work()) ?? notFoundText();
  } catch (error) {
    if (error instanceof AppError) return notFoundText();
    if (isUnavailable(error)) {
      console.error(`[db] ${error instanceof Error ? error.message : error}`);
      return new Response(apiT("database_unavailable"), {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" },
      });
    }
    throw error;
  }
}

type Handler<A> = (args: A) => Promise<Response>;

/**
 * Wraps an API loader or action: writes from another site are refused, and refusals become
 * JSON errors with their status.
 */
export function api<A extends LoaderFunctionArgs | ActionFunctionArgs>(handler: Handler<A>) {
  return async (args: A) => {
    let response: Response;
    try {
      assertSameOrigin(args.request);
      response = await handler(args);
    } catch (error) {
      response = apiErrorResponse(error);
    }
    return withApiHeaders(response);
  };
}

/**
 * API answers skip entry.server (they come from resource routes), so they get the common
 * security headers here; JSON is never a document to render, frame or keep in a shared cache.
 */
export function withApiHeaders(response: Response) {
  applySecurityHeaders(response.headers);
  if (!response.headers.has("Content-Security-Policy")) {
    response.headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  }
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}

/** For endpoints that take only some methods. */
export function methodNotAllowed() {
  return withApiHeaders(json({ message: apiT("method_not_allowed") }, { status: 405 }));
}

/**
 * The action of an endpoint that takes only POST: any other method gets the 405, after the
 * same-origin check of api() (so a cross-site write is still a 403 whatever its method).
 */
export function apiPost(handler: Handler<ActionFunctionArgs>) {
  return api<ActionFunctionArgs>((args) =>
    args.request.method === "POST" ? handler(args) : Promise.resolve(methodNotAllowed()),
  );
}
