// The hostile suite's tables (endpoints, fields, page forms) and the functions that generate the
// cases from them: each case is a request and the statuses that are right for it.
import { createHmac } from "node:crypto";
import { BUDGET_TYPES, CATEGORIES, LOCATION_TYPES, MAX_CENTS } from "../../../app/lib/market-constants";
import { SAVED_SEARCH_FREQUENCIES } from "../../../app/lib/market-schemas";
import { typeable } from "../../../app/lib/schemas";
import { PNG_1X1, validApplication, validOpportunity, validService } from "../../support/fixtures";
import {
  BAD_IDS,
  ODD,
  OFFSITE_REDIRECTS,
  SEARCHES,
  int,
  oneOf,
  refusedForm,
  refusedJson,
  text,
  type Field,
} from "./values";
import { Pool, unique, type Actor, type Auth, type Body, type Case, type Role, type World } from "./harness";

// ---------------------------------------------------------------------------------------------
// The tables

const opportunityFields: Field[] = [
  text("title", 5, 120),
  text("description", 20, 5000),
  oneOf("category", CATEGORIES),
  { name: "skills", kind: { type: "tags", max: 10 } },
  oneOf("budget_type", BUDGET_TYPES),
  int("budget_min_cents", 1, MAX_CENTS),
  int("budget_max_cents", 1, MAX_CENTS),
  { name: "deadline", kind: { type: "date" } },
  oneOf("location_type", LOCATION_TYPES),
  text("city", 2, 80, false),
  int("vacancies", 1, 20, false),
];

/** The same fields for a partial update: a missing or emptied field means "unchanged". */
const patchFields: Field[] = opportunityFields.map((f) =>
  f.kind.type === "int" || f.kind.type === "enum" ? { ...f, kind: { ...f.kind, required: false } } : f,
);

export type ApiBodyEndpoint = {
  name: string;
  method: string;
  path: (a: Actor | null, w: World) => string;
  /** Who may call it: a pool actor of a role, a fixed token, or anyone. */
  who: Role | ((w: World) => string) | "anyone";
  base: () => Record<string, unknown>;
  fields: Field[];
  /** A body is optional (or ignored): no body at all is fine. */
  optional?: boolean;
  /** What a well-formed string matching nothing answers in a `key` field (login: 401). */
  keyMiss?: number;
  /** A 422 key miss is the form's message alone, on no field (an unknown link). */
  keyMissOnNoField?: boolean;
  /** A form is taken as well as JSON (a time entry with its file): a form's content type is no wrong type. */
  forms?: boolean;
};

const loginFields: Field[] = [
  { name: "email", kind: { type: "key", max: 254 } },
  { name: "password", kind: { type: "key", max: 1024 } },
];

/** A time entry's body and fields (hourly contracts), for logging one and changing one. */
const timeEntryBody = {
  base: () => ({ day: "2026-11-30", minutes: 60, description: "Implementei a tela de login." }),
  fields: [{ name: "day", kind: { type: "key", max: 10 } }, int("minutes", 1, 1440), text("description", 10, 2000)],
  keyMiss: 422,
} satisfies Partial<ApiBodyEndpoint>;

export const API_BODY: ApiBodyEndpoint[] = [
  {
    name: "register",
    method: "POST",
    path: () => "/api/register",
    who: "anyone",
    base: () => ({ full_name: "Pessoa De Teste", email: unique("hostil"), password: "senha-segura-1", account_type: "freelancer" }),
    fields: [
      text("full_name", 3, 120),
      text("display_name", 2, 60, false),
      { name: "email", kind: { type: "email" } },
      { name: "password", kind: { type: "password" } },
      oneOf("account_type", ["merchant", "freelancer"]),
    ],
  },
  ...["/api/login", "/api/auth/signin"].map(
    (path): ApiBodyEndpoint => ({
      name: path.slice(5),
      method: "POST",
      path: () => path,
      who: "anyone",
      base: () => ({ email: unique("ninguem"), password: "senha-errada-1" }),
      fields: loginFields,
      keyMiss: 401,
    }),
  ),
  {
    name: "create opportunity",
    method: "POST",
    path: () => "/api/opportunities",
    who: "merchant",
    base: () => ({ ...validOpportunity }),
    fields: opportunityFields,
  },
  {
    name: "create service",
    method: "POST",
    path: () => "/api/services",
    who: "freelancer",
    base: () => ({ ...validService }),
    fields: [
      text("title", 10, 120),
      oneOf("category", CATEGORIES),
      text("description", 50, 5000),
      { name: "skills", kind: { type: "tags", max: 10 } },
    ],
  },
  {
    // The fields are checked before the service is looked for: a refused value is 422 on any id.
    name: "order service",
    method: "POST",
    path: () => "/api/services/00000000-0000-4000-8000-000000000000/orders",
    who: "merchant",
    base: () => ({ package_index: 0, extras: [], expected_total_cents: 15_000 }),
    fields: [int("package_index", 0, 2), int("expected_total_cents", 1, Number.MAX_SAFE_INTEGER)],
  },
  {
    name: "saved search",
    method: "POST",
    path: () => "/api/saved-searches",
    who: "freelancer",
    base: () => ({ name: "Busca salva", frequency: "daily" }),
    fields: [text("name", 1, 80), oneOf("frequency", SAVED_SEARCH_FREQUENCIES)],
  },
  {
    name: "update opportunity",
    method: "PATCH",
    path: (a) => `/api/opportunities/${a!.opp}`,
    who: "merchant",
    base: () => ({}),
    fields: patchFields,
  },
  {
    name: "apply",
    method: "POST",
    path: (a) => `/api/opportunities/${a!.opp}/applications`,
    who: "freelancer",
    base: () => ({ ...validApplication }),
    fields: [text("cover_letter", 20, 5000), int("price_cents", 1, MAX_CENTS), int("delivery_days", 1, 365)],
  },
  {
    name: "counter",
    method: "POST",
    path: (a) => `/api/applications/${a!.app}/offers`,
    who: "freelancer",
    base: () => ({ price_cents: 100_000, delivery_days: 10, message: "Proposta" }),
    fields: [int("price_cents", 1, MAX_CENTS), int("delivery_days", 1, 365), text("message", 1, 2000, false)],
  },
  {
    name: "accept",
    method: "POST",
    path: (a) => `/api/applications/${a!.app}/accept`,
    who: "freelancer",
    base: () => ({}),
    fields: [{ name: "offer_id", kind: { type: "key", max: 100 } }],
    // Not this freelancer's turn: an id that parses is a conflict, whatever it names.
    keyMiss: 409,
  },
  {
    name: "reject",
    method: "POST",
    path: (a) => `/api/applications/${a!.app}/reject`,
    who: "merchant",
    base: () => ({}),
    fields: [text("message", 1, 2000, false)],
    optional: true,
  },
  {
    name: "notifications read",
    method: "POST",
    path: () => "/api/notifications/read",
    who: (w) => w.julia,
    base: () => ({}),
    fields: [{ name: "ids", kind: { type: "ids" } }],
    optional: true,
  },
  // Endpoints without fields still hold a body sent anyway to the rules.
  { name: "close", method: "POST", path: (a) => `/api/opportunities/${a!.opp}/close`, who: "merchant", base: () => ({}), fields: [], optional: true },
  { name: "reopen", method: "POST", path: (a) => `/api/opportunities/${a!.opp}/reopen`, who: "merchant", base: () => ({}), fields: [], optional: true },
  { name: "delete opportunity", method: "DELETE", path: (a) => `/api/opportunities/${a!.opp}`, who: "merchant", base: () => ({}), fields: [], optional: true },
  { name: "withdraw", method: "POST", path: (a) => `/api/applications/${a!.app}/withdraw`, who: "freelancer", base: () => ({}), fields: [], optional: true },
  { name: "logout", method: "POST", path: () => "/api/logout", who: (w) => w.logoutToken, base: () => ({}), fields: [], optional: true },
  // Contract moves read and check their body before looking at the contract, so a pool user (no
  // side of Júlia's contract) gets the body's refusal; a valid body would be a 404.
  {
    name: "change request",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/change-requests`,
    who: "merchant",
    base: () => ({}),
    fields: [text("message", 1, 4000)],
  },
  ...(["cancel", "cancellation-requests"] as const).map(
    (action): ApiBodyEndpoint => ({
      name: `contract ${action}`,
      method: "POST",
      path: (_a, w) => `/api/contracts/${w.seeded.accepted}/${action}`,
      who: "merchant",
      base: () => ({}),
      fields: [text("reason", 5, 2000)],
    }),
  ),
  {
    name: "review",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/reviews`,
    who: "merchant",
    base: () => ({ rating: 5 }),
    fields: [int("rating", 1, 5), text("comment", 0, 1000, false)],
  },
  {
    name: "review reply",
    method: "POST",
    path: () => "/api/reviews/00000000-0000-4000-8000-000000000000/reply",
    who: "freelancer",
    base: () => ({}),
    fields: [text("reply", 1, 1000)],
  },
  {
    name: "invitation",
    method: "POST",
    path: (a) => `/api/opportunities/${a!.opp}/invitations`,
    who: "merchant",
    base: () => ({ freelancer_id: "00000000-0000-4000-8000-000000000000" }),
    fields: [text("message", 1, 500)],
  },
  ...["approve", "cancellation-requests/accept", "cancellation-requests/decline"].map(
    (action): ApiBodyEndpoint => ({
      name: `contract ${action}`,
      method: "POST",
      path: (_a, w) => `/api/contracts/${w.seeded.accepted}/${action}`,
      who: "merchant",
      base: () => ({}),
      fields: [],
      optional: true,
    }),
  ),
];

// Payments: the payout key (checked by type and check digits: a well-formed string that is no
// valid key or document is a 422 on its field), and an extra milestone on a contract (without
// payments on the server, a valid body is a 409; every refused field is a 422 first).
API_BODY.push(
  {
    name: "payout account",
    method: "POST",
    path: () => "/api/payout-account",
    who: "freelancer",
    base: () => ({
      key_type: "cpf",
      pix_key: "529.982.247-25",
      holder_name: "Pessoa Recebedora",
      holder_document: "529.982.247-25",
    }),
    fields: [
      oneOf("key_type", ["cpf", "cnpj", "email", "phone", "evp"]),
      { name: "pix_key", kind: { type: "key", max: 100 } },
      text("holder_name", 3, 120),
      { name: "holder_document", kind: { type: "key", max: 30 } },
    ],
    keyMiss: 422,
  },
  // Identity: the fiscal record (a well-formed string that is no valid CPF is a 422 on its field).
  {
    name: "identity",
    method: "POST",
    path: () => "/api/identity",
    who: "freelancer",
    base: () => ({ kind: "person", document: "11345235135", legal_name: "Pessoa Recebedora", birth_date: "1990-05-17" }),
    fields: [
      oneOf("kind", ["person", "company"]),
      { name: "document", kind: { type: "key", max: 30 } },
      text("legal_name", 5, 150),
      { name: "birth_date", kind: { type: "key", max: 10 } },
    ],
    keyMiss: 422,
  },
  {
    name: "propose milestone",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/milestones/proposals`,
    who: (w) => w.julia,
    base: () => ({ title: "Versão em inglês", amount_cents: 50_000, days: 5 }),
    fields: [text("title", 3, 120), int("amount_cents", 1, MAX_CENTS), int("days", 1, 365)],
  },
  // Hourly contracts' time entries: every field refused before the contract and week are looked up.
  // (timeEntryBody, above: the same body and fields for both.)
  {
    name: "log time entry",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/entries`,
    who: "freelancer",
    ...timeEntryBody,
    forms: true,
  },
  {
    name: "edit time entry",
    method: "PATCH",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/entries/${NO_ID}`,
    who: "freelancer",
    ...timeEntryBody,
  },
  {
    name: "answer time entry question",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/entries/${NO_ID}/answer`,
    who: "freelancer",
    base: () => ({ answer: "Foram duas horas de testes." }),
    fields: [text("answer", 2, 2000)],
  },
  // The operator's payments desk: every field refused before the (missing) record is looked up.
  {
    name: "admin confirm receipt",
    method: "POST",
    path: () => `/api/admin/payments/charges/${NO_ID}/confirm`,
    who: (w) => w.operator,
    base: () => ({ e2e_id: "E".padEnd(32, "0"), amount_cents: 100 }),
    fields: [{ name: "e2e_id", kind: { type: "key", max: 32 } }, int("amount_cents", 1, MAX_CENTS)],
    keyMiss: 422,
  },
  {
    name: "admin payout paid",
    method: "POST",
    path: () => `/api/admin/payments/payouts/${NO_ID}/paid`,
    who: (w) => w.operator,
    base: () => ({ e2e_id: "E".padEnd(32, "0") }),
    fields: [{ name: "e2e_id", kind: { type: "key", max: 32 } }],
    keyMiss: 422,
  },
  {
    name: "admin payout failed",
    method: "POST",
    path: () => `/api/admin/payments/payouts/${NO_ID}/failed`,
    who: (w) => w.operator,
    base: () => ({ reason: "Chave Pix encerrada." }),
    fields: [text("reason", 5, 500)],
  },
  {
    name: "admin refund paid",
    method: "POST",
    path: () => `/api/admin/payments/refunds/${NO_ID}/paid`,
    who: (w) => w.operator,
    base: () => ({ e2e_id: "E".padEnd(32, "0") }),
    fields: [{ name: "e2e_id", kind: { type: "key", max: 32 } }],
    keyMiss: 422,
  },
);

// The account's own endpoints: the e-mail and its confirmation, sessions, two-factor. Fields that
// a wrong password would follow are checked before it (a pool actor never reaches the password,
// so the suite does not spend the account's sign-in attempts); the bodies of the rest are held
// to the JSON rules.
API_BODY.push(
  {
    name: "email change",
    method: "POST",
    path: () => "/api/email",
    who: "freelancer",
    base: () => ({ email: unique("novo"), password: "senha-errada-1" }),
    fields: [{ name: "email", kind: { type: "email" } }],
  },
  {
    name: "verify email",
    method: "POST",
    path: () => "/api/verify-email",
    who: "anyone",
    base: () => ({}),
    fields: [{ name: "token", kind: { type: "key", max: 200 } }],
    keyMiss: 422,
    keyMissOnNoField: true,
  },
  { name: "verification resend", method: "POST", path: () => "/api/verify-email/resend", who: "freelancer", base: () => ({}), fields: [], optional: true },
  {
    name: "end session by link",
    method: "POST",
    path: () => "/api/sessions/end",
    who: "anyone",
    base: () => ({}),
    fields: [{ name: "token", kind: { type: "key", max: 200 } }],
    keyMiss: 410,
  },
  { name: "end other sessions", method: "DELETE", path: () => "/api/sessions/others", who: "freelancer", base: () => ({}), fields: [], optional: true },
  // The copy of one's data: no fields; the body is held to the JSON rules before anything is asked.
  { name: "data export", method: "POST", path: () => "/api/account/export", who: "freelancer", base: () => ({}), fields: [], optional: true },
  { name: "two-factor setup", method: "POST", path: () => "/api/two-factor/setup", who: "freelancer", base: () => ({}), fields: [] },
  {
    // A version that parses but is not the current one is a conflict.
    name: "accept terms",
    method: "POST",
    path: () => "/api/terms/accept",
    who: "freelancer",
    base: () => ({}),
    fields: [{ name: "version", kind: { type: "key", max: 40 } }],
    keyMiss: 409,
  },
  {
    // Not started for a pool actor: a code that parses is a conflict.
    name: "two-factor confirm",
    method: "POST",
    path: () => "/api/two-factor/confirm",
    who: "freelancer",
    base: () => ({}),
    fields: [{ name: "code", kind: { type: "key", max: 64 } }],
    keyMiss: 409,
  },
  {
    // Not on for a pool actor: a body that parses is a conflict, before the password is checked.
    name: "two-factor disable",
    method: "POST",
    path: () => "/api/two-factor/disable",
    who: "freelancer",
    base: () => ({ password: "senha-errada-1" }),
    fields: [{ name: "code", kind: { type: "key", max: 64 } }],
    keyMiss: 409,
  },
  // Passkeys: the browser's answer is one field (an object, or its JSON text); anything that is
  // not a well-formed answer is a 422 on it, before any lookup.
  { name: "passkey options", method: "POST", path: () => "/api/passkeys/options", who: "freelancer", base: () => ({}), fields: [], optional: true },
  {
    name: "passkey add",
    method: "POST",
    path: () => "/api/passkeys",
    who: "freelancer",
    base: () => ({}),
    fields: [{ name: "response", kind: { type: "key", max: 20_000 } }],
    keyMiss: 422,
  },
  {
    name: "passkey rename",
    method: "PATCH",
    path: () => `/api/passkeys/${"A".repeat(22)}`,
    who: "freelancer",
    base: () => ({ name: "Chave do notebook" }),
    fields: [text("name", 1, 60)],
  },
  {
    // Not on for a pool actor: a body that parses is a conflict, before the password is checked.
    name: "recovery codes",
    method: "POST",
    path: () => "/api/two-factor/recovery-codes",
    who: "freelancer",
    base: () => ({ password: "senha-errada-1" }),
    fields: [{ name: "code", kind: { type: "key", max: 64 } }],
    keyMiss: 409,
  },
  {
    // The new password is checked before the current one, which a pool actor never gets right.
    name: "password change",
    method: "POST",
    path: () => "/api/password",
    who: "freelancer",
    base: () => ({ password: "senha-errada-1", new_password: "senha-nova-123" }),
    fields: [{ name: "new_password", kind: { type: "password" } }],
  },
  {
    // The demo freelancer has a contract running: a body that parses is refused with 409 before
    // the password is checked (so the wrong ones here never count against her sign-in).
    name: "account deletion",
    method: "DELETE",
    path: () => "/api/account",
    who: (w) => w.julia,
    base: () => ({ password: "senha-errada-1" }),
    fields: [{ name: "password", kind: { type: "key", max: 1024 } }],
    keyMiss: 409,
  },
  { name: "passkey sign-in options", method: "POST", path: () => "/api/login/passkey/options", who: "anyone", base: () => ({}), fields: [], optional: true },
  {
    name: "passkey sign-in",
    method: "POST",
    path: () => "/api/login/passkey",
    who: "anyone",
    base: () => ({}),
    fields: [{ name: "response", kind: { type: "key", max: 20_000 } }],
    keyMiss: 422,
  },
);

const profileFields: Field[] = [
  text("full_name", 3, 120),
  text("display_name", 2, 60, false),
  text("bio", 0, 1000, false),
  { name: "skills", kind: { type: "tags", max: 15 } },
];

/** Every API endpoint of docs/product.md §7 that needs a session: method, path, role (null: any user). */
export function authedEndpoints(w: World, p: Pool): { method: string; path: string; role: Role | null; body?: unknown }[] {
  const m = p.actor("merchant");
  return [
    { method: "POST", path: "/api/logout", role: null },
    { method: "GET", path: "/api/profile", role: null },
    { method: "POST", path: "/api/profile", role: null },
    { method: "GET", path: "/api/opportunities", role: null },
    { method: "POST", path: "/api/opportunities", role: "merchant", body: validOpportunity },
    { method: "GET", path: `/api/opportunities/${m.opp}`, role: null },
    { method: "PATCH", path: `/api/opportunities/${m.opp}`, role: "merchant", body: { title: "Título novo válido" } },
    { method: "DELETE", path: `/api/opportunities/${m.opp}`, role: "merchant" },
    { method: "POST", path: `/api/opportunities/${m.opp}/close`, role: "merchant" },
    { method: "POST", path: `/api/opportunities/${m.opp}/reopen`, role: "merchant" },
    { method: "GET", path: `/api/opportunities/${m.opp}/suggestions`, role: "merchant" },
    { method: "GET", path: `/api/opportunities/${m.opp}/applications`, role: "merchant" },
    { method: "POST", path: `/api/opportunities/${m.opp}/applications`, role: "freelancer", body: validApplication },
    { method: "GET", path: "/api/my-applications", role: "freelancer" },
    { method: "POST", path: "/api/services", role: "freelancer", body: validService },
    { method: "GET", path: "/api/me/services", role: "freelancer" },
    { method: "PATCH", path: "/api/services/00000000-0000-4000-8000-000000000000", role: "freelancer", body: { title: "Título novo do serviço" } },
    { method: "DELETE", path: "/api/services/00000000-0000-4000-8000-000000000000", role: "freelancer" },
    { method: "POST", path: "/api/services/00000000-0000-4000-8000-000000000000/publish", role: "freelancer" },
    { method: "POST", path: "/api/services/00000000-0000-4000-8000-000000000000/pause", role: "freelancer" },
    { method: "POST", path: "/api/services/00000000-0000-4000-8000-000000000000/archive", role: "freelancer" },
    { method: "POST", path: "/api/services/00000000-0000-4000-8000-000000000000/orders", role: "merchant", body: { package_index: 0, expected_total_cents: 15_000 } },
    { method: "GET", path: "/api/services/00000000-0000-4000-8000-000000000000/quote?package=0", role: null },
    { method: "POST", path: "/api/contracts/00000000-0000-4000-8000-000000000000/order/answers", role: null, body: { answers: [] } },
    { method: "GET", path: "/api/saved-searches", role: "freelancer" },
    { method: "POST", path: "/api/saved-searches", role: "freelancer", body: { name: "Busca", frequency: "daily" } },
    { method: "GET", path: "/api/saved-searches/00000000-0000-4000-8000-000000000000", role: "freelancer" },
    { method: "PATCH", path: "/api/saved-searches/00000000-0000-4000-8000-000000000000", role: "freelancer", body: { name: "Busca" } },
    { method: "DELETE", path: "/api/saved-searches/00000000-0000-4000-8000-000000000000", role: "freelancer" },
    { method: "GET", path: "/api/applications/awaiting-confirmation", role: null },
    { method: "GET", path: `/api/applications/${m.app}`, role: null },
    { method: "POST", path: `/api/applications/${m.app}/offers`, role: null, body: { price_cents: 1000, delivery_days: 3 } },
    { method: "POST", path: `/api/applications/${m.app}/accept`, role: null, body: { offer_id: m.offer } },
    { method: "POST", path: `/api/applications/${m.app}/reject`, role: "merchant" },
    { method: "POST", path: `/api/applications/${m.app}/withdraw`, role: "freelancer" },
    { method: "GET", path: "/api/dashboard", role: null },
    { method: "GET", path: "/api/notifications", role: null },
    { method: "GET", path: "/api/conversations", role: null },
    { method: "GET", path: "/api/opportunities/recommended", role: "freelancer" },
    { method: "POST", path: "/api/notifications/read", role: null },
    { method: "GET", path: "/api/contracts", role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/deliveries`, role: null, body: { message: "Entrega" } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/approve`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/change-requests`, role: null, body: { message: "Ajustes" } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/cancel`, role: null, body: { reason: "Motivo válido" } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/cancellation-requests`, role: null, body: { reason: "Motivo válido" } },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/files/x`, role: null },
    { method: "GET", path: `/api/applications/${m.app}/messages`, role: null },
    { method: "POST", path: `/api/applications/${m.app}/messages`, role: null, body: { body: "Oi" } },
    { method: "GET", path: "/api/messages/unread", role: null },
    { method: "GET", path: "/api/events", role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/reviews`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/reviews`, role: null, body: { rating: 5 } },
    { method: "POST", path: "/api/reviews/00000000-0000-4000-8000-000000000000/reply", role: null, body: { reply: "Obrigado" } },
    { method: "GET", path: `/api/users/${w.juliaId}/reviews`, role: null },
    { method: "GET", path: "/api/freelancers", role: null },
    { method: "GET", path: `/api/freelancers/${w.juliaId}`, role: null },
    { method: "GET", path: "/api/invitations", role: null },
    { method: "POST", path: "/api/invitations/00000000-0000-4000-8000-000000000000/decline", role: "freelancer" },
    { method: "POST", path: `/api/opportunities/${m.opp}/invitations`, role: "merchant", body: { freelancer_id: w.juliaId, message: "Oi" } },
    { method: "GET", path: "/api/portfolio", role: null },
    { method: "GET", path: "/api/notification-settings", role: null },
    { method: "POST", path: "/api/notification-settings", role: null, body: { kinds: { message_received: false } } },
    { method: "GET", path: "/api/push-subscriptions", role: null },
    { method: "POST", path: "/api/push-subscriptions", role: null, body: { endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: {} } },
    { method: "DELETE", path: "/api/push-subscriptions/00000000-0000-4000-8000-000000000000", role: null },
    { method: "GET", path: "/api/whatsapp", role: null },
    { method: "POST", path: "/api/whatsapp", role: null, body: { phone: "+5511912345678" } },
    { method: "DELETE", path: "/api/whatsapp", role: null },
    { method: "POST", path: "/api/whatsapp/confirm", role: null, body: { code: "123456" } },
    { method: "POST", path: "/api/reports", role: null, body: { target_type: "profile", target_id: w.juliaId, reason: "spam" } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/disputes`, role: null, body: { reason: "quality", statement: "Declaração válida" } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/disputes/statements`, role: null, body: { statement: "Declaração válida" } },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/charges`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/charges`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/milestones`, role: null, body: { milestones: [] } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/milestones/proposals`, role: null, body: { title: "Etapa", amount_cents: 100, days: 1 } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/milestones/00000000-0000-4000-8000-000000000000/accept`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/milestones/00000000-0000-4000-8000-000000000000/decline`, role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/weeks`, role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30`, role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/entries.csv`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/entries`, role: null, body: { day: "2026-11-30", minutes: 60, description: "Implementei a tela." } },
    { method: "PATCH", path: `/api/contracts/${w.seeded.accepted}/entries/${NO_ID}`, role: null, body: { day: "2026-11-30", minutes: 60, description: "Implementei a tela." } },
    { method: "DELETE", path: `/api/contracts/${w.seeded.accepted}/entries/${NO_ID}`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/submit`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/approve`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/weeks/2026-11-30/questions`, role: null, body: { entries: [{ id: NO_ID, reason: "O que foi feito aqui?" }] } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/entries/${NO_ID}/answer`, role: null, body: { answer: "Foram duas horas." } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/end`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/cap`, role: null, body: { weekly_cap_hours: 5 } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/pause`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/resume`, role: null },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/months`, role: null },
    { method: "GET", path: "/api/finance", role: null },
    { method: "GET", path: "/api/finance/statement.csv", role: null },
    { method: "GET", path: "/api/finance/receipts/00000000-0000-4000-8000-000000000000", role: null },
    { method: "GET", path: "/api/payout-account", role: null },
    { method: "POST", path: "/api/payout-account", role: "freelancer", body: { key_type: "evp", pix_key: "x", holder_name: "Nome", holder_document: "1" } },
    { method: "GET", path: "/api/payouts", role: null },
    { method: "POST", path: "/api/payouts", role: "freelancer" },
    { method: "GET", path: "/api/identity", role: null },
    { method: "POST", path: "/api/identity", role: null, body: { kind: "person", document: "1", legal_name: "Nome" } },
    { method: "POST", path: "/api/identity/documents", role: null },
    { method: "GET", path: "/api/fiscal/notas", role: null },
    { method: "GET", path: `/api/fiscal/notas/${NO_ID}/xml`, role: null },
    { method: "POST", path: `/api/fiscal/notas/${NO_ID}/reissue`, role: null },
    { method: "GET", path: "/api/fiscal/informe/2026", role: null },
    { method: "GET", path: "/api/account/fiscal", role: "freelancer" },
    { method: "PUT", path: "/api/account/fiscal", role: null, body: { cnpj: "1" } },
    { method: "PATCH", path: "/api/account/fiscal", role: null, body: { enabled: false, version: 1 } },
    ...operatorEndpoints(w),
    { method: "POST", path: "/api/email", role: null, body: { email: "novo@example.com", password: "x" } },
    { method: "POST", path: "/api/verify-email/resend", role: null },
    { method: "GET", path: "/api/sessions", role: null },
    { method: "DELETE", path: "/api/sessions/others", role: null },
    { method: "DELETE", path: "/api/sessions/00000000-0000-4000-8000-000000000000", role: null },
    { method: "GET", path: "/api/two-factor", role: null },
    { method: "POST", path: "/api/two-factor/setup", role: null, body: { password: "x" } },
    { method: "POST", path: "/api/two-factor/confirm", role: null, body: { code: "123456" } },
    { method: "POST", path: "/api/two-factor/disable", role: null, body: { password: "x", code: "123456" } },
    { method: "POST", path: "/api/terms/accept", role: null, body: { version: "x" } },
    { method: "POST", path: "/api/two-factor/recovery-codes", role: null, body: { password: "x", code: "123456" } },
    { method: "POST", path: "/api/password", role: null, body: { password: "x", new_password: "senha-nova-123" } },
    { method: "GET", path: "/api/passkeys", role: null },
    { method: "POST", path: "/api/passkeys", role: null, body: { response: {} } },
    { method: "POST", path: "/api/passkeys/options", role: null },
    { method: "PATCH", path: "/api/passkeys/AAAA", role: null, body: { name: "Chave" } },
    { method: "DELETE", path: "/api/passkeys/AAAA", role: null },
    { method: "GET", path: "/api/account/export", role: null },
    { method: "POST", path: "/api/account/export", role: null },
    { method: "GET", path: "/api/account/export/download", role: null },
    { method: "DELETE", path: "/api/account", role: null, body: { password: "x" } },
    { method: "GET", path: `/api/contracts/${w.seeded.accepted}/recurrence`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/recurrence`, role: null },
    { method: "DELETE", path: `/api/contracts/${w.seeded.accepted}/recurrence`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/amount`, role: null, body: { amount_cents: 1 } },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/amount/accept`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/amount/decline`, role: null },
    { method: "POST", path: `/api/contracts/${w.seeded.accepted}/unused`, role: null, body: { keep: true } },
  ];
}

const NO_ID = "00000000-0000-4000-8000-000000000000";

/** The console's API (/api/admin): a visitor gets 401, a merchant or a freelancer 404. */
function operatorEndpoints(w: World): { method: string; path: string; role: null; body?: unknown }[] {
  return [
    { method: "GET", path: "/api/admin/audit", role: null },
    { method: "GET", path: "/api/admin/metrics", role: null },
    { method: "GET", path: "/api/admin/reports", role: null },
    { method: "GET", path: `/api/admin/reports/profile/${w.juliaId}`, role: null },
    { method: "POST", path: `/api/admin/reports/profile/${w.juliaId}/resolve`, role: null, body: { action: "dismiss" } },
    { method: "POST", path: `/api/admin/content/profile/${w.juliaId}/restore`, role: null, body: { reason: "Motivo válido" } },
    { method: "POST", path: "/api/admin/services/00000000-0000-4000-8000-000000000000/moderation", role: null, body: { action: "approve" } },
    { method: "GET", path: "/api/admin/users", role: null },
    { method: "GET", path: `/api/admin/users/${w.juliaId}`, role: null },
    { method: "GET", path: `/api/admin/users/${w.juliaId}/risk`, role: null },
    { method: "POST", path: `/api/admin/users/${w.juliaId}/sanctions`, role: null, body: { action: "ban", reason: "Motivo válido" } },
    { method: "GET", path: "/api/admin/premoderation", role: null },
    { method: "POST", path: `/api/admin/premoderation/${NO_ID}`, role: null, body: { decision: "approve" } },
    { method: "GET", path: "/api/admin/settings", role: null },
    { method: "POST", path: "/api/admin/settings", role: null, body: { premoderation_days: 30 } },
    { method: "GET", path: "/api/admin/disputes", role: null },
    { method: "GET", path: `/api/admin/disputes/${NO_ID}`, role: null },
    { method: "POST", path: `/api/admin/disputes/${NO_ID}/decision`, role: null, body: { decision: "cancel", reason: "Motivo válido" } },
    { method: "GET", path: "/api/admin/payments", role: null },
    { method: "POST", path: `/api/admin/payments/charges/${NO_ID}/confirm`, role: null, body: { e2e_id: "E".padEnd(32, "0"), amount_cents: 100 } },
    { method: "POST", path: `/api/admin/payments/payouts/${NO_ID}/paid`, role: null, body: { e2e_id: "E".padEnd(32, "0") } },
    { method: "POST", path: `/api/admin/payments/payouts/${NO_ID}/failed`, role: null, body: { reason: "Motivo válido" } },
    { method: "POST", path: `/api/admin/payments/refunds/${NO_ID}/paid`, role: null, body: { e2e_id: "E".padEnd(32, "0") } },
    { method: "GET", path: "/api/admin/identity", role: null },
    { method: "GET", path: `/api/admin/identity/${NO_ID}`, role: null },
    { method: "POST", path: `/api/admin/identity/${NO_ID}/decision`, role: null, body: { decision: "approve", version: 1 } },
    { method: "GET", path: "/api/admin/settings/fiscal", role: null },
    { method: "PUT", path: "/api/admin/settings/fiscal", role: null, body: { cnpj: "1" } },
    { method: "GET", path: "/api/admin/notas", role: null },
    { method: "POST", path: `/api/admin/notas/${NO_ID}/reissue`, role: null },
    { method: "GET", path: "/api/admin/email-suppressions", role: null },
    { method: "GET", path: "/api/admin/jobs", role: null },
    { method: "POST", path: `/api/admin/jobs/${NO_ID}/retry`, role: null },
    { method: "POST", path: `/api/admin/jobs/${NO_ID}/discard`, role: null },
    { method: "POST", path: "/api/admin/email-suppressions/lift", role: null, body: { email: "ninguem@example.com" } },
  ];
}

/**
 * The console with an operator's session: every filter of its lists refuses what it cannot use
 * (422 naming the parameter; the pages drop it and still answer), and its moves on records that
 * do not exist refuse hostile bodies without touching anything.
 */
export function operatorCases(w: World): Case[] {
  const cases: Case[] = [];
  const intValues = ["0", "-1", "1.5", "1e20", "abc", "١٢", "x".repeat(5000)];
  const enumValues = ["xyz", "' OR 1=1 --", "OPEN", "<script>", "\u0000", "x".repeat(5000)];
  const dates = ["2026-02-30", "24/11/2026", "' OR 1=1", "x".repeat(5000)];
  const lists: { path: string; page: string; params: Record<string, string[]> }[] = [
    {
      path: "/api/admin/audit",
      page: "/admin/audit",
      params: {
        action: enumValues,
        actor: ["abc", "' OR 1=1 --", "00000000-0000-4000-8000-00000000000g"],
        target_type: enumValues,
        target_id: ["' OR 1=1 --", "<script>", "x".repeat(101)],
        from: dates,
        to: dates,
        page: intValues,
      },
    },
    { path: "/api/admin/reports", page: "/admin/reports", params: { type: enumValues, status: enumValues, age: enumValues, author: enumValues, page: intValues } },
    { path: "/api/admin/users", page: "/admin/users", params: { role: enumValues, status: enumValues, page: intValues } },
    { path: "/api/admin/disputes", page: "/admin/disputes", params: { status: enumValues, page: intValues } },
    { path: "/api/admin/premoderation", page: "/admin/premoderation", params: { page: intValues } },
    { path: "/api/admin/metrics", page: "/admin", params: { days: ["7", "0", "-30", "30.0", "1e20", ...enumValues] } },
    { path: "/api/admin/notas", page: "/admin/notas", params: { status: enumValues, kind: enumValues, issuer: enumValues, from: dates, to: dates, page: intValues } },
  ];
  for (const list of lists) {
    for (const [param, values] of Object.entries(list.params)) {
      for (const value of values) {
        const query = new URLSearchParams({ [param]: value });
        cases.push({ name: `console query ${param}=${value.slice(0, 30)}`, method: "GET", path: `${list.path}?${query}`, auth: w.operator, expect: [422], api: true, field: param });
        cases.push({ name: `console page ${list.page} ${param}=${value.slice(0, 20)}`, method: "GET", path: `${list.page}?${query}`, auth: w.operator, expect: [200], api: false });
      }
    }
  }
  // Moves on records that do not exist: a hostile body or a missing record, never a change.
  const moves: [string, Record<string, unknown>][] = [
    [`/api/admin/reports/profile/${NO_ID}/resolve`, { action: "dismiss", reason: "Motivo válido" }],
    [`/api/admin/content/profile/${NO_ID}/restore`, { reason: "Motivo válido" }],
    [`/api/admin/users/${NO_ID}/sanctions`, { action: "warn", reason: "Motivo válido" }],
    [`/api/admin/premoderation/${NO_ID}`, { decision: "reject", reason: "Motivo válido" }],
    [`/api/admin/disputes/${NO_ID}/decision`, { decision: "cancel", reason: "Motivo válido" }],
    [`/api/admin/disputes/${NO_ID}/decision`, { decision: "split", reason: "Motivo válido", freelancer_cents: 100 }],
    [`/api/admin/payments/charges/${NO_ID}/confirm`, { e2e_id: "E".padEnd(32, "0"), amount_cents: 100 }],
    [`/api/admin/payments/payouts/${NO_ID}/paid`, { e2e_id: "E".padEnd(32, "0") }],
    [`/api/admin/payments/payouts/${NO_ID}/failed`, { reason: "Motivo válido" }],
    [`/api/admin/payments/refunds/${NO_ID}/paid`, { e2e_id: "E".padEnd(32, "0") }],
    [`/api/admin/identity/${NO_ID}/decision`, { decision: "reject", version: 1, reason: "Motivo válido" }],
    [`/api/admin/notas/${NO_ID}/reissue`, {}],
    ["/api/admin/email-suppressions/lift", { email: "ninguem@example.com" }],
    [`/api/admin/jobs/${NO_ID}/retry`, {}],
    [`/api/admin/jobs/${NO_ID}/discard`, {}],
  ];
  const hostile: unknown[] = ["' OR 1=1 --", "<script>alert(1)</script>", "x".repeat(10_000), 1e20, -1, null, [], {}, "\u0000"];
  for (const [path, valid] of moves) {
    cases.push({ name: `console move on nothing ${path}`, method: "POST", path, auth: w.operator, body: { json: valid }, expect: [404], api: true });
    for (const field of Object.keys(valid)) {
      for (const value of hostile) {
        cases.push({ name: `console move ${path} ${field}=${JSON.stringify(value).slice(0, 20)}`, method: "POST", path, auth: w.operator, body: { json: { ...valid, [field]: value } }, expect: [404, 422], api: true });
      }
    }
  }
  for (const id of KEY_MISSES) {
    cases.push({ name: `console record ${id.slice(0, 20)}`, method: "GET", path: `/api/admin/users/${encodeURIComponent(id)}`, auth: w.operator, expect: [404], api: true });
    cases.push({ name: `console risk ${id.slice(0, 20)}`, method: "GET", path: `/api/admin/users/${encodeURIComponent(id)}/risk`, auth: w.operator, expect: [404], api: true });
    cases.push({ name: `console dispute ${id.slice(0, 20)}`, method: "GET", path: `/api/admin/disputes/${encodeURIComponent(id)}`, auth: w.operator, expect: [404], api: true });
  }
  return cases;
}

export const BAD_AUTH: [string, Auth][] = [
  ["no session", null],
  ["garbage bearer", "garbage"],
  ["10 kB bearer", "x".repeat(10_000)],
  ["empty bearer", { header: "Bearer    " }],
  ["basic auth", { header: "Basic dXNlcjpwYXNz" }],
  ["sql bearer", "' OR 1=1 --"],
  ["garbage cookie", { cookie: "freela_session=garbage" }],
  ["forged cookie", { cookie: `freela_session=${Buffer.from(JSON.stringify("forjado")).toString("base64")}.AAAA` }],
  ["cookie traversal", { cookie: "freela_session=..%2F..%2Fetc%2Fpasswd" }],
];

/** Well-formed strings that name nothing: looked up, never run. */
export const KEY_MISSES = ["' OR 1=1 --", '"; DROP TABLE users;--', "<script>alert(1)</script>", "00000000-0000-4000-8000-000000000000", "\u202Eadmin", "👩🏽‍💻", "*"];

const ONE_MB = 1024 * 1024;
const oversizeJson = () => `{"x":"${"a".repeat(ONE_MB)}"}`;
export const MALFORMED_JSON = [
  "{",
  '{"a":}',
  "{'a':1}",
  '{"a":1}}',
  '{"a":1} lixo',
  "\uFEFF{}",
  "NaN",
  "[1,2]",
  '"texto"',
  "null",
  "123",
  "true",
  "[".repeat(100_000),
  '{"a":"\\x00"}',
  '{"a":"\\ud800',
];
export const WRONG_TYPES: [string, string][] = [
  ["text/plain", '{"a":1}'],
  ["application/x-www-form-urlencoded", "a=1"],
  ["multipart/form-data; boundary=xx", '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xx--\r\n'],
  ["application/xml", "<a>1</a>"],
  ["application/jsonx", "{}"],
  ["text/html", "<script>alert(1)</script>"],
];

export function apiBodyCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  for (const e of API_BODY) {
    const auth = (): { auth: Auth; actor: Actor | null } => {
      if (e.who === "anyone") return { auth: null, actor: null };
      if (typeof e.who === "function") return { auth: e.who(w), actor: null };
      const actor = p.actor(e.who);
      return { auth: actor.token, actor };
    };
    // Field by field: every refused value of its kind, the rest of the body valid.
    for (const field of e.fields) {
      const values = [...refusedJson(field.kind), ...(field.kind.type === "key" ? KEY_MISSES : [])];
      for (const value of values) {
        const { auth: a, actor } = auth();
        const miss = field.kind.type === "key" && typeof value === "string" && value.trim() !== "" && value.length <= field.kind.max;
        const refusal = miss ? e.keyMiss! : 422;
        cases.push({
          name: `${e.name}: ${field.name}=${JSON.stringify(value)?.slice(0, 40)}`,
          method: e.method,
          path: e.path(actor, w),
          auth: a,
          body: { json: { ...e.base(), [field.name]: value } },
          expect: [refusal],
          api: true,
          field: refusal === 422 && !(miss && e.keyMissOnNoField) ? field.name : undefined,
        });
      }
    }
    // The body itself: wrong content types, malformed JSON, too large.
    const bodyCase = (name: string, body: Body, status: number, message: string) => {
      const { auth: a, actor } = auth();
      cases.push({ name: `${e.name}: ${name}`, method: e.method, path: e.path(actor, w), auth: a, body, expect: [status], api: true, message });
    };
    for (const [type, raw] of WRONG_TYPES.filter(([type]) => !(e.forms && /form/.test(type)))) {
      bodyCase(`content type ${type}`, { raw, type }, 415, "unsupported_media_type");
    }
    bodyCase("no content type", { raw: '{"a":1}', type: null }, 415, "unsupported_media_type");
    for (const raw of MALFORMED_JSON) {
      const message = ["[1,2]", '"texto"', "null", "123", "true"].includes(raw) ? "json_not_object" : "malformed_json";
      bodyCase(`malformed ${raw.slice(0, 20)}`, { raw, type: "application/json" }, 400, message);
    }
    bodyCase("over 1 MB", { raw: oversizeJson(), type: "application/json" }, 413, "payload_too_large");
    bodyCase("over 1 MB, chunked", { raw: oversizeJson(), type: "application/json", chunked: true }, 413, "payload_too_large");
  }
  return cases;
}

export function apiProfileCases(_w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  const baseFields = (): [string, string][] => [
    ["full_name", "Nome Válido"],
    ["display_name", "Apelido"],
    ["bio", ""],
    ["skills", "React, Node"],
  ];
  const with_ = (name: string, value: string | Blob, filename?: string): [string, string | Blob, string?][] => [
    ...baseFields().filter(([n]) => n !== name),
    [name, value, filename],
  ];
  for (const path of ["/api/profile", "/pages/profile-setting"]) {
    const api = path.startsWith("/api");
    for (const field of profileFields) {
      for (const value of refusedForm(field.kind)) {
        cases.push({
          name: `profile ${path}: ${field.name}=${JSON.stringify(value).slice(0, 40)}`,
          method: "POST",
          path,
          auth: p.actor("freelancer").token,
          body: { multipart: with_(field.name, value) },
          expect: [422],
          api,
          field: field.name,
        });
      }
    }
    const photos: [string, Blob, string, number, string][] = [
      ["text named like a path", new Blob(["root:x:0:0"], { type: "image/png" }), "../../etc/passwd", 422, "photo"],
      ["svg with a script", new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/svg+xml" }), "x.svg", 422, "photo"],
      ["html as jpg", new Blob(["<html><body>oi</body></html>"], { type: "image/jpeg" }), "foto.jpg", 422, "photo"],
      ["photo over 2 MB", new Blob([PNG_1X1, Buffer.alloc(2 * ONE_MB)], { type: "image/png" }), "grande.png", 413, "photo"],
      ["photo over the whole limit", new Blob([PNG_1X1, Buffer.alloc(3 * ONE_MB + 10)], { type: "image/png" }), "enorme.png", 413, "photo"],
    ];
    for (const [name, blob, filename, status, field] of photos) {
      cases.push({
        name: `profile ${path}: ${name}`,
        method: "POST",
        path,
        auth: p.actor("freelancer").token,
        body: { multipart: with_("photo", blob, filename) },
        expect: [status],
        api,
        field,
        message: status === 413 ? "photo_too_large" : undefined,
      });
    }
    const bodyCase = (name: string, body: Body, status: number, message: string) =>
      cases.push({ name: `profile ${path}: ${name}`, method: "POST", path, auth: p.actor("freelancer").token, body, expect: [status], api, message });
    bodyCase("json", { raw: '{"full_name":"Nome Válido"}', type: "application/json" }, 415, "unsupported_media_type");
    bodyCase("text/plain", { raw: "full_name=Nome", type: "text/plain" }, 415, "unsupported_media_type");
    bodyCase("no content type", { raw: "full_name=Nome", type: null }, 415, "unsupported_media_type");
    bodyCase("multipart without boundary", { raw: "full_name=Nome", type: "multipart/form-data" }, 400, "malformed_form");
    bodyCase(
      "truncated multipart",
      { raw: '--xx\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nNome', type: "multipart/form-data; boundary=xx" },
      400,
      "malformed_form",
    );
    bodyCase("url-encoded over 3 MB", { raw: `bio=${"a".repeat(3 * ONE_MB + 10)}`, type: "application/x-www-form-urlencoded" }, 413, "photo_too_large");
    bodyCase(
      "chunked over 3 MB",
      { raw: `bio=${"a".repeat(3 * ONE_MB + 10)}`, type: "application/x-www-form-urlencoded", chunked: true },
      413,
      "photo_too_large",
    );
  }
  return cases;
}

export function apiAuthCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  for (const e of authedEndpoints(w, p)) {
    const body: Body | undefined =
      e.method === "GET" ? undefined : e.path === "/api/profile" ? { form: [["full_name", "Nome Válido"]] } : { json: e.body ?? {} };
    for (const [name, auth] of BAD_AUTH) {
      cases.push({ name: `auth ${name}`, method: e.method, path: e.path, auth, body, expect: [401], api: true });
    }
    if (e.role) {
      const wrong = e.role === "merchant" ? w.julia : w.ana;
      cases.push({ name: `wrong role (${e.role} only)`, method: e.method, path: e.path, auth: wrong, body, expect: [403], api: true, message: "forbidden_role" });
    }
  }
  // The console is not there for merchants and freelancers: 404, never its contents.
  for (const e of operatorEndpoints(w)) {
    for (const [who, auth] of [["merchant", w.ana], ["freelancer", w.julia]] as const) {
      const body: Body | undefined = e.method === "GET" ? undefined : { json: e.body ?? {} };
      cases.push({ name: `console as a ${who}`, method: e.method, path: e.path, auth, body, expect: [404], api: true, message: "not_found" });
    }
  }
  return cases;
}

const idPath = (id: string) => (id.includes("%") ? id : encodeURIComponent(id));

export function apiIdCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  const table: { method: string; path: (id: string) => string; who: Role | null; body?: unknown; form?: [string, string][]; message?: string }[] = [
    { method: "GET", path: (id) => `/api/opportunities/${id}`, who: null },
    { method: "PATCH", path: (id) => `/api/opportunities/${id}`, who: "merchant", body: { title: "Título novo válido" } },
    { method: "DELETE", path: (id) => `/api/opportunities/${id}`, who: "merchant" },
    { method: "POST", path: (id) => `/api/opportunities/${id}/close`, who: "merchant" },
    { method: "POST", path: (id) => `/api/opportunities/${id}/reopen`, who: "merchant" },
    { method: "GET", path: (id) => `/api/opportunities/${id}/suggestions`, who: "merchant" },
    { method: "GET", path: (id) => `/api/opportunities/${id}/applications`, who: "merchant" },
    { method: "POST", path: (id) => `/api/opportunities/${id}/applications`, who: "freelancer", body: validApplication },
    { method: "GET", path: (id) => `/api/services/${id}`, who: null },
    { method: "PATCH", path: (id) => `/api/services/${id}`, who: "freelancer", body: { title: "Título novo do serviço" } },
    { method: "DELETE", path: (id) => `/api/services/${id}`, who: "freelancer" },
    { method: "POST", path: (id) => `/api/services/${id}/publish`, who: "freelancer" },
    { method: "POST", path: (id) => `/api/services/${id}/pause`, who: "freelancer" },
    { method: "POST", path: (id) => `/api/services/${id}/archive`, who: "freelancer" },
    { method: "POST", path: (id) => `/api/services/${id}/orders`, who: "merchant", body: { package_index: 0, expected_total_cents: 15_000 } },
    { method: "GET", path: (id) => `/api/services/${id}/quote?package=0`, who: null },
    { method: "POST", path: (id) => `/api/contracts/${id}/order/answers`, who: "merchant", body: { answers: [] } },
    { method: "GET", path: (id) => `/api/applications/${id}`, who: null },
    { method: "POST", path: (id) => `/api/applications/${id}/offers`, who: "freelancer", body: { price_cents: 1000, delivery_days: 3 } },
    { method: "POST", path: (id) => `/api/applications/${id}/accept`, who: "freelancer", body: { offer_id: "00000000-0000-4000-8000-000000000000" } },
    { method: "POST", path: (id) => `/api/applications/${id}/reject`, who: "merchant" },
    { method: "POST", path: (id) => `/api/applications/${id}/withdraw`, who: "freelancer" },
    { method: "GET", path: (id) => `/api/contracts/${id}`, who: null },
    { method: "POST", path: (id) => `/api/contracts/${id}/deliveries`, who: "freelancer", body: { message: "Entrega pronta." } },
    { method: "POST", path: (id) => `/api/contracts/${id}/approve`, who: "merchant" },
    { method: "POST", path: (id) => `/api/contracts/${id}/change-requests`, who: "merchant", body: { message: "Ajustes." } },
    { method: "POST", path: (id) => `/api/contracts/${id}/cancel`, who: "merchant", body: { reason: "Motivo válido" } },
    { method: "POST", path: (id) => `/api/contracts/${id}/cancellation-requests`, who: "merchant", body: { reason: "Motivo válido" } },
    { method: "POST", path: (id) => `/api/contracts/${id}/cancellation-requests/accept`, who: "freelancer" },
    { method: "POST", path: (id) => `/api/contracts/${id}/cancellation-requests/decline`, who: "freelancer" },
    { method: "GET", path: (id) => `/api/contracts/${id}/files/x`, who: null },
    { method: "POST", path: (id) => `/api/contracts/${id}/disputes`, who: "merchant", body: { reason: "quality", statement: "Declaração válida" } },
    { method: "POST", path: (id) => `/api/contracts/${id}/disputes/statements`, who: "freelancer", body: { statement: "Declaração válida" } },
    { method: "GET", path: (id) => `/api/applications/${id}/messages`, who: null },
    { method: "POST", path: (id) => `/api/applications/${id}/messages`, who: "freelancer", body: { body: "Oi" } },
    { method: "GET", path: (id) => `/api/applications/${id}/messages/files/x`, who: null },
    { method: "GET", path: (id) => `/api/contracts/${id}/reviews`, who: null },
    { method: "POST", path: (id) => `/api/contracts/${id}/reviews`, who: "merchant", body: { rating: 4 } },
    { method: "POST", path: (id) => `/api/reviews/${id}/reply`, who: "freelancer", body: { reply: "Obrigado pela avaliação." } },
    { method: "GET", path: (id) => `/api/users/${id}/reviews`, who: null },
    { method: "GET", path: (id) => `/api/freelancers/${id}`, who: null, message: "profile_not_found" },
    { method: "GET", path: (id) => `/api/merchants/${id}`, who: null, message: "profile_not_found" },
    { method: "POST", path: (id) => `/api/invitations/${id}/decline`, who: "freelancer", message: "invitation_not_found" },
    { method: "POST", path: (id) => `/api/opportunities/${id}/invitations`, who: "merchant", body: { freelancer_id: w.juliaId, message: "Oi" } },
    { method: "DELETE", path: (id) => `/api/portfolio/${id}`, who: "freelancer", message: "portfolio_item_not_found" },
    { method: "PATCH", path: (id) => `/api/portfolio/${id}`, who: "freelancer", form: [["title", "Título válido"]], message: "portfolio_item_not_found" },
    { method: "DELETE", path: (id) => `/api/sessions/${id}`, who: null, message: "session_not_found" },
    { method: "DELETE", path: (id) => `/api/passkeys/${id}`, who: null, message: "passkey_not_found" },
    { method: "PATCH", path: (id) => `/api/passkeys/${id}`, who: null, body: { name: "Chave" }, message: "passkey_not_found" },
    { method: "GET", path: (id) => `/api/saved-searches/${id}`, who: "freelancer", message: "saved_search_not_found" },
    { method: "PATCH", path: (id) => `/api/saved-searches/${id}`, who: "freelancer", body: { name: "Busca" }, message: "saved_search_not_found" },
    { method: "DELETE", path: (id) => `/api/saved-searches/${id}`, who: "freelancer", message: "saved_search_not_found" },
    { method: "GET", path: (id) => `/api/fiscal/notas/${id}/xml`, who: null, message: "nota_not_found" },
    { method: "POST", path: (id) => `/api/fiscal/notas/${id}/reissue`, who: null, message: "nota_not_found" },
    // The second id of a path: a file of Júlia's own contract and conversation.
    { method: "GET", path: (id) => `/api/contracts/${w.seeded.accepted}/files/${id}`, who: null },
    { method: "GET", path: (id) => `/api/applications/${w.seeded.pending.id}/messages/files/${id}`, who: null },
  ];
  for (const e of table) {
    for (const id of BAD_IDS) {
      cases.push({
        name: `unknown id ${id.slice(0, 30)}`,
        method: e.method,
        path: e.path(idPath(id)),
        auth: e.who ? p.actor(e.who).token : w.julia,
        body: e.method === "GET" ? undefined : e.form ? { form: e.form } : { json: e.body ?? {} },
        // remix-serve's static folder answers an id that climbs back to it with a redirect to
        // that folder, before the app runs: not a refusal of ours, but never a file.
        expect: id.startsWith("%2e%2e") ? [404, 301] : [404],
        api: true,
        message: e.message ?? "not_found",
      });
    }
  }
  for (const path of ["/api/nada", "/api/opportunities/x/y/z", "/api/profile%00", `/api/${"x".repeat(10_000)}`]) {
    cases.push({ name: "unknown API path", method: "GET", path, auth: w.julia, expect: [404], api: true, message: "not_found" });
  }
  // Dot segments leave /api before routing: the not-found page.
  cases.push({ name: "climbing out of the API", method: "GET", path: "/api/%2e%2e/%2e%2e/etc/passwd", auth: w.julia, expect: [404], api: false });
  for (const [method, path] of [["PUT", "/api/login"], ["DELETE", "/api/profile"], ["GET", "/api/logout"], ["PUT", "/api/opportunities"], ["GET", "/api/notifications/read"]]) {
    cases.push({ name: "wrong method", method: method!, path: path!, auth: w.julia, expect: [405], api: true, message: "method_not_allowed" });
  }
  return cases;
}

export function queryCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  const intValues = ["0", "-1", "1.5", "1e20", "99999999999999999999", "abc", "NaN", "١٢", "x".repeat(5000)];
  const enumValues = ["xyz", "' OR 1=1 --", "OPEN", "<script>", "\u0000", "x".repeat(5000)];
  const lists: { path: string; auth: string; params: Record<string, string[]> }[] = [
    {
      path: "/api/opportunities",
      auth: w.julia,
      params: {
        category: enumValues,
        budget_type: enumValues,
        location_type: enumValues,
        status: enumValues,
        sort: enumValues,
        mine: ["2", "yes", "' OR 1=1"],
        budget_min_cents: ["-1", "1.5", "1e20", "abc", "100000001"],
        budget_max_cents: ["-1", "1.5", "1e20", "abc", "100000001"],
        page: intValues,
        per_page: [...intValues, "101"],
        q: ["x".repeat(201), "x".repeat(10_000)],
      },
    },
    { path: "/api/my-applications", auth: w.julia, params: { status: enumValues, page: intValues, per_page: ["101", "0"] } },
    { path: `/api/opportunities/${w.seeded.openWithApps}/applications`, auth: w.ana, params: { status: enumValues, page: intValues } },
    { path: "/api/applications/awaiting-confirmation", auth: w.ana, params: { page: intValues, per_page: ["101"] } },
    { path: "/api/notifications", auth: w.julia, params: { unread: ["2", "sim", "' OR 1=1"], page: intValues, per_page: ["101"] } },
    { path: "/api/opportunities/recommended", auth: w.julia, params: { page: intValues, per_page: ["101", "0"] } },
    { path: "/api/conversations", auth: w.julia, params: { filter: ["lidas", "' OR 1=1", "\u0000", "ALL"], page: intValues, per_page: ["101", "0"] } },
    { path: "/api/freelancers", auth: w.ana, params: { min_rating: ["0", "6", "4.55", "abc", "' OR 1=1"], sort: enumValues, page: intValues, per_page: ["101"] } },
    { path: `/api/users/${w.juliaId}/reviews`, auth: w.ana, params: { page: intValues, per_page: ["101", "0"] } },
    { path: "/api/invitations", auth: w.julia, params: { page: intValues, per_page: ["101"] } },
    { path: "/api/me/services", auth: w.julia, params: { page: intValues, per_page: ["101", "0"] } },
    {
      path: "/api/services",
      auth: w.julia,
      params: {
        category: enumValues,
        sort: enumValues,
        verified: ["2", "sim", "' OR 1=1"],
        min_price_cents: ["-1", "1.5", "1e20", "abc", "5000001"],
        max_price_cents: ["-1", "1.5", "1e20", "abc", "5000001"],
        max_days: [...intValues, "91"],
        min_rating: ["0", "6", "4.5", "abc", "' OR 1=1"],
        page: intValues,
        per_page: [...intValues, "101"],
        q: ["x".repeat(201), "x".repeat(10_000)],
      },
    },
  ];
  for (const list of lists) {
    for (const [param, values] of Object.entries(list.params)) {
      for (const value of values) {
        cases.push({
          name: `query ${param}=${value.slice(0, 30)}`,
          method: "GET",
          path: `${list.path}?${new URLSearchParams({ [param]: value })}`,
          auth: list.auth,
          expect: [422],
          api: true,
          field: param,
        });
      }
    }
  }
  // The event stream's Last-Event-ID (the query's, for a first connection) is an event's number
  // or nothing: anything else is a 400, never a stream from a guessed place (or a 5xx).
  for (const value of ["abc", "-1", "1.5", "1e3", "0x10", "9".repeat(40), "' OR 1=1", "NaN", "Infinity", "１２"]) {
    cases.push({ name: `events lastEventId=${value.slice(0, 20)}`, method: "GET", path: `/api/events?${new URLSearchParams({ lastEventId: value })}`, auth: w.julia, expect: [400], api: true, message: "last_event_id_invalid" });
  }
  cases.push({ name: "events lastEventId control char", method: "GET", path: "/api/events?lastEventId=%00", auth: w.julia, expect: [400, 422], api: true });
  cases.push({ name: "events lastEventId bad bytes", method: "GET", path: "/api/events?lastEventId=%ff%fe", auth: w.julia, expect: [400], api: true });
  // Search text is only text, whatever FTS5 would make of it; raw bytes that are not UTF-8 too.
  // Control characters are refused at the edge like in any text (422 on q); the page drops them.
  for (const q of [...SEARCHES, ...Object.values(ODD)]) {
    // As the server reads it (a lone surrogate is sent as U+FFFD).
    const read = new URL(`http://x/?${new URLSearchParams({ q })}`).searchParams.get("q")!;
    const api = typeable(read) ? { expect: [200] } : { expect: [422], field: "q" };
    cases.push({ name: `search ${q.slice(0, 30)}`, method: "GET", path: `/api/opportunities?${new URLSearchParams({ q })}`, auth: w.julia, ...api, api: true });
    cases.push({ name: `service search ${q.slice(0, 30)}`, method: "GET", path: `/api/services?${new URLSearchParams({ q })}`, auth: null, ...api, api: true });
    cases.push({ name: `search page ${q.slice(0, 30)}`, method: "GET", path: `/opportunities?${new URLSearchParams({ q })}`, auth: w.julia, expect: [200], api: false });
  }
  for (const raw of ["%ff%fe", "%ED%A0%80", "%C0%AF", "%", "%%", "%zz"]) {
    cases.push({ name: `search bytes ${raw}`, method: "GET", path: `/api/opportunities?q=${raw}`, auth: w.julia, expect: [200], api: true });
  }
  // Pages drop a parameter they cannot use and still show the list.
  const pageLists: [string, string][] = [
    ["/opportunities", w.julia],
    ["/my-applications", w.julia],
    ["/applications/awaiting-confirmation", w.ana],
    ["/notifications", w.julia],
    ["/mensagens", w.julia],
    ["/para-voce", w.julia],
    ["/meus-servicos", w.julia],
    ["/mensagens", w.ana],
    [`/opportunities/${w.seeded.openWithApps}/applications`, w.ana],
    ["/", w.ana],
  ];
  for (const [path, auth] of pageLists) {
    for (const [param, value] of [
      ["page", "1e20"],
      ["page", "-1"],
      ["per_page", "x".repeat(5000)],
      ["status", "' OR 1=1 --"],
      ["category", "\u0000"],
      ["sort", "<script>"],
      ["filter", "' OR 1=1 --"],
      ["budget_min_cents", "99999999999999999999"],
    ] as const) {
      cases.push({ name: `page query ${param}=${value.slice(0, 20)}`, method: "GET", path: `${path}?${new URLSearchParams({ [param]: value })}`, auth, expect: [200], api: false });
    }
  }
  void p;
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Page forms

export type PageForm = {
  name: string;
  routeId: string;
  path: (a: Actor | null, w: World) => string;
  who: Role | ((w: World) => string) | "visitor";
  base: () => Record<string, string>;
  fields: (Field & { price?: boolean })[];
  /** What a well-formed string matching nothing answers in a `key` field. */
  keyMiss?: number;
};

const priceField = (name: string): Field & { price: boolean } => ({ name, kind: { type: "key", max: 0 }, price: true });

const opportunityForm = {
  title: "Loja virtual para confeitaria",
  description: "Loja com catálogo de bolos, encomendas pelo WhatsApp e pagamento via Pix.",
  category: "desenvolvimento",
  skills: "Shopify, Pix",
  budget_type: "fixed",
  budget_min: "2.000,00",
  budget_max: "4.500,00",
  deadline: "",
  location_type: "remote",
  city: "",
  vacancies: "1",
};

const opportunityFormFields = (fields: Field[]): (Field & { price?: boolean })[] =>
  fields.map((f) =>
    f.name === "budget_min_cents" ? priceField("budget_min") : f.name === "budget_max_cents" ? priceField("budget_max") : f,
  );

export const PAGE_FORMS: PageForm[] = [
  {
    name: "login",
    routeId: "routes/_auth+/login",
    path: () => "/login",
    who: "visitor",
    base: () => ({ email: unique("ninguem"), password: "senha-errada-1" }),
    fields: loginFields,
    keyMiss: 401,
  },
  {
    name: "register",
    routeId: "routes/_auth+/register",
    path: () => "/register",
    who: "visitor",
    base: () => ({ full_name: "Pessoa De Teste", display_name: "", email: unique("pagina"), password: "senha-segura-1", account_type: "freelancer" }),
    fields: [
      text("full_name", 3, 120),
      text("display_name", 2, 60, false),
      { name: "email", kind: { type: "email" } },
      { name: "password", kind: { type: "password" } },
      oneOf("account_type", ["merchant", "freelancer"]),
    ],
  },
  {
    name: "forgot password",
    routeId: "routes/_auth+/forgot-password",
    path: () => "/forgot-password",
    who: "visitor",
    base: () => ({ email: unique("esqueci") }),
    fields: [{ name: "email", kind: { type: "email" } }],
  },
  {
    name: "reset password",
    routeId: "routes/_auth+/reset-password",
    path: () => "/reset-password",
    who: "visitor",
    base: () => ({ token: "token-que-nao-existe", password: "senha-nova-123" }),
    fields: [
      { name: "token", kind: { type: "key", max: 200 } },
      { name: "password", kind: { type: "password" } },
    ],
    keyMiss: 422,
  },
  {
    name: "create opportunity",
    routeId: "routes/opportunities+/create",
    path: () => "/opportunities/create",
    who: "merchant",
    base: () => ({ ...opportunityForm }),
    fields: opportunityFormFields(opportunityFields),
  },
  {
    name: "edit opportunity",
    routeId: "routes/opportunities+/$uuid_.edit",
    path: (a) => `/opportunities/${a!.opp}/edit`,
    who: "merchant",
    base: () => ({ ...opportunityForm }),
    fields: opportunityFormFields(patchFields),
  },
  {
    name: "apply",
    routeId: "routes/opportunities+/$uuid",
    // An opportunity this freelancer has not applied to, so the page shows the form and its errors.
    path: (a) => `/opportunities/${a!.other}`,
    who: "freelancer",
    base: () => ({ intent: "apply", cover_letter: validApplication.cover_letter, price: "3.500,00", delivery_days: "14" }),
    fields: [text("cover_letter", 20, 5000), priceField("price"), int("delivery_days", 1, 365)],
  },
  {
    name: "counter",
    routeId: "routes/applications+/$id_.negotiate",
    path: (a) => `/applications/${a!.app}/negotiate`,
    // The pool's applications await the merchant, so the page shows the merchant these forms.
    who: "merchant",
    base: () => ({ intent: "counter", price: "1.000,00", delivery_days: "10", message: "" }),
    fields: [priceField("price"), int("delivery_days", 1, 365), text("message", 1, 2000, false)],
  },
  {
    name: "accept",
    routeId: "routes/applications+/$id_.negotiate",
    path: (a) => `/applications/${a!.app}/negotiate`,
    who: "merchant",
    // Accepting hires: past its confirmation step, so the offer id is what gets checked.
    base: () => ({ intent: "accept", confirmed: "1" }),
    fields: [{ name: "offer_id", kind: { type: "key", max: 100 } }],
    // The merchant's turn, but not the latest offer.
    keyMiss: 409,
  },
  {
    name: "reject",
    routeId: "routes/applications+/$id_.negotiate",
    path: (a) => `/applications/${a!.app}/negotiate`,
    who: "merchant",
    base: () => ({ intent: "reject", confirmed: "1" }),
    fields: [text("message", 1, 2000, false)],
  },
  { name: "withdraw", routeId: "routes/applications+/$id_.negotiate", path: (a) => `/applications/${a!.app}/negotiate`, who: "freelancer", base: () => ({ intent: "withdraw", confirmed: "1" }), fields: [] },
  { name: "close", routeId: "routes/opportunities+/$uuid", path: (a) => `/opportunities/${a!.opp}`, who: "merchant", base: () => ({ intent: "close", confirmed: "1" }), fields: [] },
  { name: "reopen", routeId: "routes/opportunities+/$uuid", path: (a) => `/opportunities/${a!.opp}`, who: "merchant", base: () => ({ intent: "reopen" }), fields: [] },
  { name: "delete", routeId: "routes/opportunities+/$uuid", path: (a) => `/opportunities/${a!.opp}`, who: "merchant", base: () => ({ intent: "delete", confirmed: "1" }), fields: [] },
  {
    name: "notifications read",
    routeId: "routes/_account+/notifications",
    path: () => "/notifications",
    who: (w) => w.julia,
    base: () => ({ intent: "open", id: "x", to: "/notifications" }),
    fields: [{ name: "id", kind: { type: "ids" } }],
  },
  // The security page's forms, told apart by `intent`: the same fields as their API twins, checked
  // before a password (a pool actor never reaches the password, so its sign-in attempts are kept).
  ...(
    [
      ["email change", { intent: "email", email: unique("novo"), password: "senha-errada-1" }, [{ name: "email", kind: { type: "email" } }]],
      ["password change", { intent: "password_change", password: "senha-errada-1", new_password: "senha-nova-123" }, [{ name: "new_password", kind: { type: "password" } }]],
      // Not started or not on for a pool actor: a code that parses is a conflict.
      ["two-factor confirm", { intent: "two_factor_confirm" }, [{ name: "code", kind: { type: "key", max: 64 } }], 409],
      ["two-factor disable", { intent: "two_factor_disable", password: "senha-errada-1" }, [{ name: "code", kind: { type: "key", max: 64 } }], 409],
      ["recovery codes", { intent: "recovery_codes", password: "senha-errada-1" }, [{ name: "code", kind: { type: "key", max: 64 } }], 409],
      ["two-factor start", { intent: "two_factor_start" }, []],
      ["passkey add", { intent: "passkey_add" }, [{ name: "response", kind: { type: "key", max: 20_000 } }], 422],
    ] as [string, Record<string, string>, Field[], number?][]
  ).map(([name, base, fields, keyMiss]): PageForm => ({
    name: `security ${name}`,
    routeId: "routes/_account+/account.security",
    path: () => "/account/security",
    who: "freelancer",
    base: () => ({ ...base }),
    fields,
    keyMiss,
  })),
  {
    // The demo freelancer has a contract running: a password that parses is refused with 409
    // before it is checked (her sign-in attempts are kept).
    name: "security account delete",
    routeId: "routes/_account+/account.security",
    path: () => "/account/security",
    who: (w) => w.julia,
    base: () => ({ intent: "account_delete", confirm: "1", password: "senha-errada-1" }),
    fields: [{ name: "password", kind: { type: "key", max: 1024 } }],
    keyMiss: 409,
  },
  {
    // The freelancer's service form (/meus-servicos/novo): flat fields named by the service's
    // paths, the package's price in reais.
    name: "create service",
    routeId: "routes/_account+/meus-servicos.novo",
    path: () => "/meus-servicos/novo",
    who: "freelancer",
    base: () => ({
      intent: "save",
      title: "Logotipo para sua confeitaria",
      category: "design",
      description: "Crio o logotipo da sua marca com três propostas, arquivos para impressão e redes sociais.",
      skills: "Illustrator",
      packages_rows: "1",
      "packages.0.name": "Básico",
      "packages.0.includes": "Uma proposta",
      "packages.0.price": "150,00",
      "packages.0.delivery_days": "5",
      "packages.0.revisions": "1",
    }),
    fields: [
      text("title", 10, 120),
      oneOf("category", CATEGORIES),
      text("packages.0.name", 3, 60),
      priceField("packages.0.price"),
      int("packages.0.delivery_days", 1, 90),
      int("packages.0.revisions", 0, 10),
    ],
  },
  { name: "language", routeId: "routes/language", path: () => "/language", who: "visitor", base: () => ({ lng: "en", redirectTo: "/" }), fields: [] },
  { name: "logout", routeId: "routes/_auth+/logout", path: () => "/logout", who: (w) => w.logoutToken, base: () => ({}), fields: [] },
];

export function pageFormCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  for (const f of PAGE_FORMS) {
    const auth = (): { auth: Auth; actor: Actor | null } => {
      if (f.who === "visitor") return { auth: null, actor: null };
      if (typeof f.who === "function") return { auth: f.who(w), actor: null };
      const actor = p.actor(f.who);
      return { auth: actor.token, actor };
    };
    // The language switch answers JSON (it has no page of its own).
    const api = f.name === "language";
    for (const field of f.fields) {
      const price = "price" in field && Boolean(field.price);
      const refused = refusedForm(field.kind, price);
      const values = [...refused, ...(field.kind.type === "key" && !price ? KEY_MISSES : [])];
      for (const value of values) {
        const { auth: a, actor } = auth();
        const passes = field.kind.type === "key" && !price && value.trim() !== "" && value.length <= field.kind.max;
        cases.push({
          name: `page ${f.name}: ${field.name}=${JSON.stringify(value).slice(0, 40)}`,
          method: "POST",
          path: f.path(actor, w),
          auth: a,
          body: { form: Object.entries({ ...f.base(), [field.name]: value }) },
          expect: passes ? [f.keyMiss!] : [422],
          api,
        });
      }
      // A repeated field: the last value counts, and it is refused.
      const { auth: a, actor } = auth();
      cases.push({
        name: `page ${f.name}: ${field.name} twice`,
        method: "POST",
        path: f.path(actor, w),
        auth: a,
        body: { form: [...Object.entries(f.base()), [field.name, f.base()[field.name] ?? "ok"], [field.name, refused[refused.length - 1]!]] },
        expect: [422],
        api,
      });
    }
    const bodyCase = (name: string, body: Body, status: number, message: string, path?: string) => {
      const { auth: a, actor } = auth();
      cases.push({
        name: `page ${f.name}: ${name}`,
        method: "POST",
        path: path ?? f.path(actor, w),
        auth: a,
        body,
        expect: [status],
        api: api || path !== undefined,
        message,
      });
    };
    // Never empty: an empty post without a content type is an empty form, which is fine.
    const fields = new URLSearchParams(f.base()).toString() || "x=1";
    bodyCase("json", { raw: JSON.stringify(f.base()), type: "application/json" }, 415, "unsupported_media_type");
    bodyCase("text/plain", { raw: fields, type: "text/plain" }, 415, "unsupported_media_type");
    bodyCase("xml", { raw: "<a>1</a>", type: "application/xml" }, 415, "unsupported_media_type");
    bodyCase("no content type", { raw: fields, type: null }, 415, "unsupported_media_type");
    bodyCase("multipart without boundary", { raw: fields, type: "multipart/form-data" }, 400, "malformed_form");
    bodyCase(
      "truncated multipart",
      { raw: '--xx\r\nContent-Disposition: form-data; name="intent"\r\n\r\nclose', type: "multipart/form-data; boundary=xx" },
      400,
      "malformed_form",
    );
    const huge = `${fields}&x=${"a".repeat(ONE_MB)}`;
    bodyCase("over 1 MB", { raw: huge, type: "application/x-www-form-urlencoded" }, 413, "payload_too_large");
    bodyCase("over 1 MB, chunked", { raw: huge, type: "application/x-www-form-urlencoded", chunked: true }, 413, "payload_too_large");
    bodyCase(
      "multipart over 1 MB",
      { raw: `--xx\r\nContent-Disposition: form-data; name="x"\r\n\r\n${"a".repeat(ONE_MB)}\r\n--xx--\r\n`, type: "multipart/form-data; boundary=xx" },
      413,
      "payload_too_large",
    );
    // The same refusal for a script's data request (`?_data=`), as JSON.
    const { actor } = auth();
    bodyCase("data request, json", { raw: "{}", type: "application/json" }, 415, "unsupported_media_type", `${f.path(actor, w)}?_data=${encodeURIComponent(f.routeId)}`);
    // Signed out: a protected form sends the visitor to the login page.
    if (f.who !== "visitor") {
      for (const [name, a] of [["no session", null], ["garbage bearer", "garbage"]] as const) {
        cases.push({
          name: `page ${f.name}: ${name}`,
          method: "POST",
          path: f.path(p.actor(f.who === "freelancer" ? "freelancer" : "merchant"), w),
          auth: a,
          body: { form: Object.entries(f.base()) },
          expect: [302],
          api: false,
        });
      }
    }
  }
  return cases;
}

export function pageIdCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  const table: { method: string; path: (id: string) => string; who: Role | null; form?: Record<string, string>; status?: number }[] = [
    { method: "GET", path: (id) => `/opportunities/${id}`, who: null },
    { method: "POST", path: (id) => `/opportunities/${id}`, who: "merchant", form: { intent: "close", confirmed: "1" } },
    { method: "POST", path: (id) => `/opportunities/${id}`, who: "freelancer", form: { intent: "apply", cover_letter: validApplication.cover_letter, price: "100,00", delivery_days: "3" } },
    { method: "GET", path: (id) => `/opportunities/${id}/edit`, who: "merchant" },
    { method: "POST", path: (id) => `/opportunities/${id}/edit`, who: "merchant", form: opportunityForm },
    { method: "GET", path: (id) => `/opportunities/${id}/applications`, who: "merchant" },
    { method: "GET", path: (id) => `/applications/${id}`, who: null },
    { method: "GET", path: (id) => `/applications/${id}/negotiate`, who: null },
    { method: "POST", path: (id) => `/applications/${id}/negotiate`, who: "freelancer", form: { intent: "withdraw", confirmed: "1" } },
    { method: "GET", path: (id) => `/contracts/${id}`, who: null },
    { method: "POST", path: (id) => `/contracts/${id}`, who: "merchant", form: { intent: "approve", confirmed: "1" } },
    { method: "GET", path: (id) => `/contracts/${id}/files/x`, who: null },
    { method: "GET", path: (id) => `/applications/${id}/messages`, who: null },
    { method: "GET", path: (id) => `/applications/${id}/messages/files/x`, who: null },
    { method: "GET", path: (id) => `/freelancers/${id}`, who: null },
    { method: "POST", path: (id) => `/applications/${id}/messages`, who: "freelancer", form: { body: "Oi" } },
    // Inviting someone who is not a freelancer of this site: the not-found page.
    { method: "POST", path: (id) => `/freelancers/${id}`, who: "merchant", form: { opportunity: w.seeded.open, message: "Oi" } },
    { method: "GET", path: (id) => `/merchants/${id}`, who: null },
    { method: "GET", path: (id) => `/meus-servicos/${id}`, who: "freelancer" },
    { method: "POST", path: (id) => `/meus-servicos/${id}`, who: "freelancer", form: { intent: "pause" } },
    { method: "GET", path: (id) => `/uploads/${id}`, who: null },
    // A copy of someone's data: nobody's (or another user's) id is the same 404.
    { method: "GET", path: (id) => `/account/data-export/${id}`, who: null },
    { method: "GET", path: (id) => `/contracts/${w.seeded.accepted}/files/${id}`, who: null },
    { method: "GET", path: (id) => `/applications/${w.seeded.pending.id}/messages/files/${id}`, who: null },
    // An unsubscribe link that does not check out: a 400 page saying so.
    { method: "GET", path: (id) => `/unsubscribe/${id}`, who: null, status: 400 },
    { method: "POST", path: (id) => `/unsubscribe/${id}`, who: null, status: 400 },
  ];
  for (const e of table) {
    for (const id of BAD_IDS) {
      cases.push({
        name: `page unknown id ${id.slice(0, 30)}`,
        method: e.method,
        path: e.path(idPath(id)),
        auth: e.who ? p.actor(e.who).token : w.julia,
        body: e.form ? { form: Object.entries(e.form) } : undefined,
        expect: id.startsWith("%2e%2e") ? [e.status ?? 404, 301] : [e.status ?? 404],
        api: false,
      });
    }
  }
  // Intents nobody offers go back to the page; a destructive one without its confirmation, to that step.
  // A control character is refused at the edge, as in any field (422 with the form's message).
  for (const intent of ["' OR 1=1 --", "x".repeat(10_000), "\u0000", ""]) {
    const m = p.actor("merchant");
    const expect = typeable(intent) ? [302] : [422];
    cases.push({ name: `odd intent ${intent.slice(0, 20)}`, method: "POST", path: `/opportunities/${m.opp}`, auth: m.token, body: { form: [["intent", intent]] }, expect, api: false });
    cases.push({ name: `odd intent ${intent.slice(0, 20)}`, method: "POST", path: `/applications/${m.app}/negotiate`, auth: m.token, body: { form: [["intent", intent]] }, expect, api: false });
    cases.push({ name: `odd service form intent ${intent.slice(0, 20)}`, method: "POST", path: "/meus-servicos/novo", auth: p.actor("freelancer").token, body: { form: [["intent", intent]] }, expect, api: false });
    cases.push({ name: `odd contract intent ${intent.slice(0, 20)}`, method: "POST", path: `/contracts/${w.seeded.accepted}`, auth: w.julia, body: { form: [["intent", intent]] }, expect, api: false });
  }
  // The language switch ignores what it does not know and never leaves the site.
  for (const [lng, to] of [["xx", "/"], ["' OR 1=1", "/"], ["en", "//evil.example"], ["en", "https://evil.example/"], ["en", "/\\evil.example"], ["en", "javascript:alert(1)"], ["pt-BR", "x".repeat(10_000)]]) {
    cases.push({ name: `language ${lng} → ${to!.slice(0, 20)}`, method: "POST", path: "/language", body: { form: [["lng", lng!], ["redirectTo", to!]] }, expect: [302], api: false });
  }
  for (const path of ["/uploads/..%2f..%2fetc%2fpasswd", "/uploads/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/uploads/%00", "/uploads/x.png%00.txt", `/uploads/${"x".repeat(5000)}`]) {
    cases.push({ name: "upload traversal", method: "GET", path, expect: [404], api: false });
  }
  // Malformed percent-encoding in the path: remix-serve (Express) answers 400 before the app runs.
  for (const path of ["/opportunities/%E0%A4%A", "/api/opportunities/%E0%A4%A", "/%ZZ", "/applications/%C0%AF/negotiate"]) {
    cases.push({ name: "malformed path encoding", method: "GET", path, auth: w.julia, expect: [400], api: false });
  }
  cases.push({ name: "reset link with a huge token", method: "GET", path: `/reset-password?token=${"x".repeat(10_000)}`, expect: [400], api: false });
  cases.push({ name: "reset link with NUL", method: "GET", path: "/reset-password?token=%00", expect: [400], api: false });
  return cases;
}

/** State conflicts, roles and ownership with the demo seed's own records (docs/product.md §3, §4). */
export function conflictCases(w: World): Case[] {
  const s = w.seeded;
  const c = (name: string, method: string, path: string, auth: string, json: unknown, status: number, message?: string): Case => ({
    name,
    method,
    path,
    auth,
    body: method === "GET" ? undefined : { json },
    expect: [status],
    api: true,
    message,
  });
  const cases: Case[] = [
    c("close a closed opportunity", "POST", `/api/opportunities/${s.closed}/close`, w.ana, {}, 409),
    c("reopen an open opportunity", "POST", `/api/opportunities/${s.open}/reopen`, w.ana, {}, 409, "opportunity_not_closed"),
    c("reopen a filled opportunity", "POST", `/api/opportunities/${s.filled}/reopen`, w.ana, {}, 409, "opportunity_not_closed"),
    c("delete with applications", "DELETE", `/api/opportunities/${s.openWithApps}`, w.ana, {}, 409, "opportunity_has_applications"),
    c("edit a closed opportunity", "PATCH", `/api/opportunities/${s.closed}`, w.ana, { title: "Título novo válido" }, 409, "opportunity_not_open"),
    c("apply to a closed opportunity", "POST", `/api/opportunities/${s.closed}/applications`, w.julia, validApplication, 409, "opportunity_not_open"),
    c("apply twice", "POST", `/api/opportunities/${s.pending.opp}/applications`, w.julia, validApplication, 409, "already_applied"),
    c("counter out of turn", "POST", `/api/applications/${s.pending.id}/offers`, w.julia, { price_cents: 1000, delivery_days: 3 }, 409, "not_your_turn"),
    c("accept an older offer", "POST", `/api/applications/${s.countered.id}/accept`, w.julia, { offer_id: s.countered.firstOffer }, 409, "offer_not_latest"),
    c("accept out of turn", "POST", `/api/applications/${s.countered.id}/accept`, w.ana, { offer_id: s.countered.firstOffer }, 409),
    c("withdraw an accepted application", "POST", `/api/applications/${s.accepted}/withdraw`, w.julia, {}, 409, "application_final"),
    c("someone else's application", "GET", `/api/applications/${s.notJulias}`, w.julia, null, 404, "not_found"),
    c("someone else's opportunity's applications", "GET", `/api/opportunities/${s.carlos}/applications`, w.ana, null, 404, "not_found"),
    c("edit someone else's opportunity", "PATCH", `/api/opportunities/${s.carlos}`, w.ana, { title: "Título novo válido" }, 404, "not_found"),
    c("close someone else's opportunity", "POST", `/api/opportunities/${s.carlos}/close`, w.ana, {}, 404, "not_found"),
    { ...c("register a taken e-mail", "POST", "/api/register", "", { full_name: "Outra Ana", email: "ANA@freela.dev", password: "senha-segura-1", account_type: "merchant" }, 422), field: "email" },
    c("wrong password", "POST", "/api/login", "", { email: "pedro@freela.dev", password: "senha-errada-1" }, 401, "invalid_credentials"),
    {
      name: "page: close a closed opportunity",
      method: "POST",
      path: `/opportunities/${s.closed}`,
      auth: w.ana,
      body: { form: [["intent", "close"], ["confirmed", "1"]] },
      expect: [409],
      api: false,
    },
    {
      name: "page: withdraw an accepted application",
      method: "POST",
      path: `/applications/${s.accepted}/negotiate`,
      auth: w.julia,
      body: { form: [["intent", "withdraw"], ["confirmed", "1"]] },
      expect: [409],
      api: false,
    },
    {
      name: "page: delete without confirmation goes to the confirmation",
      method: "POST",
      path: `/opportunities/${s.openWithApps}`,
      auth: w.ana,
      body: { form: [["intent", "delete"]] },
      expect: [302],
      api: false,
    },
  ];
  return cases.map((x) => (x.auth === "" ? { ...x, auth: null } : x));
}

/**
 * Deliveries of Júlia's contract from the seed (in progress, hers to deliver), each refused for
 * its body or its files before anything is kept; and the contract as seen by someone else.
 */
export function contractCases(w: World, p: Pool): Case[] {
  const id = w.seeded.accepted;
  const path = `/api/contracts/${id}/deliveries`;
  const page = `/contracts/${id}`;
  const png = () => new Blob([PNG_1X1], { type: "image/png" });
  const fake = () => new Blob(["<html><script>alert(1)</script></html>"], { type: "application/pdf" });
  const deliver = (name: string, parts: [string, string | Blob, string?][], status: number, field?: string, message?: string): Case[] => [
    { name: `delivery: ${name}`, method: "POST", path, auth: w.julia, body: { multipart: parts }, expect: [status], api: true, field, message },
    {
      name: `page delivery: ${name}`,
      method: "POST",
      path: page,
      auth: w.julia,
      body: { multipart: [["intent", "deliver"], ...parts] },
      expect: [status],
      api: false,
    },
  ];
  const ok = "Entrega com arquivos.";
  return [
    ...deliver("no message", [["files", png(), "a.png"]], 422, "message"),
    ...deliver("message of spaces", [["message", "   \u200b "], ["files", png(), "a.png"]], 422, "message"),
    ...deliver("message too long", [["message", "x".repeat(4001)]], 422, "message"),
    ...deliver("HTML called .pdf", [["message", ok], ["files", png(), "ok.png"], ["files", fake(), "relatorio.pdf"]], 422, "files", "validation_failed"),
    ...deliver("empty file", [["message", ok], ["files", new Blob([]), "vazio.pdf"]], 422, "files"),
    ...deliver("file over 10 MB", [["message", ok], ["files", new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), "grande.zip"]], 413, "files"),
    ...deliver("11 files", [["message", ok], ...Array.from({ length: 11 }, (_, i): [string, Blob, string] => ["files", png(), `${i}.png`])], 422, "files"),
    { name: "delivery: text/plain", method: "POST", path, auth: w.julia, body: { raw: "message=oi", type: "text/plain" }, expect: [415], api: true, message: "unsupported_media_type" },
    { name: "delivery: broken multipart", method: "POST", path, auth: w.julia, body: { raw: "--xx\r\nlixo", type: "multipart/form-data; boundary=xx" }, expect: [400], api: true },
    // Someone else: the contract and its files do not exist for them.
    { name: "someone else's contract", method: "GET", path: `/api/contracts/${id}`, auth: p.actor("merchant").token, expect: [404], api: true, message: "not_found" },
    { name: "someone else delivers", method: "POST", path, auth: p.actor("freelancer").token, body: { multipart: [["message", ok], ["files", png(), "a.png"]] }, expect: [404], api: true, message: "not_found" },
    { name: "someone else's contract page", method: "GET", path: page, auth: p.actor("merchant").token, expect: [404], api: false },
    // Júlia's own contract, refused by its state or her role.
    { name: "approve as the freelancer", method: "POST", path: `/api/contracts/${id}/approve`, auth: w.julia, expect: [403], api: true, message: "forbidden_role" },
    { name: "accept a cancellation nobody asked for", method: "POST", path: `/api/contracts/${id}/cancellation-requests/accept`, auth: w.julia, expect: [409], api: true, message: "contract_action_unavailable" },
    { name: "ask to cancel before any delivery", method: "POST", path: `/api/contracts/${id}/cancellation-requests`, auth: w.julia, body: { json: { reason: "Motivo válido" } }, expect: [409], api: true },
    { name: "a file that is not there", method: "GET", path: `/api/contracts/${id}/files/00000000-0000-4000-8000-000000000000`, auth: w.julia, expect: [404], api: true },
    { name: "a file through the public photos", method: "GET", path: "/uploads/c_00000000-0000-4000-8000-000000000000.pdf", expect: [404], api: false },
  ];
}

/** Messages of a pool freelancer's own application, each refused for its text or its files. */
export function messageCases(w: World, p: Pool): Case[] {
  const png = () => new Blob([PNG_1X1], { type: "image/png" });
  const cases: Case[] = [];
  const send = (name: string, parts: [string, string | Blob, string?][], status: number, field?: string) => {
    const a = p.actor("freelancer");
    const path = `/applications/${a.app}/messages`;
    cases.push({ name: `message: ${name}`, method: "POST", path: `/api${path}`, auth: a.token, body: { multipart: parts }, expect: [status], api: true, field });
    cases.push({ name: `page message: ${name}`, method: "POST", path, auth: a.token, body: { multipart: parts }, expect: [status], api: false });
  };
  send("no text", [["files", png(), "a.png"]], 422, "body");
  send("text of spaces", [["body", " \u200b\t "]], 422, "body");
  send("text too long", [["body", "x".repeat(4001)]], 422, "body");
  send("6 files", [["body", "Arquivos"], ...Array.from({ length: 6 }, (_, i): [string, Blob, string] => ["files", png(), `${i}.png`])], 422, "files");
  send("script called .pdf", [["body", "Arquivo"], ["files", new Blob(["<script>alert(1)</script>"]), "a.pdf"]], 422, "files");
  send("file over 10 MB", [["body", "Grande"], ["files", new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), "g.zip"]], 413, "files");
  const a = p.actor("freelancer");
  const api = `/api/applications/${a.app}/messages`;
  cases.push(
    { name: "message: text/plain", method: "POST", path: api, auth: a.token, body: { raw: "body=oi", type: "text/plain" }, expect: [415], api: true, message: "unsupported_media_type" },
    { name: "message: malformed JSON", method: "POST", path: api, auth: a.token, body: { raw: '{"body":', type: "application/json" }, expect: [400], api: true, message: "malformed_json" },
    { name: "message: body not text", method: "POST", path: api, auth: a.token, body: { json: { body: ["x"] } }, expect: [422], api: true, field: "body" },
    // Someone else's conversation, its messages and files do not exist for them.
    { name: "someone else's messages", method: "GET", path: api, auth: w.julia, expect: [404], api: true, message: "not_found" },
    { name: "someone else writes", method: "POST", path: api, auth: w.julia, body: { json: { body: "Oi" } }, expect: [404], api: true, message: "not_found" },
    { name: "someone else's message file", method: "GET", path: `${api}/files/00000000-0000-4000-8000-000000000000`, auth: w.julia, expect: [404], api: true },
    { name: "someone else's conversation page", method: "GET", path: `/applications/${a.app}/messages`, auth: w.julia, expect: [404], api: false },
  );
  return cases;
}

/**
 * The contact notice (docs/product.md, "Contatos antes do pagamento"): a text with a contact is
 * sent only with confirm_contact true (JSON) or "1"/"true"/"on" (a form). Anything else — other
 * strings, numbers, lists, objects, huge values, a repeated form field ending in a no — is the
 * notice again (422 on the text's field), never a 5xx, on a message, an application, an
 * invitation and a counter-offer, by the API and by the page forms; and a message's held files
 * (`pending_files`) that are not ids the sender holds are 422 on `files`.
 */
export function contactCases(p: Pool): Case[] {
  const cases: Case[] = [];
  const contact = "Tenho experiência com isso, me chama no zap (11) 98765-4321 para combinarmos.";
  const jsonValues: unknown[] = ["yes", "sim", "0", "false", "", " 1", 1, 0, null, ["1"], [true], {}, { confirm: true }, "1".repeat(100_000)];
  const formValues: [string, string][][] = [[["confirm_contact", "yes"]], [["confirm_contact", "0"]], [["confirm_contact", ""]], [["confirm_contact", "1 "]], [["confirm_contact", "x".repeat(100_000)]], [["confirm_contact", "1"], ["confirm_contact", "não"]]];
  const label = (v: unknown) => JSON.stringify(v)!.slice(0, 20);
  type Endpoint = { name: string; role: Role; field: string; api: (a: Actor) => [string, Record<string, unknown>]; page: (a: Actor) => [string, [string, string][]] };
  const endpoints: Endpoint[] = [
    {
      name: "message",
      role: "freelancer",
      field: "body",
      api: (a) => [`/api/applications/${a.app}/messages`, { body: contact }],
      page: (a) => [`/applications/${a.app}/messages`, [["body", contact]]],
    },
    {
      name: "application",
      role: "freelancer",
      field: "cover_letter",
      api: (a) => [`/api/opportunities/${a.other}/applications`, { ...validApplication, cover_letter: contact }],
      page: (a) => [`/opportunities/${a.other}`, [["intent", "apply"], ["cover_letter", contact], ["price", "3.500,00"], ["delivery_days", "14"]]],
    },
    {
      name: "counter-offer",
      role: "merchant",
      field: "message",
      api: (a) => [`/api/applications/${a.app}/offers`, { price_cents: 100_000, delivery_days: 10, message: contact }],
      page: (a) => [`/applications/${a.app}/negotiate`, [["intent", "counter"], ["price", "1.000,00"], ["delivery_days", "10"], ["message", contact]]],
    },
    {
      name: "invitation",
      role: "merchant",
      field: "message",
      // Another pool freelancer (who has not applied to this opportunity).
      api: (a) => [`/api/opportunities/${a.opp}/invitations`, { freelancer_id: p.actor("freelancer").id, message: contact }],
      page: (a) => [`/freelancers/${p.actor("freelancer").id}`, [["opportunity", a.opp], ["message", contact]]],
    },
  ];
  for (const e of endpoints) {
    for (const value of jsonValues) {
      const a = p.actor(e.role);
      const [path, body] = e.api(a);
      cases.push({ name: `${e.name} confirm_contact ${label(value)}`, method: "POST", path, auth: a.token, body: { json: { ...body, confirm_contact: value } }, expect: [422], api: true, field: e.field });
    }
    for (const extra of formValues) {
      const a = p.actor(e.role);
      const [path, fields] = e.page(a);
      cases.push({ name: `page ${e.name} confirm_contact ${label(extra.map(([, v]) => v))}`, method: "POST", path, auth: a.token, body: { form: [...fields, ...extra] }, expect: [422], api: false });
    }
  }
  for (const value of [42, "x", [1], [null], {}, [NO_ID], `${NO_ID},x`, Array(6).fill(NO_ID), "x".repeat(100_000)]) {
    const a = p.actor("freelancer");
    cases.push({ name: `message pending_files ${label(value)}`, method: "POST", path: `/api/applications/${a.app}/messages`, auth: a.token, body: { json: { body: "Segue o arquivo.", confirm_contact: true, pending_files: value } }, expect: [422], api: true, field: "files" });
  }
  for (const value of ["x", NO_ID, `${NO_ID},${NO_ID},x`]) {
    const a = p.actor("freelancer");
    cases.push({ name: `page message pending_files ${label(value)}`, method: "POST", path: `/applications/${a.app}/messages`, auth: a.token, body: { form: [["body", "Segue o arquivo."], ["pending_files", value]] }, expect: [422], api: false });
  }
  return cases;
}

const ONE_PART = (i: number) => `--xx\r\nContent-Disposition: form-data; name="f${i % 50}"\r\n\r\nx\r\n`;
/** A multipart body of `n` tiny parts (the shape that used to hold the process for seconds). */
export const manyParts = (n: number) => `${Array.from({ length: n }, (_, i) => ONE_PART(i)).join("")}--xx--\r\n`;

/**
 * What an outside audit found, and its siblings: redirects that resolve off the site, control
 * characters in queries and links, bodies of many parts, messages over their size and the
 * storage quota. (Reset links, keep-alive, file names and outages have tests of their own.)
 */
export function securityCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  // The sign-ins take turns among demo accounts: one account signs in at most 30 times an hour.
  const signIns = ["pedro", "fernanda", "luciana", "roberto", "marcos"].map((name) => `${name}@freela.dev`);
  for (const [i, to] of OFFSITE_REDIRECTS.entries()) {
    const name = JSON.stringify(to);
    const email = signIns[i % signIns.length]!;
    cases.push(
      { name: `login redirectFrom ${name}`, method: "POST", path: "/login", body: { form: [["email", email], ["password", "freela123"], ["redirectFrom", to]] }, expect: [302], api: false, location: "/" },
      { name: `language redirectTo ${name}`, method: "POST", path: "/language", body: { form: [["lng", "en"], ["redirectTo", to]] }, expect: [302], api: false, location: "/" },
      { name: `notification link ${name}`, method: "POST", path: "/notifications", auth: w.julia, body: { form: [["intent", "open"], ["id", "00000000-0000-4000-8000-000000000000"], ["to", to]] }, expect: [302], api: false, location: "/notifications" },
    );
  }
  // A saved search's filters are the list's own: unknown ones, bad values and a filters that is no
  // object are 422 on `filters` or `filters.<name>`; one-click unsubscribe links that do not check out, 400.
  const savedSearch = (name: string, filters: unknown, field: string) =>
    cases.push({ name: `saved search filters ${name}`, method: "POST", path: "/api/saved-searches", auth: p.actor("freelancer").token, body: { json: { name: "Busca", frequency: "daily", filters } }, expect: [422], api: true, field });
  savedSearch("unknown", { cor: "azul" }, "filters");
  savedSearch("not an object", "q=react", "filters");
  savedSearch("array", ["react"], "filters");
  savedSearch("bad category", { category: "' OR 1=1 --" }, "filters.category");
  savedSearch("bad budget", { budget_min_cents: "1e99" }, "filters.budget_min_cents");
  savedSearch("long query", { q: "x".repeat(5000) }, "filters.q");
  cases.push({ name: "saved search filters nul in query", method: "POST", path: "/api/saved-searches", auth: p.actor("freelancer").token, body: { json: { name: "Busca", frequency: "daily", filters: { q: "a\u0000b" } } }, expect: [400, 422], api: true });
  for (const token of ["x", `${NO_ID}.AAAA`, `${NO_ID}.${"A".repeat(43)}`, "%00", "x".repeat(500)]) {
    for (const method of ["GET", "POST"]) {
      cases.push({ name: `saved search unsubscribe ${method} ${token.slice(0, 30)}`, method, path: `/buscas-salvas/cancelar/${token}`, body: method === "POST" ? { form: [] } : undefined, expect: token === "%00" ? [400, 404] : [400], api: false });
    }
  }
  // The copy of one's data: none asked for is a 404 with its message, never the ZIP of another account.
  cases.push({ name: "data export download, none asked for", method: "GET", path: "/api/account/export/download", auth: p.actor("freelancer").token, expect: [404], api: true, message: "data_export_not_found" });
  // Control characters in a query: the API names the parameter, the page leaves it out.
  for (const value of ["a\u0000b", "a\u001bb", "\u007f", "a\u0085b"]) {
    for (const param of ["skill", "city", "q"]) {
      cases.push({ name: `directory ${param} with control`, method: "GET", path: `/api/freelancers?${new URLSearchParams({ [param]: value })}`, auth: w.ana, expect: [422], api: true, field: param });
      cases.push({ name: `directory page ${param} with control`, method: "GET", path: `/freelancers?${new URLSearchParams({ [param]: value })}`, auth: w.ana, expect: [200], api: false });
    }
    for (const param of ["city", "category", "sort"]) {
      cases.push({ name: `opportunities ${param} with control`, method: "GET", path: `/api/opportunities?${new URLSearchParams({ [param]: value })}`, auth: w.julia, expect: [422], api: true, field: param });
    }
  }
  // Portfolio links: no control characters (NUL included), no bidi overrides or isolates.
  for (const link of ["https://ex.com/a\u0000b", "https://ex.com/a\u001bb", "https://ex.com/\u202Egnp.exe", "https://ex.com/a\u0085b", "https://ex.com/\u2066x\u2069", "https://ex.com/\u200Fx"]) {
    const f = p.actor("freelancer");
    cases.push({
      name: `portfolio link ${JSON.stringify(link)}`,
      method: "POST",
      path: "/api/portfolio",
      auth: f.token,
      body: { multipart: [["title", "Projeto válido"], ["description", "Descrição válida do projeto entregue."], ["link", link]] },
      expect: [422],
      api: true,
      field: "link",
    });
  }
  // Bodies of many tiny parts are refused as they stream in, wherever forms are read.
  const parts = { raw: manyParts(5_000), type: "multipart/form-data; boundary=xx" };
  const f = p.actor("freelancer");
  const tooMany = (name: string, path: string, auth: string | null, api: boolean): Case => ({ name: `many parts: ${name}`, method: "POST", path, auth, body: parts, expect: [413], api, message: api ? "form_too_many_parts" : undefined });
  cases.push(
    tooMany("message", `/api/applications/${f.app}/messages`, f.token, true),
    tooMany("message page", `/applications/${f.app}/messages`, f.token, false),
    tooMany("delivery", `/api/contracts/${w.seeded.accepted}/deliveries`, w.julia, true),
    tooMany("delivery page", `/contracts/${w.seeded.accepted}`, w.julia, false),
    tooMany("profile", "/api/profile", p.actor("freelancer").token, true),
    tooMany("portfolio", "/api/portfolio", p.actor("freelancer").token, true),
    tooMany("settings page", "/pages/profile-setting", p.actor("freelancer").token, false),
    tooMany("login page", "/login", null, false),
    {
      name: "many fields: url-encoded login",
      method: "POST",
      path: "/login",
      body: { raw: Array.from({ length: 20_000 }, (_, i) => `f${i}=x`).join("&"), type: "application/x-www-form-urlencoded" },
      expect: [413],
      api: false,
    },
  );
  // A message's upload over its own limit says so (not a delivery's message); the quota, set to
  // 1 MB for this server, refuses a valid file that does not fit, storing nothing.
  const m = p.actor("freelancer");
  const q = p.actor("freelancer");
  cases.push(
    {
      name: "message over its limit",
      method: "POST",
      path: `/api/applications/${m.app}/messages`,
      auth: m.token,
      body: { raw: `--xx\r\nContent-Disposition: form-data; name="body"\r\n\r\n${"x".repeat(52 * 1024 * 1024)}\r\n--xx--\r\n`, type: "multipart/form-data; boundary=xx", chunked: true },
      expect: [413],
      api: true,
      field: "files",
      message: "message_too_large",
    },
    {
      name: "message past the storage quota",
      method: "POST",
      path: `/api/applications/${q.app}/messages`,
      auth: q.token,
      body: { multipart: [["body", "Arquivo grande"], ["files", new Blob([PNG_1X1, new Uint8Array(1536 * 1024)], { type: "image/png" }), "grande.png"]] },
      expect: [413],
      api: true,
      field: "files",
      message: "storage_quota_exceeded",
    },
  );
  return cases;
}

/**
 * The public pages and their JSON twins, read without a session: ids that are none (404, never a
 * 5xx), sitemap files that do not exist, the wrong methods; and the two switches' odd values (the
 * owner's public_profile, the operator's public_pages) refused with their field.
 */
export function publicCases(w: World, p: Pool): Case[] {
  const cases: Case[] = [];
  for (const id of BAD_IDS) {
    const path = idPath(id);
    const climbs = id.startsWith("%2e%2e") || id.startsWith("..");
    for (const [api, message] of [
      ["/api/public/opportunities", "not_found"],
      ["/api/public/profiles", "profile_not_found"],
      ["/api/services", "not_found"],
    ] as const) {
      cases.push({ name: `public API id ${id.slice(0, 30)}`, method: "GET", path: `${api}/${path}`, auth: null, expect: id.startsWith("%2e%2e") ? [404, 301] : [404], api: true, message });
    }
    for (const page of ["/vagas", "/perfil"]) {
      for (const segment of [path, `um-nome-${path}`]) {
        cases.push({ name: `public page id ${id.slice(0, 30)}`, method: "GET", path: `${page}/${segment}`, auth: null, expect: climbs ? [404, 301] : [404], api: false });
      }
    }
  }
  for (const file of ["opportunities-0.xml", "opportunities-99999.xml", "profiles-1000000.xml", "x.xml", "opportunities-1.json", "%00", "opportunities-1.xml%00", "x".repeat(5000), "profiles--1.xml", "opportunities-01.xml"]) {
    cases.push({ name: `sitemap file ${file.slice(0, 30)}`, method: "GET", path: `/sitemap/${file}`, auth: null, expect: [404], api: false });
  }
  for (const query of ["?page=-1", "?x=%00", `?q=${"x".repeat(5000)}`]) {
    cases.push({ name: `sitemap query ${query.slice(0, 20)}`, method: "GET", path: `/sitemap.xml${query}`, auth: null, expect: [200], api: false });
    cases.push({ name: `sitemap page query ${query.slice(0, 20)}`, method: "GET", path: `/sitemap/opportunities-1.xml${query}`, auth: null, expect: [200], api: false });
  }
  for (const method of ["POST", "PATCH", "DELETE"]) {
    cases.push({ name: "public API wrong method", method, path: `/api/public/profiles/${w.juliaId}`, auth: null, expect: [405], api: true, message: "method_not_allowed" });
    cases.push({ name: "public API wrong method", method, path: `/api/public/opportunities/${w.seeded.open}`, auth: w.julia, expect: [405], api: true, message: "method_not_allowed" });
    cases.push({ name: "services API wrong method", method: method === "POST" ? "PUT" : method, path: "/api/services", auth: null, expect: [405], api: true, message: "method_not_allowed" });
  }
  for (const value of ["talvez", "2", "-1", "' OR 1=1 --", "x".repeat(5000), "١"]) {
    const f = p.actor("freelancer");
    cases.push({ name: `public_profile ${value.slice(0, 20)}`, method: "POST", path: "/api/profile", auth: f.token, body: { form: [["public_profile", value]] }, expect: [422], api: true, field: "public_profile" });
  }
  for (const value of ["sim", 2, -1, null, [1], { on: true }, "x".repeat(5000)]) {
    cases.push({ name: `public_pages ${JSON.stringify(value).slice(0, 20)}`, method: "POST", path: "/api/admin/settings", auth: w.operator, body: { json: { public_pages: value } }, expect: [422], api: true, field: "public_pages" });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The identity provider's webhook (IDENTITY_PROVIDER=kyc on the server under test), trusted by its
// signature only: headers missing, malformed or signed with another secret or time, and bodies
// signed but not a result, all answer a 4xx with a Portuguese message (docs/operations.md).

/** The server's KYC settings: a service nobody runs (sends fail, to be retried), and its secret. */
export const KYC_ENV = {
  IDENTITY_PROVIDER: "kyc",
  IDENTITY_PROVIDER_URL: "http://127.0.0.1:9",
  IDENTITY_PROVIDER_TOKEN: "hostile-kyc-token",
  IDENTITY_WEBHOOK_SECRET: "hostile-kyc-secret-0123456789",
  // And the e-mail provider's bounce webhooks (email-suppressions.server.ts).
  MAILGUN_WEBHOOK_SIGNING_KEY: "hostile-mailgun-key-0123456789",
  EMAIL_WEBHOOK_SECRET: "hostile-email-secret-0123456789",
  // And WhatsApp (whatsapp.server.ts): a Cloud API nobody runs, and the webhook's secrets.
  WHATSAPP_API_URL: "http://127.0.0.1:9",
  WHATSAPP_PHONE_NUMBER_ID: "hostile-phone-id",
  WHATSAPP_TOKEN: "hostile-whatsapp-token",
  WHATSAPP_APP_SECRET: "hostile-whatsapp-secret-0123456789",
  WHATSAPP_VERIFY_TOKEN: "hostile-whatsapp-verify",
  // And Pix Automático (recurring.server.ts): a PSP nobody runs, and the webhook's secret.
  PIX_AUTOMATICO_API_URL: "http://127.0.0.1:9",
  PIX_AUTOMATICO_TOKEN: "hostile-pix-automatico-token",
  PIX_AUTOMATICO_WEBHOOK_SECRET: "hostile-pix-automatico-secret-0123",
};

const seconds = () => Math.floor(Date.now() / 1000);

/** The provider's headers for `body`: signed with `secret` at the time `ts` gives when sent. */
const kycSigned =
  (body: string | Uint8Array, ts: () => string = () => String(seconds()), secret = KYC_ENV.IDENTITY_WEBHOOK_SECRET) =>
  () => {
    const t = ts();
    const hex = createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
    return { "x-kyc-timestamp": t, "x-kyc-signature": `sha256=${hex}` };
  };

const KYC_SIGNATURES = [
  "",
  "sha256=",
  "sha256=zz",
  `sha256=${"0".repeat(64)}`,
  `sha256=${"0".repeat(63)}`,
  `sha256=${"0".repeat(65)}`,
  `sha256=${"g".repeat(64)}`,
  `SHA256=${"0".repeat(64)}`,
  `sha1=${"0".repeat(40)}`,
  `t=1,v1=${"0".repeat(64)}`,
  `sha256=${"0".repeat(64)},sha256=${"0".repeat(64)}`,
  `sha256=${"a".repeat(8000)}`,
];

/** Timestamps signed with the right secret, but not a time now: unreadable, too old, too far ahead. */
const KYC_TIMES: [string, () => string][] = [
  ["empty", () => ""],
  ["negative", () => "-1"],
  ["exponent", () => "1e10"],
  ["hex", () => "0x6a000000"],
  ["20 digits", () => "9".repeat(20)],
  ["zero", () => "0"],
  ["ten minutes ago", () => String(seconds() - 600)],
  ["ten minutes ahead", () => String(seconds() + 600)],
  ["milliseconds, an hour ago", () => String(Date.now() - 3_600_000)],
  ["fraction", () => `${seconds()}.5`],
];

export function webhookCases(): Case[] {
  const path = "/api/identity/webhooks/kyc";
  const cases: Case[] = [];
  const add = (name: string, body: Body | undefined, headers: Case["headers"], expect: number[], message?: string) =>
    cases.push({ name: `kyc webhook: ${name}`, method: "POST", path, auth: null, body, headers, expect, api: true, message });
  const json = (raw: string | Uint8Array): Body => ({ raw, type: "application/json" });
  const result = (data: unknown, event: Record<string, unknown> = {}) =>
    JSON.stringify({ id: "evt_hostil", type: "verification.completed", data, ...event });
  // A well-formed result about a verification nobody made: only the signature stands before it.
  const unknown = result({ id: "ver_ninguem", status: "approved" });

  add("no headers", json(unknown), undefined, [401], "webhook_bad_signature");
  add("no signature", json(unknown), () => ({ "x-kyc-timestamp": String(seconds()) }), [401], "webhook_bad_signature");
  add("no timestamp", json(unknown), () => ({ "x-kyc-signature": kycSigned(unknown)()["x-kyc-signature"] }), [401], "webhook_bad_signature");
  for (const signature of KYC_SIGNATURES) {
    add(`signature ${signature.slice(0, 24)}`, json(unknown), () => ({ "x-kyc-timestamp": String(seconds()), "x-kyc-signature": signature }), [401], "webhook_bad_signature");
  }
  add("another secret", json(unknown), kycSigned(unknown, undefined, "someone-elses-secret-000000"), [401], "webhook_bad_signature");
  add("signed for another body", json(unknown), kycSigned(result({ id: "ver_ninguem", status: "rejected", reason: "Ilegível." })), [401], "webhook_bad_signature");
  for (const [name, ts] of KYC_TIMES) add(`timestamp ${name}`, json(unknown), kycSigned(unknown, ts), [401]);

  // Signed, but not a result: 400; a result of no verification: 404.
  for (const raw of ["", ...MALFORMED_JSON]) {
    // A result is small: past 64 KB the body is not read at all.
    const large = raw.length > 64 * 1024;
    add(`signed malformed ${raw.slice(0, 20)}`, json(raw), kycSigned(raw), [large ? 413 : 400], large ? "payload_too_large" : "webhook_malformed");
  }
  const refused: [string, string][] = [
    ["event id missing", JSON.stringify({ type: "verification.completed", data: { id: "ver_x", status: "approved" } })],
    ["event id a number", result({ id: "ver_x", status: "approved" }, { id: 1 })],
    ["event id too long", result({ id: "ver_x", status: "approved" }, { id: "e".repeat(65) })],
    ["event id injection", result({ id: "ver_x", status: "approved" }, { id: "' OR 1=1 --" })],
    ["another type", result({ id: "ver_x", status: "approved" }, { type: "verification.created" })],
    ["no data", result(undefined)],
    ["data null", result(null)],
    ["data a list", result(["ver_x", "approved"])],
    ["verification id a number", result({ id: 7, status: "approved" })],
    ["verification id injection", result({ id: "'; DROP TABLE identities;--", status: "approved" })],
    ["verification id a path", result({ id: "../../etc/passwd", status: "approved" })],
    ["verification id empty", result({ id: "", status: "approved" })],
    ["status unknown", result({ id: "ver_x", status: "maybe" })],
    ["status missing", result({ id: "ver_x" })],
    ["status upper case", result({ id: "ver_x", status: "APPROVED" })],
    ["rejected without reason", result({ id: "ver_x", status: "rejected" })],
    ["rejected, reason a number", result({ id: "ver_x", status: "rejected", reason: 12345 })],
    ["rejected, reason control characters", result({ id: "ver_x", status: "rejected", reason: "\u0000\u0007\u001b  \u0000" })],
  ];
  for (const [name, body] of refused) add(`signed ${name}`, json(body), kycSigned(body), [400], "webhook_malformed");
  const unknowns: [string, string][] = [
    ["approved", unknown],
    ["rejected with a reason", result({ id: "ver_ninguem", status: "rejected", reason: "Documento ilegível." })],
    ["a reason of 100 000 characters", result({ id: "ver_ninguem", status: "rejected", reason: "motivo ".repeat(8_000) })],
    ["prototype keys", `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"id":"evt_p","type":"verification.completed","data":{"id":"ver_ninguem","status":"approved","__proto__":{"status":"rejected"}}}`],
    ["extra fields", result({ id: "ver_ninguem", status: "approved", user_id: "00000000-0000-4000-8000-000000000000", version: 1 })],
    ...Object.entries(ODD).map(([name, odd]): [string, string] => [`reason ${name}`, result({ id: "ver_ninguem", status: "rejected", reason: `Motivo ${odd}` })]),
  ];
  for (const [name, body] of unknowns) add(`signed, unknown verification, ${name}`, json(body), kycSigned(body), [404], "webhook_unknown_verification");
  // The content type is not what is trusted: any, or none, reads the same.
  add("signed as text/plain", { raw: unknown, type: "text/plain" }, kycSigned(unknown), [404], "webhook_unknown_verification");
  add("signed without content type", { raw: unknown, type: null }, kycSigned(unknown), [404], "webhook_unknown_verification");
  // Bytes that are not UTF-8, signed as bytes: what is read is not what was signed.
  const bytesBody = Buffer.concat([Buffer.from('{"id":"evt_b","type":"verification.completed","data":{"id":"ver_'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('","status":"approved"}}')]);
  add("signed bytes that are not UTF-8", json(bytesBody), kycSigned(bytesBody), [400, 401]);
  // Too large for a result, declared or streamed.
  const big = result({ id: "ver_ninguem", status: "rejected", reason: "a".repeat(70 * 1024) });
  add("over 64 KB", json(big), kycSigned(big), [413], "payload_too_large");
  add("over 64 KB, chunked", { raw: big, type: "application/json", chunked: true }, kycSigned(big), [413], "payload_too_large");
  add("over 1 MB, unsigned", json(oversizeJson()), undefined, [413], "payload_too_large");
  for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
    cases.push({ name: `kyc webhook: ${method}`, method, path, auth: null, expect: [405], api: true, message: "method_not_allowed" });
  }
  return cases;
}

/**
 * WhatsApp's webhook: unsigned, forged or malformed notifications are refused with a 4xx before
 * anything is read; the GET handshake with a wrong token is a 403.
 */
export function whatsappWebhookCases(): Case[] {
  const cases: Case[] = [];
  const path = "/api/whatsapp/webhook";
  const stop = JSON.stringify({ entry: [{ changes: [{ value: { messages: [{ from: "5511912345678", type: "text", text: { body: "STOP" } }] } }] }] });
  const signed = (raw: string, secret = KYC_ENV.WHATSAPP_APP_SECRET) => () => ({
    "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`,
  });
  const add = (name: string, raw: string, headers: Case["headers"], expect: number[], message?: string) =>
    cases.push({ name: `WhatsApp webhook: ${name}`, method: "POST", path, auth: null, body: { raw, type: "application/json" }, headers, expect, api: true, message });
  add("unsigned", stop, undefined, [401], "webhook_bad_signature");
  add("another secret", stop, signed(stop, "someone-elses-secret-0123456789"), [401], "webhook_bad_signature");
  add("signature not hex", stop, () => ({ "x-hub-signature-256": "sha256=zz" }), [401], "webhook_bad_signature");
  add("sha1 signature", stop, () => ({ "x-hub-signature-256": `sha1=${createHmac("sha1", KYC_ENV.WHATSAPP_APP_SECRET).update(stop).digest("hex")}` }), [401], "webhook_bad_signature");
  for (const raw of ["", "{", "[1,", '{"entry": '.repeat(10)]) add(`signed, malformed ${raw.slice(0, 20)}`, raw, signed(raw), [400], "webhook_malformed");
  add("over 256 KB", `{"x":"${"a".repeat(300 * 1024)}"}`, undefined, [413]);
  for (const query of ["", "?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1", "?hub.mode=unsubscribe&hub.verify_token=hostile-whatsapp-verify&hub.challenge=1"]) {
    cases.push({ name: `WhatsApp handshake ${query.slice(0, 40)}`, method: "GET", path: `${path}${query}`, auth: null, expect: [403], api: true, message: "whatsapp_handshake_refused" });
  }
  return cases;
}

/**
 * The e-mail provider's bounce webhooks: Mailgun's signature is in the body, the generic one's in
 * headers; unsigned, forged, stale or malformed notifications are refused with a 4xx, and an
 * unknown provider is not there.
 */
export function emailWebhookCases(): Case[] {
  const cases: Case[] = [];
  const json = (raw: string): Body => ({ raw, type: "application/json" });
  const add = (provider: string, name: string, raw: string, headers: Case["headers"], expect: number[], message?: string) =>
    cases.push({ name: `${provider} e-mail webhook: ${name}`, method: "POST", path: `/api/webhooks/email/${provider}`, auth: null, body: json(raw), headers, expect, api: true, message });
  const mailgun = (event: unknown, { ts = String(seconds()), key = KYC_ENV.MAILGUN_WEBHOOK_SIGNING_KEY, token = "hostile-token-0123456789" } = {}) =>
    JSON.stringify({ signature: { timestamp: ts, token, signature: createHmac("sha256", key).update(ts + token).digest("hex") }, "event-data": event });
  const bounce = { event: "failed", severity: "permanent", recipient: "ninguem@example.com" };
  add("mailgun", "unsigned", JSON.stringify({ "event-data": bounce }), undefined, [400], "webhook_malformed");
  add("mailgun", "another key", mailgun(bounce, { key: "someone-elses-key-0123456789" }), undefined, [401], "webhook_bad_signature");
  add("mailgun", "an hour old", mailgun(bounce, { ts: String(seconds() - 3600) }), undefined, [401], "webhook_stale");
  add("mailgun", "signature not hex", mailgun(bounce).replace(/"signature":"[0-9a-f]+"/, '"signature":"zz"'), undefined, [400], "webhook_malformed");
  for (const [name, event] of Object.entries({
    "recipient not an address": { ...bounce, recipient: "' OR 1=1 --" },
    "recipient a list": { ...bounce, recipient: ["a@b.co"] },
    "recipient of 300 characters": { ...bounce, recipient: `${"a".repeat(290)}@example.com` },
    "no event": { recipient: "a@b.co" },
  })) {
    add("mailgun", `signed, ${name}`, mailgun(event), undefined, [400], "webhook_malformed");
  }
  for (const raw of ["", ...MALFORMED_JSON.filter((m) => m.length < 64 * 1024)]) add("mailgun", `malformed ${raw.slice(0, 20)}`, raw, undefined, [400], "webhook_malformed");
  const generic = JSON.stringify({ id: "hostile-1", type: "bounce", email: "ninguem@example.com" });
  const signed = (raw: string, secret = KYC_ENV.EMAIL_WEBHOOK_SECRET, ts = () => String(seconds())) => () => {
    const t = ts();
    return { "x-freela-timestamp": t, "x-freela-signature": `sha256=${createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex")}` };
  };
  add("generic", "no headers", generic, undefined, [401], "webhook_bad_signature");
  add("generic", "another secret", generic, signed(generic, "someone-elses-secret-0123456789"), [401], "webhook_bad_signature");
  for (const [name, ts] of KYC_TIMES) add("generic", `timestamp ${name}`, generic, signed(generic, undefined, ts), [401]);
  for (const raw of ['{"id":"x","type":"bounce","email":"not-an-address"}', '{"id":"","type":"bounce","email":"a@b.co"}', '{"id":"x","type":"DROP","email":"a@b.co"}', "[]", "null"]) {
    add("generic", `signed ${raw.slice(0, 30)}`, raw, signed(raw), [400], "webhook_malformed");
  }
  add("nobody", "an unknown provider", generic, signed(generic), [404]);
  const big = mailgun({ ...bounce, "delivery-status": { message: "a".repeat(70 * 1024) } });
  add("mailgun", "over 64 KB", big, undefined, [413], "payload_too_large");
  for (const method of ["GET", "PUT", "DELETE"]) {
    cases.push({ name: `e-mail webhook: ${method}`, method, path: "/api/webhooks/email/mailgun", auth: null, expect: [405], api: true, message: "method_not_allowed" });
  }
  return cases;
}

export function refusedCases(w: World, p: Pool): Record<string, Case[]> {
  return {
    "API fields and bodies": apiBodyCases(w, p),
    "profile (API and page, with photos)": apiProfileCases(w, p),
    "API sessions and roles": apiAuthCases(w, p),
    "API ids, paths and methods": apiIdCases(w, p),
    "list filters and search": queryCases(w, p),
    "page forms": pageFormCases(w, p),
    "page ids, intents, redirects, uploads": pageIdCases(w, p),
    "conflicts with the seed": conflictCases(w),
    "contract deliveries and files": contractCases(w, p),
    "messages and their files": messageCases(w, p),
    "contact notice: confirm_contact and held files": contactCases(p),
    "redirects, controls, many parts, quota": securityCases(w, p),
    "the console with an operator's session": operatorCases(w),
    "public pages, sitemap and their switches": publicCases(w, p),
    "the identity provider's webhook": webhookCases(),
    "the e-mail provider's bounce webhooks": emailWebhookCases(),
    "WhatsApp's webhook": whatsappWebhookCases(),
    "Pix Automático's webhook": pixAutomaticoWebhookCases(),
    "a service's images": serviceImageCases(w, p),
    "a service's reports": serviceReportCases(w, p),
    "services for a merchant": recommendedServiceCases(w),
    "an order's file answers": orderFileCases(w, p),
    "a time entry's file": entryFileCases(w, p),
    "an hourly week's unused money": keepUnusedCases(w, p),
  };
}

/**
 * Pix Automático's webhook: unsigned, forged, stale or malformed notifications are refused with a
 * 4xx (404 where escrow payments are off: no provider has the capability), never a 5xx.
 */
export function pixAutomaticoWebhookCases(): Case[] {
  const cases: Case[] = [];
  const path = "/api/payments/webhooks/pix-automatico";
  const rec = JSON.stringify({ recs: [{ idRec: "RR1234567820261129000000001" }] });
  const signed = (raw: string, secret = KYC_ENV.PIX_AUTOMATICO_WEBHOOK_SECRET, ts = () => String(seconds())) => () => {
    const t = ts();
    return { "x-signature": `ts=${t},v1=${createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex")}` };
  };
  const add = (name: string, raw: string, headers: Case["headers"], expect: number[]) =>
    cases.push({ name: `Pix Automático webhook: ${name}`, method: "POST", path, auth: null, body: { raw, type: "application/json" }, headers, expect, api: true });
  add("unsigned", rec, undefined, [401, 404]);
  add("another secret", rec, signed(rec, "someone-elses-secret-0123456789"), [401, 404]);
  add("signature not hex", rec, () => ({ "x-signature": "ts=1,v1=zz" }), [401, 404]);
  add("an hour old", rec, signed(rec, undefined, () => String(seconds() - 3_600)), [401, 404]);
  for (const raw of ["", "{", "[]", "null", '{"recs":[{"idRec":"../x"}]}', '{"cobsr":[]}']) add(`signed, malformed ${raw.slice(0, 20)}`, raw, signed(raw), [400, 404]);
  add("over 64 KB", `{"x":"${"a".repeat(70 * 1024)}"}`, undefined, [413]);
  for (const method of ["GET", "PUT", "DELETE"]) {
    cases.push({ name: `Pix Automático webhook: ${method}`, method, path, auth: null, expect: [405], api: true, message: "method_not_allowed" });
  }
  return cases;
}

/** A service's images (POST /api/services/:id/images, PATCH and DELETE …/images/:image): refusals only, nothing stored. */
function serviceImageCases(w: World, p: Pool): Case[] {
  const png = () => new Blob([PNG_1X1], { type: "image/png" });
  const path = `/api/services/${w.seeded.service}/images`;
  const nobody = "00000000-0000-4000-8000-000000000000";
  const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/png" });
  const post = (name: string, auth: Auth, parts: [string, string | Blob, string?][], status: number, extra: Partial<Case> = {}, to = path): Case =>
    ({ name: `service image: ${name}`, method: "POST", path: to, auth, body: { multipart: parts }, expect: [status], api: true, ...extra });
  return [
    post("an svg named .png", w.julia, [["image", svg, "a.png"]], 422, { field: "image" }),
    post("text", w.julia, [["image", new Blob(["não é imagem"]), "a.jpg"]], 422, { field: "image" }),
    post("no file", w.julia, [["title", "x"]], 422, { field: "image" }),
    post("another freelancer's service", p.actor("freelancer").token, [["image", png(), "a.png"]], 404, { message: "not_found" }),
    post("a merchant", p.actor("merchant").token, [["image", png(), "a.png"]], 403),
    post("a visitor", null, [["image", png(), "a.png"]], 401),
    post("a service that does not exist", w.julia, [["image", png(), "a.png"]], 404, { message: "not_found" }, `/api/services/${nobody}/images`),
    post("a service id that is not one", w.julia, [["image", png(), "a.png"]], 404, {}, "/api/services/..%2F..%2Fetc/images"),
    { name: "service image: move to -1", method: "PATCH", path: `${path}/${nobody}`, auth: w.julia, body: { json: { position: -1 } }, expect: [422], api: true, field: "position" },
    { name: "service image: move to a word", method: "PATCH", path: `${path}/${nobody}`, auth: w.julia, body: { json: { position: "primeira" } }, expect: [422], api: true, field: "position" },
    { name: "service image: move one that does not exist", method: "PATCH", path: `${path}/${nobody}`, auth: w.julia, body: { json: { position: 0 } }, expect: [404], api: true, message: "not_found" },
    { name: "service image: remove one that does not exist", method: "DELETE", path: `${path}/${nobody}`, auth: w.julia, expect: [404], api: true, message: "not_found" },
    { name: "service image: another freelancer removes", method: "DELETE", path: `${path}/${nobody}`, auth: p.actor("freelancer").token, expect: [404], api: true },
    { name: "service image: PUT", method: "PUT", path, auth: w.julia, expect: [405], api: true, message: "method_not_allowed" },
  ];
}

/** Reports of a service (POST /api/reports with target_type service) and the console's moves on them: refusals only. */
function serviceReportCases(w: World, p: Pool): Case[] {
  const nobody = "00000000-0000-4000-8000-000000000000";
  const report = (name: string, auth: Auth, body: Record<string, unknown>, status: number, extra: Partial<Case> = {}): Case =>
    ({ name: `service report: ${name}`, method: "POST", path: "/api/reports", auth, body: { json: body }, expect: [status], api: true, ...extra });
  const target = { target_type: "service", target_id: w.seeded.service };
  return [
    report("no reason", p.actor("merchant").token, target, 422, { field: "reason" }),
    report("a reason not on the list", p.actor("merchant").token, { ...target, reason: "odeio" }, 422, { field: "reason" }),
    report("one's own service", w.julia, { ...target, reason: "spam" }, 422, { message: "report_own_content" }),
    report("a service that does not exist", p.actor("merchant").token, { ...target, target_id: nobody, reason: "spam" }, 404),
    report("a service id that is not one", p.actor("merchant").token, { ...target, target_id: "../../etc", reason: "spam" }, 422, { field: "target_id" }),
    report("a visitor", null, { ...target, reason: "spam" }, 401),
    { name: "service report: resolve one nobody reported", method: "POST", path: `/api/admin/reports/service/${nobody}/resolve`, auth: w.operator, body: { json: { action: "dismiss", reason: "Motivo válido" } }, expect: [404], api: true },
    { name: "service report: restore one that does not exist", method: "POST", path: `/api/admin/content/service/${nobody}/restore`, auth: w.operator, body: { json: { reason: "Motivo válido" } }, expect: [404], api: true },
    { name: "service report: the queue filtered by services", method: "GET", path: "/api/admin/reports?type=service", auth: w.operator, expect: [200], api: true },
  ];
}

/** GET /api/services/recommended ("Para você" for a merchant): the merchant's only, its page checked. */
function recommendedServiceCases(w: World): Case[] {
  const path = "/api/services/recommended";
  const get = (name: string, auth: Auth, query: string, expect: number, extra: Partial<Case> = {}): Case =>
    ({ name: `services for a merchant: ${name}`, method: "GET", path: `${path}${query}`, auth, expect: [expect], api: true, ...extra });
  return [
    get("a visitor", null, "", 401),
    get("a freelancer", w.julia, "", 403),
    get("a merchant", w.ana, "", 200),
    get("page 0", w.ana, "?page=0", 422, { field: "page" }),
    get("page as a word", w.ana, "?page=primeira", 422, { field: "page" }),
    get("101 a page", w.ana, "?per_page=101", 422, { field: "per_page" }),
    get("a page far away", w.ana, "?page=999999", 200),
    { name: "services for a merchant: POST", method: "POST", path, auth: w.ana, body: { json: {} }, expect: [405], api: true },
  ];
}

/** A file answering an order's question (POST /api/contracts/:id/order/files, GET …/files/:file): refusals only. */
function orderFileCases(w: World, p: Pool): Case[] {
  const nobody = "00000000-0000-4000-8000-000000000000";
  const path = `/api/contracts/${nobody}/order/files`;
  const png = () => new Blob([PNG_1X1], { type: "image/png" });
  const post = (name: string, auth: Auth, parts: [string, string | Blob, string?][], status: number, extra: Partial<Case> = {}): Case =>
    ({ name: `order file: ${name}`, method: "POST", path, auth, body: { multipart: parts }, expect: [status], api: true, ...extra });
  return [
    post("an order that does not exist", p.actor("merchant").token, [["question", "0"], ["files", png(), "a.png"]], 404, { message: "not_found" }),
    post("a question that is not a number", p.actor("merchant").token, [["question", "primeira"], ["files", png(), "a.png"]], 422, { field: "question" }),
    post("a question past the last", p.actor("merchant").token, [["question", "9"], ["files", png(), "a.png"]], 422, { field: "question" }),
    post("a visitor", null, [["question", "0"], ["files", png(), "a.png"]], 401),
    post("over 10 MB", p.actor("merchant").token, [["question", "0"], ["files", new Blob([new Uint8Array(11 * 1024 * 1024)]), "a.bin"]], 413),
    { name: "order file: JSON without a file", method: "POST", path, auth: p.actor("merchant").token, body: { json: { question: 0 } }, expect: [404], api: true },
    { name: "order file: a file that does not exist", method: "GET", path: `${path}/${nobody}`, auth: w.ana, expect: [404], api: true, message: "not_found" },
    { name: "order file: a file id that is not one", method: "GET", path: `${path}/..%2F..%2Fetc`, auth: w.ana, expect: [404], api: true },
    { name: "order file: a page's file that does not exist", method: "GET", path: `/contracts/${nobody}/order-files/${nobody}`, auth: w.ana, expect: [404], api: false },
    { name: "order file: PUT", method: "PUT", path, auth: w.ana, expect: [405], api: true, message: "method_not_allowed" },
  ];
}
// A monthly contract's amount (POST /api/contracts/:id/amount, …/amount/accept, …/amount/decline):
// the body is checked before the contract is looked up (a pool user with a valid body gets 404).
API_BODY.push(
  {
    name: "monthly amount",
    method: "POST",
    path: (_a, w) => `/api/contracts/${w.seeded.accepted}/amount`,
    who: "merchant",
    base: () => ({}),
    fields: [int("amount_cents", 1, MAX_CENTS)],
  },
  ...["amount/accept", "amount/decline"].map(
    (action): ApiBodyEndpoint => ({
      name: `contract ${action}`,
      method: "POST",
      path: (_a, w) => `/api/contracts/${w.seeded.accepted}/${action}`,
      who: "merchant",
      base: () => ({}),
      fields: [],
      optional: true,
    }),
  ),
);
/**
 * A time entry's file (POST …/weeks/:week/entries as multipart, its page twin, GET
 * …/entries/:entry/file): refused for its body or its file before anything is kept. Júlia's seeded
 * contract is of fixed price, so a valid entry ends in 409 `contract_not_hourly`, never stored.
 */
function entryFileCases(w: World, p: Pool): Case[] {
  const id = w.seeded.accepted;
  const path = `/api/contracts/${id}/weeks/2026-11-30/entries`;
  const page = `/contracts/${id}`;
  const png = () => new Blob([PNG_1X1], { type: "image/png" });
  const ok: [string, string][] = [["day", "2026-11-30"], ["minutes", "60"], ["description", "Implementei a tela."]];
  // The page twin only where the fixed contract's page shows the refusal (it has no timesheet, so
  // no field of the entry's form to show a 422 on; the hourly page's are tests/contracts/entry-files.test.ts).
  const log = (name: string, parts: [string, string | Blob, string?][], status: number, field?: string, message?: string): Case[] => [
    { name: `entry file: ${name}`, method: "POST", path, auth: w.julia, body: { multipart: parts }, expect: [status], api: true, field, message },
    ...(status === 422
      ? []
      : [{ name: `page entry file: ${name}`, method: "POST", path: page, auth: w.julia, body: { multipart: [["intent", "log_time"], ["week", "2026-11-30"], ...parts] }, expect: [status], api: false } as Case]),
  ];
  const file = `/api/contracts/${id}/entries/00000000-0000-4000-8000-000000000000/file`;
  return [
    ...log("no description", [["day", "2026-11-30"], ["minutes", "60"], ["file", png(), "a.png"]], 422, "description"),
    ...log("HTML called .pdf, short description", [["day", "2026-11-30"], ["minutes", "60"], ["description", "curta"], ["file", new Blob(["<html><script>alert(1)</script></html>"]), "a.pdf"]], 422, "file"),
    ...log("empty file, minutes of letters", [["day", "2026-11-30"], ["minutes", "uma"], ["description", "Implementei a tela."], ["file", new Blob([]), "vazio.pdf"]], 422, "minutes"),
    ...log("file over 10 MB", [...ok, ["file", new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), "grande.zip"]], 413, "file"),
    ...log("a fixed-price contract", [...ok, ["file", png(), "a.png"]], 409),
    { name: "entry file: two files", method: "POST", path, auth: w.julia, body: { multipart: [...ok, ["file", png(), "a.png"], ["file", png(), "b.png"]] }, expect: [422], api: true, field: "file" },
    { name: "entry file: text/plain", method: "POST", path, auth: w.julia, body: { raw: "day=2026-11-30", type: "text/plain" }, expect: [415], api: true, message: "unsupported_media_type" },
    { name: "entry file: broken multipart", method: "POST", path, auth: w.julia, body: { raw: "--xx\r\nlixo", type: "multipart/form-data; boundary=xx" }, expect: [400], api: true },
    { name: "entry file: someone else logs", method: "POST", path, auth: p.actor("freelancer").token, body: { multipart: [...ok, ["file", png(), "a.png"]] }, expect: [404], api: true, message: "not_found" },
    { name: "entry file: a visitor logs", method: "POST", path, auth: null, body: { multipart: [...ok, ["file", png(), "a.png"]] }, expect: [401], api: true },
    { name: "entry file: read one that is not there", method: "GET", path: file, auth: w.julia, expect: [404], api: true, message: "not_found" },
    { name: "entry file: someone else reads", method: "GET", path: file, auth: p.actor("merchant").token, expect: [404], api: true, message: "not_found" },
    { name: "entry file: a visitor reads", method: "GET", path: file, auth: null, expect: [401], api: true },
    { name: "entry file: an entry id that is not one", method: "GET", path: `/api/contracts/${id}/entries/..%2F..%2Fetc/file`, auth: w.julia, expect: [404], api: true },
    { name: "entry file: POST to the file", method: "POST", path: file, auth: w.julia, expect: [405], api: true, message: "method_not_allowed" },
  ];
}

/**
 * The merchant's choice for an hourly week's unused money (POST /api/contracts/:id/unused,
 * `{ keep }`): the body is checked before the contract is looked up (422 on `keep`), a valid one
 * on someone else's contract is 404, on a fixed-price one 409.
 */
function keepUnusedCases(w: World, p: Pool): Case[] {
  const path = `/api/contracts/${w.seeded.accepted}/unused`;
  const bad: unknown[] = ["talvez", 2, [], {}, null, "", "<script>alert(1)</script>", "x".repeat(100_000)];
  return [
    ...bad.map((keep, i): Case => ({ name: `keep unused: bad keep #${i}`, method: "POST", path, auth: p.actor("merchant").token, body: { json: { keep } }, expect: [422], api: true, field: "keep" })),
    { name: "keep unused: no keep", method: "POST", path, auth: p.actor("merchant").token, body: { json: {} }, expect: [422], api: true, field: "keep" },
    { name: "keep unused: someone else's contract", method: "POST", path, auth: p.actor("merchant").token, body: { json: { keep: true } }, expect: [404], api: true, message: "not_found" },
    { name: "keep unused: a fixed-price contract", method: "POST", path, auth: w.julia, body: { json: { keep: true } }, expect: [409], api: true },
    { name: "keep unused: a visitor", method: "POST", path, auth: null, body: { json: { keep: true } }, expect: [401], api: true },
    { name: "keep unused: GET", method: "GET", path, auth: w.julia, expect: [405], api: true, message: "method_not_allowed" },
  ];
}
