import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { db } from "../../db";
import { createUser, type UserOverrides } from "../../db/factories";
import { createSession } from "~/services/accounts/sessions.server";
import type { Mail } from "~/services/platform/mail.server";
import { drainOutbox } from "~/services/platform/outbox.server";

export const BASE = "http://localhost";

type Handler = (args: ActionFunctionArgs | LoaderFunctionArgs) => Promise<Response> | Response;

/** Calls a route's loader or action as Remix would, and reads the JSON answer. */
export async function call(handler: Handler, request: Request, params: Record<string, string> = {}) {
  let response: Response;
  try {
    response = await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

export function jsonRequest(
  path: string,
  body?: unknown,
  options: { method?: string; token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return new Request(BASE + path, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A user with a live session: the factory's row plus its bearer token. */
export async function signedInUser(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  const { token } = await createSession(user.id);
  return { user, token };
}

/** Sends what the outbox holds now and answers the e-mails that went to `to` (none really leave). */
export async function mailsTo(to: string): Promise<Mail[]> {
  const sent: Mail[] = [];
  await drainOutbox({ send: async (mail) => void sent.push(mail), limit: 1_000 });
  return sent.filter((mail) => mail.to === to);
}

/** A multipart form (files as Blobs) posted with `token`'s session, as a browser or a client sends it. */
export function multipartRequest(path: string, token: string, fields: Record<string, string | Blob>, method = "POST") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return new Request(BASE + path, { method, body: form, headers: { Authorization: `Bearer ${token}` } });
}
