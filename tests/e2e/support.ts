import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import SQLite from "better-sqlite3";
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from "@playwright/test";

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

/**
 * Confirms a new account's e-mail in the server's SQLite file, as opening the link would (the
 * link spent, the address confirmed), without waiting for the e-mail: for accounts that tests
 * only need confirmed. The link itself is followed in verification.spec.ts, accounts.spec.ts and
 * postgres-smoke.spec.ts.
 */
export function confirmEmailInDatabase(file: string, email: string) {
  const sqlite = new SQLite(file);
  try {
    sqlite.pragma("busy_timeout = 5000");
    const at = new Date().toISOString();
    sqlite
      .transaction(() => {
        const user = sqlite.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: string } | undefined;
        if (!user) throw new Error(`no account ${email} in ${file}`);
        sqlite
          .prepare("UPDATE email_tokens SET used_at = ? WHERE user_id = ? AND purpose = 'verify' AND used_at IS NULL")
          .run(at, user.id);
        sqlite.prepare("UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ?").run(at, at, user.id);
        // BEGIN IMMEDIATE: the write lock first, waited for. A deferred transaction that read first
        // cannot upgrade once the server has written after its snapshot (SQLITE_BUSY at once).
      })
      .immediate();
  } finally {
    sqlite.close();
  }
}

/** The SQLite file behind the running test's server (playwright.config.ts), if it has one. */
function testDatabase(): string | undefined {
  try {
    return (test.info().project.metadata as { sqlite?: string } | undefined)?.sqlite;
  } catch {
    return undefined; // outside a test
  }
}

/**
 * Creates an account through the public API, as another client would, and confirms its e-mail
 * (`confirmed: false` leaves it unconfirmed): in the server's SQLite file where the project has
 * one, else by the link it was sent (`confirmed: "by-email"` always follows the link).
 */
export async function registerViaApi(
  request: APIRequestContext,
  fields: {
    full_name?: string;
    display_name?: string;
    email?: string;
    password?: string;
    account_type: "merchant" | "freelancer";
    confirmed?: boolean | "by-email";
  },
) {
  const body = {
    full_name: fields.full_name ?? (fields.account_type === "merchant" ? "Marina Contratante" : "Rafael Freelancer"),
    display_name: fields.display_name,
    email: fields.email ?? freshEmail(fields.account_type),
    password: fields.password ?? "senha-segura-1",
    account_type: fields.account_type,
  };
  const res = await request.post("/api/register", { data: body });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const file = fields.confirmed === "by-email" ? undefined : testDatabase();
  if (fields.confirmed === false) return body;
  if (file) confirmEmailInDatabase(file, body.email);
  else await confirmEmail(request, body.email);
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

/** A merchant and a freelancer with a contract: opportunity, application and accept, by the API. */
export async function hire(request: APIRequestContext) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const asMerchant = await apiToken(request, merchant.email, merchant.password);
  const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
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
      budget_max_cents: 200_000,
      location_type: "remote",
    },
  });
  const { uuid } = (await opp.json()).data;
  const app = await request.post(`/api/opportunities/${uuid}/applications`, {
    headers: asFreelancer,
    data: {
      cover_letter: "Desenho marcas para cafés e padarias há seis anos.",
      price_cents: 150_000,
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

export async function userPage(
  browser: Browser,
  testInfo: TestInfo,
  javaScriptEnabled: boolean,
  who: { email: string; password: string },
) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
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

/** An amount as the page writes it ("R$ 1.350,00"), whatever space the locale puts after "R$". */
export const money = (text: string) => new RegExp(text.replace(/[.$]/g, "\\$&").replace(/ /g, "\\s"));

/** A Pix end-to-end id (32 characters, starting with E), different in every run and call. */
export const endToEndId = (tag: string) =>
  `E12345678202611240400${tag}${Date.now().toString(36).padStart(10, "0").slice(-10)}`;
