import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { UserRow } from "../../db/schema";
import { apiT } from "~/services/platform/i18n.server";
import { assertRoleFor, type Operation } from "~/services/platform/roles.server";
import { api, methodNotAllowed } from "./api.server";
import { requireApiAccount, requireApiUser } from "./auth.server";
import {
  DELIVERY_FORM,
  ENTRY_FORM,
  formValues,
  MESSAGE_FORM,
  queryOf,
  readFilesForm,
  readJson,
  readOptionalJson,
  readIdentityForm,
  readPhotoForm,
  readCertificateForm,
} from "./bodies.server";
import { idParams } from "./params.server";
import { requireApiOperator } from "./operator.server";

/**
 * What an API method reads from the request:
 * - `none`: no fields; a body sent anyway is held to the JSON rules (JSON, 1 MB) and dropped
 *   (on GET nothing is read);
 * - `json`: a JSON object (415 for another type, 413 over 1 MB, 400 when malformed);
 * - `optional-json`: the same, or no body at all (`{}`);
 * - `photo-form` / `image-form`: a url-encoded or multipart form with at most one image in
 *   `photo` / `image` (the image's own limit, reported on that field);
 * - `json-or-delivery` / `json-or-message`: JSON, or a multipart form whose `files` are kept
 *   apart, with a delivery's limits (10 files, 50 MB in all) or a message's (5 files and its text);
 * - `json-or-certificate`: JSON, or a form with at most one A1 certificate (`certificate`, 50 KB);
 * - `json-or-entry`: JSON, or a multipart form of a time entry whose one file (`file`, 10 MB) is
 *   kept apart (a file too large: 413 on `file`).
 */
export type BodyKind =
  | "none"
  | "json"
  | "optional-json"
  | "photo-form"
  | "image-form"
  | "identity-form"
  | "json-or-delivery"
  | "json-or-message"
  | "json-or-certificate"
  | "json-or-entry";

export type ApiContext = {
  request: Request;
  /** The signed-in user (a stand-in is never given: `auth: "public"` methods get none). */
  user: UserRow;
  /** The path's ids, each checked (a uuid, or 404 with its message). */
  params: Record<string, string>;
  /** The query string's parameters. */
  query: Record<string, string>;
  /** The body's fields (JSON, or the form's text fields). */
  body: Record<string, unknown>;
  /** The form, for `photo-form` / `image-form`. */
  form: FormData;
  /** The files of a `json-or-delivery` / `json-or-message` / `json-or-entry` body. */
  files: File[];
  /** Headers added to the answer (a Set-Cookie, say). */
  headers: Headers;
};

export type ApiMethod = {
  /**
   * `user` (default): a merchant's or freelancer's session or Bearer token, else 401 with
   * `unauthenticated`'s message; `operator`: the console's (/api/admin), 404 for anyone else;
   * `account`: any signed-in account, operators included (the account's own sessions and
   * two-factor sign-in).
   */
  auth?: "user" | "public" | "operator" | "account";
  unauthenticated?: string;
  /** The operation whose role rule is checked before the body is read (403 `forbidden_role`). */
  may?: Operation;
  body?: BodyKind;
  /** Path parameters that are ids, with the message key of their 404 (`not_found` by default). */
  ids?: Record<string, string>;
  /** The success status (200 by default) and the message key added to the answer as `message`. */
  status?: number;
  message?: string;
  /** Answers carry `success: true` or `success: false`, refusals included (registration). */
  success?: boolean;
  /** The answer's fields (the message is added after them), or a whole Response (files). */
  handle: (ctx: ApiContext) => Promise<Record<string, unknown> | Response>;
};

type Methods = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", ApiMethod>>;

const FILES_FORMS = { "json-or-delivery": DELIVERY_FORM, "json-or-message": MESSAGE_FORM, "json-or-entry": ENTRY_FORM };

async function readBody(request: Request, kind: BodyKind) {
  const none = { body: {}, form: new FormData(), files: [] as File[] };
  switch (kind) {
    case "json":
      return { ...none, body: await readJson(request) };
    case "none":
    case "optional-json":
      return request.method === "GET" || request.method === "HEAD"
        ? none
        : { ...none, body: await readOptionalJson(request) };
    case "photo-form":
    case "image-form": {
      const form = await readPhotoForm(request, kind === "photo-form" ? "photo" : "image");
      return { ...none, form, body: formValues(form) };
    }
    case "identity-form": {
      const form = await readIdentityForm(request);
      return { ...none, form, body: formValues(form) };
    }
    case "json-or-certificate": {
      if (/json/i.test(request.headers.get("Content-Type") ?? "")) return { ...none, body: await readJson(request) };
      const form = await readCertificateForm(request);
      return { ...none, form, body: formValues(form) };
    }
    case "json-or-delivery":
    case "json-or-message":
    case "json-or-entry": {
      if (/json/i.test(request.headers.get("Content-Type") ?? "")) return { ...none, body: await readJson(request) };
      const { values, files } = await readFilesForm(request, FILES_FORMS[kind]);
      return { ...none, body: values, files };
    }
  }
}

async function run(spec: ApiMethod, { request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const user =
    spec.auth === "public"
      ? (undefined as unknown as UserRow)
      : spec.auth === "operator"
        ? await requireApiOperator(request)
        : spec.auth === "account"
          ? await requireApiAccount(request, spec.unauthenticated ?? "session_missing")
          : await requireApiUser(request, spec.unauthenticated ?? "session_missing");
  if (spec.may) assertRoleFor(user, spec.may);
  const { body, form, files } = await readBody(request, spec.body ?? "none");
  const ids = idParams(params, spec.ids ?? {});
  const headers = new Headers();
  const result = await spec.handle({
    request,
    user,
    params: { ...(params as Record<string, string>), ...ids },
    query: queryOf(request),
    body,
    form,
    files,
    headers,
  });
  if (result instanceof Response) return result;
  const answer = {
    ...(spec.success ? { success: true } : {}),
    ...result,
    ...(spec.message ? { message: apiT(spec.message) } : {}),
  };
  return json(answer, { status: spec.status ?? 200, headers });
}

/**
 * An API route as a declaration: per method, who may call it, what body it reads, which path
 * parameters are ids, and the success status and message; `handle` calls the service. Writes
 * from another site are refused (403) and refusals become JSON errors with their status
 * (`api()`); a method not declared answers 405.
 *
 *   export const { loader, action } = apiRoute({
 *     POST: { may: "opportunity.create", body: "json", status: 201, message: "opportunity_created",
 *             handle: async ({ user, body }) => ({ data: await createOpportunity(user, body) }) },
 *   });
 */
export function apiRoute(methods: Methods) {
  const { GET, ...writes } = methods;
  // The console's routes (/api/admin) keep their door shut for an undeclared method too: a
  // visitor gets the 401 and anyone but an operator the 404 of a declared one, not a 405 that
  // says the route is there.
  const operatorOnly = Object.values(methods).every((spec) => spec?.auth === "operator");
  const notAllowed = operatorOnly
    ? api(async ({ request }: LoaderFunctionArgs | ActionFunctionArgs) => {
        await requireApiOperator(request);
        return methodNotAllowed();
      })
    : methodNotAllowed;
  const loader = GET ? api<LoaderFunctionArgs>((args) => run(GET, args)) : notAllowed;
  const write = (args: ActionFunctionArgs) => writes[args.request.method as keyof typeof writes];
  const dispatch = api<ActionFunctionArgs>(async (args) => {
    const spec = write(args);
    return spec ? run(spec, args) : notAllowed(args);
  });
  const action = !Object.keys(writes).length
    ? notAllowed
    : async (args: ActionFunctionArgs) => {
        const response = await dispatch(args);
        if (!write(args)?.success || response.status < 400) return response;
        const body = await response.json();
        return json({ success: false, ...body }, { status: response.status, headers: response.headers });
      };
  return { loader, action };
}
