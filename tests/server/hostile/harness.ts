// The hostile suite's harness: requests to the production server as a client sends them, the
// checks every answer must pass, the world of users and records the cases use, and a snapshot
// of the tables to show that nothing refused was stored.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import pg from "pg";
import { validApplication, validOpportunity, validService } from "../../support/fixtures";
import { inspect, ROOT } from "../crash/server";

// ---------------------------------------------------------------------------------------------
// Requests and checks

export type Auth = string | { cookie: string } | { header: string } | null;
export type Body =
  | { json: unknown }
  | { raw: string | Uint8Array; type: string | null; chunked?: boolean }
  | { form: [string, string][] }
  | { multipart: [string, string | Blob, string?][] };

export type Case = {
  name: string;
  method: string;
  path: string;
  auth?: Auth;
  body?: Body;
  /** The statuses that are right for this input. */
  expect: number[];
  /** A JSON answer ({ message } on refusals) rather than a page. */
  api: boolean;
  /** A 422 must name this field (the API's `errors`). */
  field?: string;
  /** A message key whose Portuguese text the answer must carry. */
  message?: string;
  /** Where a redirect must go (a path of the site). */
  location?: string;
  /** Headers of its own (a webhook's signature), made when it is sent: a signed time is fresh. */
  headers?: () => Record<string, string>;
};

export type Answer = { status: number; text: string; type: string; location: string | null };

/** The production server's address, set once it is started. */
export let base = "";

export function setBase(url: string) {
  base = url;
}

export function bytes(data: string | Uint8Array) {
  return typeof data === "string" ? Buffer.from(data, "utf8") : data;
}

export async function send(c: Case): Promise<Answer> {
  const headers = new Headers();
  if (typeof c.auth === "string") headers.set("Authorization", `Bearer ${c.auth}`);
  else if (c.auth && "cookie" in c.auth) headers.set("Cookie", c.auth.cookie);
  else if (c.auth && "header" in c.auth) headers.set("Authorization", c.auth.header);
  for (const [name, value] of Object.entries(c.headers?.() ?? {})) headers.set(name, value);
  let body: BodyInit | undefined;
  if (c.body && "json" in c.body) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(c.body.json);
  } else if (c.body && "form" in c.body) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(c.body.form).toString();
  } else if (c.body && "multipart" in c.body) {
    const form = new FormData();
    for (const [name, value, filename] of c.body.multipart) {
      if (typeof value === "string") form.append(name, value);
      else form.append(name, value, filename);
    }
    body = form;
  } else if (c.body) {
    // Bytes, so fetch adds no content type of its own.
    const data = bytes(c.body.raw);
    if (c.body.type !== null) headers.set("Content-Type", c.body.type);
    body = (
      c.body.chunked
        ? new ReadableStream({
            start(controller) {
              for (let at = 0; at < data.length; at += 64 * 1024) controller.enqueue(data.subarray(at, at + 64 * 1024));
              controller.close();
            },
          })
        : data
    ) as BodyInit;
  }
  const res = await fetch(base + c.path, {
    method: c.method,
    headers,
    body,
    redirect: "manual",
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  return {
    status: res.status,
    text: await res.text(),
    type: res.headers.get("Content-Type") ?? "",
    location: res.headers.get("Location"),
  };
}

/** A namespace's top-level texts (the services' pages keep theirs in nested objects: no API message). */
const ptTexts = (file: string): Record<string, string> =>
  Object.fromEntries(
    Object.entries(JSON.parse(readFileSync(join(ROOT, `public/locales/pt-BR/${file}.json`), "utf8"))).filter(
      ([, text]) => typeof text === "string",
    ),
  ) as Record<string, string>;
/** The API's messages: the `messages` namespace, and the services' own under `services:`. */
export const PT: Record<string, string> = {
  ...ptTexts("messages"),
  ...Object.fromEntries(Object.entries(ptTexts("services")).map(([key, text]) => [`services:${key}`, text])),
};
export const PT_PATTERNS = Object.values(PT).map(
  (m) =>
    new RegExp(
      `^${m
        .split(/\{\{\w+\}\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join(".+")}$`,
      "s",
    ),
);
export const isPortuguese = (message: unknown) =>
  typeof message === "string" && PT_PATTERNS.some((p) => p.test(message));
/** Whether `message` is the Portuguese text of `key` (its {{values}} filled in). */
const isMessage = (message: unknown, key: string) =>
  typeof message === "string" && PT_PATTERNS[Object.keys(PT).indexOf(key)]?.test(message) === true;

/** What no answer may show: stack frames, SQL errors, file paths, error names. */
export const LEAKS: [string, RegExp][] = [
  ["stack frame", /\bat [^\n]{0,200}\.tsx?:\d/],
  ["SQLite", /SQLITE|SqliteError/],
  ["path", /\/work\//],
  ["node_modules", /node_modules/],
  ["Error:", /Error:/],
];

export function problemsOf(c: Case, r: Answer): string[] {
  const label = `${c.name} [${c.method} ${c.path.slice(0, 80)}] → ${r.status}`;
  const problems: string[] = [];
  if (!c.expect.includes(r.status)) problems.push(`${label}: expected ${c.expect.join("/")}: ${r.text.slice(0, 200)}`);
  if (r.status >= 300 && r.status < 400 && !/^\/(?![/\\])/.test(r.location?.replace(base, "") ?? "")) {
    problems.push(`${label}: redirects off the site: ${r.location}`);
  }
  if (c.location !== undefined && r.location?.replace(base, "") !== c.location)
    problems.push(`${label}: redirects to ${r.location}, not ${c.location}`);
  for (const [what, pattern] of LEAKS) if (pattern.test(r.text)) problems.push(`${label}: leaks ${what}`);
  if (c.api && r.status >= 400) {
    let body: { message?: unknown; errors?: Record<string, unknown> } = {};
    try {
      body = JSON.parse(r.text);
    } catch {
      problems.push(`${label}: not JSON (${r.type})`);
    }
    if (!isPortuguese(body.message)) problems.push(`${label}: message not Portuguese: ${String(body.message)}`);
    if (c.message && !isMessage(body.message, c.message))
      problems.push(`${label}: message ${String(body.message)}, not ${c.message}`);
    if (c.field && r.status === 422 && !isPortuguese(body.errors?.[c.field])) {
      problems.push(`${label}: no Portuguese errors.${c.field}: ${JSON.stringify(body.errors)}`);
    }
  }
  if (!c.api && c.message && !r.text.includes(PT[c.message]!)) problems.push(`${label}: page lacks "${PT[c.message]}"`);
  if (!c.api && r.status === 422 && !/field-error|alert-danger/.test(r.text))
    problems.push(`${label}: no message on the page`);
  return problems;
}

/** Runs cases a few at a time; returns every problem found. */
export async function runAll(cases: Case[], parallel = 6) {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let answer: Answer;
      try {
        answer = await send(c);
      } catch (error) {
        problems.push(
          `${c.name} [${c.method} ${c.path.slice(0, 80)}]: request failed: ${String((error as Error).cause ?? error)}`,
        );
        continue;
      }
      problems.push(...problemsOf(c, answer));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The world: seeded demo data, and pools of users so the per-user write limit (120 a minute,
// counted before validation) is never what answers.

/** A pool user: merchant i owns `opp`, freelancer i applied to it (`app`); `other` is the next merchant's. */
export type Actor = { token: string; id: string; opp: string; app: string; offer: string; other: string };

export type World = {
  ana: string;
  julia: string;
  juliaId: string;
  /** The demo operator's token (the console's API). */
  operator: string;
  logoutToken: string;
  seeded: {
    open: string;
    openWithApps: string;
    closed: string;
    filled: string;
    carlos: string;
    pending: { id: string; opp: string };
    countered: { id: string; firstOffer: string };
    accepted: string;
    notJulias: string;
    /** A service of Júlia's (the seed's, or one she drafts). */
    service: string;
  };
  merchants: Actor[];
  freelancers: Actor[];
};

export type Role = "merchant" | "freelancer";

/** Hands out pool actors round-robin and counts the writes each role is given. */
export class Pool {
  used = { merchant: 0, freelancer: 0 };
  constructor(private world: World) {}
  actor(role: Role): Actor {
    const list = role === "merchant" ? this.world.merchants : this.world.freelancers;
    return list[this.used[role]++ % list.length]!;
  }
}

let serial = 0;
export const unique = (prefix: string) => `${prefix}-${++serial}-${Date.now().toString(36)}@example.com`;

// ---------------------------------------------------------------------------------------------
// Setup through the public API, as a client would

export async function call(method: string, path: string, token: string | null, json?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(json !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = (await res.json()) as any;
  return { status: res.status, body };
}

export async function ok(method: string, path: string, token: string | null, json?: unknown) {
  const { status, body } = await call(method, path, token, json);
  if (status >= 300) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(body)}`);
  return body;
}

export async function login(email: string, password = "freela123") {
  const body = await ok("POST", "/api/login", null, { email, password });
  return { token: body.access_token as string, id: body.user.id as string };
}

export async function newUser(role: Role) {
  const email = unique(`pool-${role}`);
  await ok("POST", "/api/register", null, {
    full_name: "Usuária Do Pool",
    email,
    password: "senha-segura-1",
    account_type: role,
  });
  return login(email, "senha-segura-1");
}

/** Merchant i owns an opportunity; freelancer i applied to it (pending, the merchant's turn). */
export async function makePool(size: number) {
  const merchants: Actor[] = [];
  const freelancers: Actor[] = [];
  for (let i = 0; i < size; i++) {
    const [m, f] = await Promise.all([newUser("merchant"), newUser("freelancer")]);
    const opp = (await ok("POST", "/api/opportunities", m.token, { ...validOpportunity, vacancies: 20 })).data
      .uuid as string;
    const app = (await ok("POST", `/api/opportunities/${opp}/applications`, f.token, validApplication)).data
      .id as string;
    const detail = (await ok("GET", `/api/applications/${app}`, f.token)).data;
    const offer = detail.offers[detail.offers.length - 1].id as string;
    merchants.push({ ...m, opp, app, offer, other: "" });
    freelancers.push({ ...f, opp, app, offer, other: "" });
  }
  freelancers.forEach((f, i) => (f.other = merchants[(i + 1) % size]!.opp));
  return { merchants, freelancers };
}

export async function seededRecords(
  ana: string,
  anaId: string,
  julia: string,
  juliaId: string,
  carlos: string,
): Promise<World["seeded"]> {
  const mine = async (status: string) =>
    (await ok("GET", `/api/opportunities?mine=1&per_page=100&status=${status}`, ana)).data as any[];
  let [open, closed, filled] = await Promise.all([mine("open"), mine("closed"), mine("filled")]);
  if (closed.length === 0) {
    // The seed is random: when Ana has no closed opportunity, she closes her last open one.
    await ok("POST", `/api/opportunities/${open[open.length - 1].uuid}/close`, ana, {});
    [open, closed] = await Promise.all([mine("open"), mine("closed")]);
  }
  const apps = async (status: string) =>
    (await ok("GET", `/api/my-applications?per_page=100&status=${status}`, julia)).data as any[];
  const [pending, countered] = await Promise.all([apps("pending"), apps("countered")]);
  // A hire of Júlia's in progress with nothing delivered yet, by milestones (the demo's hourly
  // contract takes no deliveries). The seed finishes some hires (hers among them), so when none
  // is left Ana hires her for a new opportunity.
  const working = async () =>
    ((await ok("GET", "/api/contracts?status=in_progress&per_page=100", julia)).data as any[]).filter(
      (c) => c.freelancer.id === juliaId && c.deliveries_count === 0 && c.kind === "fixed",
    );
  let accepted = await working();
  if (accepted.length === 0) {
    const opp = (await ok("POST", "/api/opportunities", ana, validOpportunity)).data.uuid as string;
    const app = (await ok("POST", `/api/opportunities/${opp}/applications`, julia, validApplication)).data.id as string;
    const detail = (await ok("GET", `/api/applications/${app}`, ana)).data;
    await ok("POST", `/api/applications/${app}/accept`, ana, { offer_id: detail.offers[detail.offers.length - 1].id });
    accepted = await working();
  }
  const counteredApp = countered.find((a) => a.opportunity.merchant.id === anaId);
  const counteredDetail = (await ok("GET", `/api/applications/${counteredApp.id}`, julia)).data;
  const openWithApps = open.find((o) => o.applications_count > 0);
  let notJulias: string | undefined;
  for (const o of open.filter((x) => x.applications_count > 0)) {
    const list = (await ok("GET", `/api/opportunities/${o.uuid}/applications?per_page=100`, ana)).data as any[];
    notJulias = list.find((a) => a.freelancer.id !== juliaId)?.id;
    if (notJulias) break;
  }
  const carlosOpp = (await ok("GET", "/api/opportunities?mine=1&per_page=1", carlos)).data[0];
  const service =
    ((await ok("GET", "/api/me/services?per_page=1", julia)).data[0]?.id as string | undefined) ??
    ((await ok("POST", "/api/services", julia, validService)).data.id as string);
  const need = {
    open: open[0],
    closed: closed[0],
    filled: filled[0],
    openWithApps,
    pending: pending[0],
    counteredApp,
    accepted: accepted[0],
    notJulias,
    carlosOpp,
  };
  for (const [name, value] of Object.entries(need)) if (!value) throw new Error(`the demo seed has no ${name}`);
  return {
    open: open[0].uuid,
    openWithApps: openWithApps.uuid,
    closed: closed[0].uuid,
    filled: filled[0].uuid,
    carlos: carlosOpp.uuid,
    pending: { id: pending[0].id, opp: pending[0].opportunity.uuid },
    countered: { id: counteredApp.id, firstOffer: counteredDetail.offers[0].id },
    accepted: accepted[0].id,
    notJulias: notJulias!,
    service,
  };
}

// ---------------------------------------------------------------------------------------------

export const TABLES = [
  "users",
  "opportunities",
  "applications",
  "offers",
  "contracts",
  "contract_events",
  "contract_files",
  "conversations",
  "messages",
  "message_files",
  "reviews",
  "invitations",
  "portfolio_items",
] as const;

/** Where the server under test keeps its data: a SQLite file, or a PostgreSQL database. */
export type Store = { engine: "sqlite"; dbPath: string } | { engine: "postgres"; url: string };

/** Each table's row count and a hash of its rows, to show that nothing refused was stored. */
export async function snapshot(store: Store): Promise<Record<string, { count: number; hash: string }>> {
  if (store.engine === "sqlite") {
    return inspect(store.dbPath, (db) =>
      Object.fromEntries(
        TABLES.map((t) => {
          const rows = db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all();
          return [t, { count: rows.length, hash: createHash("sha256").update(JSON.stringify(rows)).digest("hex") }];
        }),
      ),
    );
  }
  const client = new pg.Client(store.url);
  await client.connect();
  try {
    const out: Record<string, { count: number; hash: string }> = {};
    for (const t of TABLES) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS count, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS hash FROM ${t} x`,
      );
      out[t] = { count: rows[0].count, hash: rows[0].hash };
    }
    return out;
  } finally {
    await client.end();
  }
}

/** A GET with the path exactly as written (fetch would resolve dot segments first). */
export function rawGet(path: string): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, { path }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

/** Cuts text to a field's length without splitting a surrogate pair, and trims it. */
export function fit(s: string, max: number) {
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out.trim();
}
