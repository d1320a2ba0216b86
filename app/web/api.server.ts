import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { assertSameOrigin } from "./csrf.server";
import { apiErrorResponse } from "./errors.server";
import { apiT } from "~/services/platform/i18n.server";
import { applySecurityHeaders } from "./security.server";

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
      response = apiErrorResponse(error, args.request);
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
