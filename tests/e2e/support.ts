import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createCookie } from "@remix-run/node";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { createUser } from "../../db/factories";
import type { Database } from "../../db/schema";
import { termsVersion } from "../../app/services/accounts/terms-version";
import { E2E_SESSION_SECRET } from "../../playwright.config";

import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { PNG_1X1 } from "../support/fixtures";

export { PNG_1X1 };

let counter = 0;
export function freshEmail(prefix: string) {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

const MAILBOX = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 3}`;

export type Mail = { to: string[]; subject: string; text: string };

/**
 * The latest e-mail to `to` whose subject matches, as the servers sent it (through SMTP to the
 * test mailbox, tests/support/mail-catcher.ts): waits for the outbox to send it.
 */
export async function lastMail(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${MAILBOX}/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as Mail[];
        found = list.filter((m) => subject.test(m.subject)).at(-1);
        return Boolean(found);
      },
      { timeout: 15_000, message: `an e-mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** How many e-mails to `to` match `subject` so far. */
export async function mailCount(request: APIRequestContext, to: string, subject: RegExp) {
  const res = await request.get(`${MAILBOX}/messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as Mail[]).filter((m) => subject.test(m.subject)).length;
}

/** The first link of an e-mail's text that goes to `path` on the site. */
export function linkIn(mail: Mail, path: string) {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`no link to ${path} in: ${mail.text}`);
  return link;
}

/** Confirms a new account's e-mail by the link it was sent, through the API. */
export async function confirmEmail(request: APIRequestContext, email: string) {
  const link = linkIn(await lastMail(request, email, /confirme seu e-mail/), "/verify-email");
  const token = new URL(link).searchParams.get("token");
  const res = await request.post("/api/verify-email", { data: { token } });
  if (res.status() !== 200) throw new Error(`confirming ${email} failed: ${res.status()} ${await res.text()}`);
}

/** The SQLite file behind the running test's server (playwright.config.ts), if it has one. */
function testDatabase(): string | undefined {
  try {
    return (test.info().project.metadata as { sqlite?: string } | undefined)?.sqlite;
  } catch {
    return undefined; // outside a test
  }
}

/** The factories' Kysely over the server's SQLite file, for one call (statements of their own, waited for). */
async function withDatabase<T>(file: string, run: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const sqlite = new SQLite(file);
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    return await run(db);
  } finally {
    await db.destroy();
  }
}

export type NewAccount = {
  full_name?: string;
  display_name?: string;
  email?: string;
  password?: string;
  account_type: "merchant" | "freelancer";
  /** Profile fields the story needs (the factory's UserOverrides). */
  bio?: string;
  city?: string | null;
  skills?: string[];
};

/** A registered account as the tests use it; `id` when it was made by the factories. */
export type Account = {
  full_name: string;
  display_name?: string;
  email: string;
  password: string;
  account_type: "merchant" | "freelancer";
  id?: string;
};

/** The fields of a new account, with a name, a fresh e-mail and a password where not given. */
function accountFields(fields: NewAccount): Account {
  return {
    full_name: fields.full_name ?? (fields.account_type === "merchant" ? "Marina Contratante" : "Rafael Freelancer"),
    display_name: fields.display_name,
    email: fields.email ?? freshEmail(fields.account_type),
    password: fields.password ?? "senha-segura-1",
    account_type: fields.account_type,
  };
}

/**
 * A confirmed account written straight into the server's SQLite file by the factories
 * (db/factories.ts, createUser), with the current terms accepted as registering records them:
 * what the API's register plus the e-mail's link leave, without either.
 */
export async function createAccount(file: string, fields: NewAccount): Promise<Account> {
  const account = accountFields(fields);
  const user = await withDatabase(file, async (db) => {
    const user = await createUser(db, {
      ...account,
      display_name: account.display_name ?? null,
      bio: fields.bio,
      city: fields.city,
      skills: fields.skills,
    });
    await db
      .insertInto("terms_acceptances")
      .values({ id: randomUUID(), user_id: user.id, version: termsVersion(), ip: null, accepted_at: user.created_at })
      .execute();
    return user;
  });
  return { ...account, id: user.id };
}

const SESSION_DAYS = 30;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A live session of the account, written into the server's SQLite file as a sign-in writes it
 * (app/services/accounts/sessions.server.ts: the token's hash, the device recorded as the
 * account's first): answers the token, for a Bearer header or the session cookie.
 */
export async function createSessionToken(file: string, userId: string, userAgent: string | null = null) {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const at = now.toISOString();
  await withDatabase(file, async (db) => {
    await db
      .insertInto("sessions")
      .values({
        id: sha256(token),
        user_id: userId,
        expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
        created_at: at,
        public_id: randomUUID(),
        user_agent: userAgent,
        ip: "127.0.0.1",
        last_used_at: at,
        end_token: null,
        passkey_id: null,
      })
      .execute();
    await db
      .insertInto("account_devices")
      .values({ user_id: userId, agent_hash: sha256(userAgent ?? ""), first_seen_at: at })
      .onConflict((oc) => oc.columns(["user_id", "agent_hash"]).doNothing())
      .execute();
  });
  return token;
}

// The app's session cookie (app/web/session.server.ts), signed with the test servers' secret.
const sessionCookie = createCookie("freela_session", { path: "/", secrets: [E2E_SESSION_SECRET] });

/**
 * Signs the browser context in as the account (made by createAccount) with a session written
 * into the server's SQLite file, its cookie signed as the app signs it: no form, no request.
 */
export async function addSessionCookie(context: BrowserContext, file: string, userId: string, testInfo = test.info()) {
  const { baseURL, userAgent } = testInfo.project.use;
  const token = await createSessionToken(file, userId, userAgent ?? null);
  const value = (await sessionCookie.serialize(token)).split(";")[0].slice("freela_session=".length);
  await context.addCookies([{ name: "freela_session", value, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
}

/**
 * Creates an account, confirmed: by the factories in the server's SQLite file where the project
 * has one (createAccount), else through the public API as another client would, with the e-mail
 * confirmed by the link it was sent. `confirmed: false` registers through the API and leaves it
 * unconfirmed; `confirmed: "by-email"` registers through the API and follows the link.
 */
export async function registerViaApi(
  request: APIRequestContext,
  fields: NewAccount & { confirmed?: boolean | "by-email" },
): Promise<Account> {
  const { confirmed = true, ...rest } = fields;
  const file = testDatabase();
  if (file && confirmed === true) return createAccount(file, rest);
  const body = accountFields(fields);
  const res = await request.post("/api/register", { data: body });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  if (confirmed !== false) await confirmEmail(request, body.email);
  return body;
}

/**
 * Signs in the page's browser context with a real session, without typing: the login form is
 * posted over HTTP and the session cookie lands in the context's cookie jar.
 */
export async function signIn(page: Page, email: string, password: string) {
  const res = await page.request.post("/login", {
    form: { email, password },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  if (res.status() !== 302) throw new Error(`sign-in failed: ${res.status()}`);
}

export async function apiToken(request: APIRequestContext, email: string, password: string) {
  const res = await request.post("/api/login", { data: { email, password } });
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

/**
 * An Authorization header for the account: a session written into the server's SQLite file for
 * an account made by the factories, else a sign-in through the API (apiToken).
 */
export async function bearerOf(request: APIRequestContext, who: { email: string; password: string; id?: string }) {
  const file = testDatabase();
  if (!(who.id && file)) return apiToken(request, who.email, who.password);
  return { Authorization: `Bearer ${await createSessionToken(file, who.id)}` };
}

/** A merchant and a freelancer with a contract: opportunity, application and accept, by the API. */
export async function hire(request: APIRequestContext, { price_cents = 150_000 } = {}) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const asMerchant = await bearerOf(request, merchant);
  const asFreelancer = await bearerOf(request, freelancer);
  const title = `Identidade visual ${Date.now().toString(36)}`;
  const opp = await request.post("/api/opportunities", {
    headers: asMerchant,
    data: {
      title,
      description: "Logotipo, paleta de cores e cartão de visita para uma cafeteria de bairro.",
      category: "design",
      skills: ["Figma"],
      budget_type: "fixed",
      budget_min_cents: 100_000,
      budget_max_cents: Math.max(200_000, price_cents),
      location_type: "remote",
    },
  });
  const { uuid } = (await opp.json()).data;
  const app = await request.post(`/api/opportunities/${uuid}/applications`, {
    headers: asFreelancer,
    data: {
      cover_letter: "Desenho marcas para cafés e padarias há seis anos.",
      price_cents,
      delivery_days: 10,
    },
  });
  const { id } = (await app.json()).data;
  const offers = (await (await request.get(`/api/applications/${id}`, { headers: asMerchant })).json()).data.offers;
  const accepted = await request.post(`/api/applications/${id}/accept`, {
    headers: asMerchant,
    data: { offer_id: offers[0].id },
  });
  if (accepted.status() !== 200) throw new Error(`accept failed: ${accepted.status()}`);
  // Funding past IDENTITY_REQUIRED_ABOVE_CENTS asks who the merchant is first.
  await identityViaApi(request, merchant);
  return { merchant, freelancer, id, title, opportunity: uuid as string };
}

/** A merchant and a freelancer with a monthly contract (R$ 1.800,00 a month), by the API. */
export async function hireMonthly(request: APIRequestContext) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const asMerchant = await bearerOf(request, merchant);
  const asFreelancer = await bearerOf(request, freelancer);
  const opp = await request.post("/api/opportunities", {
    headers: asMerchant,
    data: {
      title: `Redes sociais da cafeteria ${Date.now().toString(36)}`,
      description: "Posts semanais, respostas aos comentários e um relatório por mês para uma cafeteria.",
      category: "marketing",
      skills: ["Instagram"],
      budget_type: "fixed",
      budget_min_cents: 100_000,
      budget_max_cents: 300_000,
      location_type: "remote",
    },
  });
  if (opp.status() !== 201) throw new Error(`opportunity failed: ${opp.status()}`);
  const applied = await request.post(`/api/opportunities/${(await opp.json()).data.uuid}/applications`, {
    headers: asFreelancer,
    data: {
      cover_letter: "Cuido das redes sociais de cafés e padarias há cinco anos.",
      price_cents: 180_000,
      delivery_days: 30,
      month_includes: "Até 12 posts por mês, respostas aos comentários e um relatório mensal.",
    },
  });
  if (applied.status() !== 201) throw new Error(`application failed: ${applied.status()}`);
  const { id } = (await applied.json()).data;
  const offers = (await (await request.get(`/api/applications/${id}`, { headers: asMerchant })).json()).data.offers;
  const accepted = await request.post(`/api/applications/${id}/accept`, {
    headers: asMerchant,
    data: { offer_id: offers[0].id },
  });
  if (accepted.status() !== 200) throw new Error(`accept failed: ${accepted.status()}`);
  return { merchant, freelancer, asMerchant, asFreelancer, id: id as string };
}

/** The contract's first milestone funded: the merchant's Pix charge, confirmed by the operator. */
export async function fund(
  request: APIRequestContext,
  contractId: string,
  merchant: { email: string; password: string },
) {
  const charged = await request.post(`/api/contracts/${contractId}/charges`, {
    headers: await apiToken(request, merchant.email, merchant.password),
  });
  expect(charged.status()).toBe(201);
  const charge = (await charged.json()).data;
  const confirmed = await request.post(`/api/admin/payments/charges/${charge.id}/confirm`, {
    headers: await apiToken(request, OPERATOR.email, OPERATOR.password),
    data: { e2e_id: endToEndId("F"), amount_cents: charge.amount_cents },
  });
  expect(confirmed.status()).toBe(200);
}

/** A contract between two new accounts at `price_cents` (hire), delivered and approved: completed. */
export async function completedContract(request: APIRequestContext, price_cents: number) {
  const hired = await hire(request, { price_cents });
  const delivered = await request.post(`/api/contracts/${hired.id}/deliveries`, {
    headers: await bearerOf(request, hired.freelancer),
    data: { message: "Trabalho entregue." },
  });
  expect(delivered.status()).toBe(201);
  const approved = await request.post(`/api/contracts/${hired.id}/approve`, {
    headers: await bearerOf(request, hired.merchant),
  });
  expect(approved.status()).toBe(200);
  return hired;
}

/**
 * A page of its own signed in as `who`: with a session written into the server's SQLite file when
 * the account was made by the factories (it has an `id`) and the project has one, else through
 * the login form (signIn). The context has the project's user agent, as the `page` fixture's.
 */
export async function userPage(
  browser: Browser,
  testInfo: TestInfo,
  javaScriptEnabled: boolean,
  who: { email: string; password: string; id?: string },
) {
  const { baseURL, locale, timezoneId, userAgent } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId, userAgent, javaScriptEnabled });
  const file = testDatabase();
  if (who.id && file) await addSessionCookie(context, file, who.id, testInfo);
  const page = await context.newPage();
  if (!(who.id && file)) await signIn(page, who.email, who.password);
  return page;
}

export const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

/** The demo data's operator (npm run demo prints it). */
export const OPERATOR = { email: "operador@freela.dev", password: "freela123" };

/**
 * The account's fiscal identity through the API (a fresh CPF), and with `verified` its photos
 * sent and an operator's approval: what funding past the threshold and payouts need. Returns the CPF.
 */
export async function identityViaApi(
  request: APIRequestContext,
  user: { email: string; password: string },
  { verified = false } = {},
) {
  const cpf = generateCpf();
  const headers = await apiToken(request, user.email, user.password);
  const saved = await request.post("/api/identity", {
    headers,
    data: { kind: "person", document: cpf, legal_name: "Pessoa de Teste da Silva", birth_date: "1990-05-17" },
  });
  expect(saved.status()).toBe(200);
  if (!verified) return cpf;
  const png = { name: "foto.png", mimeType: "image/png", buffer: PNG_1X1 };
  const sent = await request.post("/api/identity/documents", {
    headers,
    multipart: { doc_type: "rg", front: png, back: png, selfie: png },
  });
  expect(sent.status()).toBe(200);
  const operator = await apiToken(request, OPERATOR.email, OPERATOR.password);
  const queue = (await (await request.get("/api/admin/identity", { headers: operator })).json()).data;
  const item = queue.find((i: { email: string }) => i.email === user.email);
  const approved = await request.post(`/api/admin/identity/${item.user_id}/decision`, {
    headers: operator,
    data: { decision: "approve", version: item.version },
  });
  expect(approved.status()).toBe(200);
  return cpf;
}

/** What the tests check with axe: WCAG 2.0/2.1 A and AA and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
// WCAG 2.5.3 (label in name) is still an experimental rule in axe, off unless asked for.
const AXE_RULES = { "label-content-name-mismatch": { enabled: true } };

let axeSource: string | undefined;

/** A violation as axe reports it (the fields the tests read). */
export type AxeViolation = { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] };

/**
 * axe-core's violations on the page as it is now (in its main frame; the pages have no frames):
 * axe is put in the page once per document and run there, about ten times faster than
 * @axe-core/playwright's AxeBuilder, which opens a page of its own to finish every analysis. The
 * same rules: `tags` (AXE_TAGS by default) and the experimental label-in-name rule.
 */
export async function axeViolations(
  page: Page,
  { tags = AXE_TAGS }: { tags?: string[] } = {},
): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(
    (options) =>
      (
        window as unknown as {
          axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> };
        }
      ).axe.run(document, options),
    { runOnly: { type: "tag", values: tags }, rules: AXE_RULES, resultTypes: ["violations"] },
  );
  return results.violations;
}

/** No axe finding (WCAG 2.0/2.1 A and AA, best practices) on the page as it is now. */
export async function noAxeFindings(page: Page) {
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/**
 * A text with amounts as the page writes it ("R$ 1.350,00"), whatever space the locale puts after
 * "R$": a pattern, with the text's other characters taken literally.
 */
export const money = (text: string) => new RegExp(text.replace(/[.$()+?*[\]\\]/g, "\\$&").replace(/ /g, "\\s"));

/** The widths people use: a phone, a small laptop, the usual desktops. */
export const WIDTHS = [390, 1024, 1280, 1440] as const;

/** A Pix end-to-end id (32 characters, starting with E), different in every run and call. */
export const endToEndId = (tag: string) =>
  `E12345678202611240400${tag}${Date.now().toString(36).padStart(10, "0").slice(-10)}`;
