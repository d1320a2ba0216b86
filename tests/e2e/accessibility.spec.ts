import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { test } from "./fixtures";
import { axeViolations, lastMail, linkIn, registerViaApi, signIn } from "./support";

// Every page a visitor, a merchant, a freelancer and the operator of the demo data reach, found
// by following their links rather than listed by hand (so a new page cannot escape), checked with
// axe-core against WCAG 2.0/2.1 A and AA and axe's best practices, in Portuguese at desktop and
// phone widths and in every other language at desktop width: once per page shape (a route,
// whoever reaches it), one account per role.

const DEMO_PASSWORD = "freela123";
/** A guard against a crawl that never ends: the demo data's roles reach fewer pages; past it the test fails. */
const MAX_PAGES = 200;
/**
 * Pages of one shape visited per crawl: a route with another id may be in another state (an
 * application pending, countered, accepted…) and link to pages of its own, so a few of them; a
 * list with another filter shows the same cards, so one.
 */
const perShape = (shape: string) => (shape.includes("?") ? 1 : 2);

type Role = { name: string; email?: string; start: string[] };

// A path nobody links to stands for the not-found page.
const MISSING = "/pagina-que-nao-existe";
const roles: Role[] = [
  // The public lists are linked from the visitor's home too; named here so a home that lost its
  // links cannot hide them.
  {
    name: "visitor",
    start: ["/", "/vagas", "/perfis", "/servicos", "/login", "/register", "/forgot-password", MISSING],
  },
  // /servicos: a service's page links its packages' confirmation step, which only a merchant sees.
  { name: "merchant", email: "ana@freela.dev", start: ["/", "/identidade", "/servicos", MISSING] },
  { name: "freelancer", email: "julia@freela.dev", start: ["/", "/identidade", MISSING] },
  { name: "operator", email: "operador@freela.dev", start: ["/admin", "/admin/identity", MISSING] },
];
const languages = ["pt-BR", "en", "es"] as const;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * The page routes (app/routes, the JSON API aside): every file with a page of its own (a default
 * export), so that the crawl can prove it checked each of them. Another address of a page
 * (`export { default } from "./login"`) is that page; a file without a default export (an action,
 * a download) is no page.
 */
function pageRoutes() {
  const root = join(process.cwd(), "app/routes");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (f) => /\.tsx?$/.test(f) && !f.startsWith("api+"),
  );
  return files
    .filter((f) => {
      const source = readFileSync(join(root, f), "utf8");
      const ownPage = /export default|as default\b/.test(source);
      const alias = /export \{[^}]*\bdefault\b[^}]*\} from "\.\//.test(source);
      return ownPage && !alias;
    })
    .map((f) => `routes/${relative(root, join(root, f)).replace(/\.tsx?$/, "")}`);
}

/**
 * Page routes the demo's roles do not reach by links: where their pages are checked instead, or
 * why they are not. A page route in neither this list nor the crawl's checks fails the test.
 */
const NOT_CRAWLED: Record<string, string> = {
  "routes/_auth+/verify-email": "checked by the account pages of a new, unconfirmed account (below)",
  "routes/_auth+/sessions.end": "checked by the account pages of a new, unconfirmed account (below)",
  "routes/_account+/primeiros-passos": "checked by the account pages of a new, unconfirmed account (below)",
  "routes/_auth+/reset-password": "not checked: reached from an e-mail's link",
  "routes/_account+/unsubscribe.$token": "not checked: reached from an e-mail's link",
  "routes/_account+/buscas-salvas.cancelar.$token": "not checked: reached from an e-mail's link",
  "routes/_auth+/logout": "not checked: the sign-out form's answer",
  "routes/_legal+/termos_.aceitar": "not checked: shown only when the terms change",
  "routes/_account+/financeiro.recibos.$id": "not checked: a receipt exists only with payments on",
};

/** Links that are not pages to check: actions, downloads, the JSON API. */
function skipped(url: URL) {
  const path = url.pathname;
  return (
    path === "/logout" ||
    path === "/language" ||
    path.startsWith("/api/") ||
    path.startsWith("/uploads/") ||
    /\/files\//.test(path) ||
    /\.[a-z0-9]{2,4}$/i.test(path)
  );
}

/** Where a page sends the visitor afterwards: the same page whatever the address (a hidden field). */
const RETURN_ADDRESSES = new Set(["redirectFrom", "redirectTo"]);

/**
 * The shape of a page: the path with its ids blanked, and the query's names with its values
 * unless they are numbers or return addresses (a page of a list is the same page as the next
 * one, the login page the same wherever it returns to; `?confirm=reject` and `?status=accepted`
 * are not).
 */
function shapeOf(url: URL) {
  const path = url.pathname
    .split("/")
    // An id, alone or at the end of a public page's `<slug>-<uuid>`.
    .map((s) => (/^(\d+|([a-z0-9-]*-)?[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{16,})$/i.test(s) ? ":id" : s))
    .join("/");
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => (/^\d+$/.test(v) || RETURN_ADDRESSES.has(k) ? k : `${k}=${v}`))
    .sort()
    .join("&");
  return query ? `${path}?${query}` : path;
}

/** The key of one page: its path and query, with the page number of a list dropped. */
function pageKey(url: URL) {
  const params = [...url.searchParams.entries()].filter(([k]) => k !== "page").sort(([a], [b]) => a.localeCompare(b));
  return url.pathname + (params.length ? `?${new URLSearchParams(params)}` : "");
}

async function newUserPage(browser: Browser, testInfo: TestInfo, role: Role, lng: string) {
  const { baseURL, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({
    baseURL,
    timezoneId,
    locale: "pt-BR",
    reducedMotion: "reduce",
    viewport: DESKTOP,
  });
  const page = await context.newPage();
  if (role.email) await signIn(page, role.email, DEMO_PASSWORD);
  if (lng !== "pt-BR") await switchLanguage(page, lng);
  return page;
}

type Finding = { rule: string; impact: string; width?: string; page: string; target: string; help: string };

/**
 * The kinds of element on the page as it is now, without their text, ids or counts: every
 * element's tag, classes, role and type. A page of a route that shows no kind the route's
 * pages checked so far did not is the same page for axe (the same card twice or twenty times,
 * another account's list); a route in another state shows kinds of its own (an application
 * pending, countered, accepted: its badge, its forms).
 */
function kindsOf(page: Page) {
  return page.evaluate(() => {
    const kinds = new Set<string>();
    for (const el of document.body.querySelectorAll("*")) {
      kinds.add(
        [
          el.tagName,
          [...el.classList].sort().join("."),
          el.getAttribute("role") ?? "",
          el.getAttribute("type") ?? "",
          el.hasAttribute("aria-invalid") ? "invalid" : "",
        ].join("|"),
      );
    }
    return [...kinds];
  });
}

/** The routes the page is drawn by, outermost first (the last is the page's own). */
function routesOf(page: Page) {
  return page.evaluate(() => Object.keys((window as { __remixRouteModules?: object }).__remixRouteModules ?? {}));
}

/** axe's findings on the page as it is now, at the given widths. */
async function axeAt(page: Page, where: string, widths: (readonly ["desktop" | "phone", typeof DESKTOP])[]) {
  const findings: Finding[] = [];
  for (const [width, size] of widths) {
    await page.setViewportSize(size);
    for (const v of await axeViolations(page)) {
      for (const node of v.nodes) {
        findings.push({
          rule: v.id,
          impact: v.impact ?? "",
          width,
          page: where,
          target: node.target.join(" "),
          help: v.help,
        });
      }
    }
  }
  await page.setViewportSize(DESKTOP);
  return findings;
}

/**
 * Opens `where` and reports what breaks before axe looks: a server error, a script error or an
 * error page other than "not found" (a page may answer 200 and still break once React takes it
 * over, and axe finds nothing wrong with the error page). Returns the response's status.
 */
async function open(page: Page, where: string, scriptErrors: string[], findings: Finding[]) {
  const response = await page.goto(where);
  const status = response?.status() ?? 0;
  if (status >= 500) {
    findings.push({
      rule: `http-${status}`,
      impact: "critical",
      page: where,
      target: "document",
      help: "server error",
    });
    return status;
  }
  // The server runs with I18N_STRICT: a text missing from a language file shows as ⟦key⟧.
  const untranslated = [...new Set((await response!.text()).match(/⟦[^⟧]{1,120}⟧/g) ?? [])];
  for (const key of untranslated) {
    findings.push({
      rule: "untranslated",
      impact: "serious",
      page: where,
      target: key,
      help: "text missing from the language file",
    });
  }
  // What most people meet is the page after React took it over (the shell's menu button and
  // the toast's close button are real buttons only then).
  if (await page.locator(".shell").count()) await page.locator("button.menu-button").waitFor({ state: "attached" });
  const errorPage = (await page.locator(".error-code").allTextContents()).find((code) => code.trim() !== "404");
  for (const help of [...scriptErrors.splice(0), ...(errorPage ? [`error page ${errorPage.trim()}`] : [])]) {
    findings.push({ rule: "page-error", impact: "critical", page: where, target: "document", help });
  }
  return status;
}

const BOTH_WIDTHS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;
/** The widths a language's pages are checked at: Portuguese at both, the others at desktop width. */
const widthsIn = (lng: string) => (lng === "pt-BR" ? [...BOTH_WIDTHS] : [BOTH_WIDTHS[0]]);

/**
 * What the crawl has checked, for all roles: a route is one page for axe whoever reaches it.
 * `checks` names the route's checks (`<language> <width> <route>`); `kinds` holds the element
 * kinds of the route's pages checked in Portuguese at desktop width.
 */
type Checked = { checks: Map<string, string>; kinds: Map<string, Set<string>>; runs: number };

/**
 * Visits every page the role reaches from its start pages, checking each page shape with axe in
 * Portuguese: a route at desktop width once, and again when a page of it shows element kinds its
 * pages checked before did not (another state), and once at phone width (the phone layout hides,
 * folds and moves things of its own, the same way for every page of one route). A route another
 * role's crawl checked is not checked again. Every page visited is still checked for server
 * errors, script errors and error pages. Returns one page of each route the role reached, to
 * check in the other language.
 */
async function crawl(page: Page, start: string[], done: Checked) {
  const origin = new URL(page.url() === "about:blank" ? test.info().project.use.baseURL! : page.url()).origin;
  const queue = start.map((p) => new URL(p, origin));
  const seen = new Set(queue.map(pageKey));
  const shapes = new Map<string, number>();
  for (const url of queue) shapes.set(shapeOf(url), (shapes.get(shapeOf(url)) ?? 0) + 1);
  const visited: string[] = [];
  const routePages = new Map<string, string>();
  const findings: Finding[] = [];
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));

  while (queue.length > 0 && visited.length < MAX_PAGES) {
    const url = queue.shift()!;
    const where = url.pathname + url.search;
    visited.push(where);
    if ((await open(page, where, scriptErrors, findings)) >= 500) continue;
    const routes = await routesOf(page);
    const route = routes.at(-1) ?? shapeOf(url);
    if (!routePages.has(route)) routePages.set(route, where);
    const known = done.kinds.get(route) ?? new Set<string>();
    const kinds = await kindsOf(page);
    const widths = [];
    if (kinds.some((k) => !known.has(k))) widths.push(BOTH_WIDTHS[0]);
    if (!done.checks.has(`pt-BR phone ${route}`)) widths.push(BOTH_WIDTHS[1]);
    if (widths.length) {
      findings.push(...(await axeAt(page, where, widths)));
      done.runs += widths.length;
      for (const [width] of widths) for (const r of routes) done.checks.set(`pt-BR ${width} ${r}`, where);
      if (widths[0] === BOTH_WIDTHS[0]) done.kinds.set(route, new Set([...known, ...kinds]));
    }
    // A redirect (to the login page, the dashboard) lands on a page of its own.
    const landed = new URL(page.url());
    if (landed.origin === origin && !seen.has(pageKey(landed))) seen.add(pageKey(landed));

    const hrefs = await page
      .locator("a[href]:not([download])")
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const next = new URL(href);
      next.hash = "";
      if (next.origin !== origin || skipped(next)) continue;
      const key = pageKey(next);
      if (seen.has(key)) continue;
      const nextShape = shapeOf(next);
      if ((shapes.get(nextShape) ?? 0) >= perShape(nextShape)) continue;
      seen.add(key);
      shapes.set(nextShape, (shapes.get(nextShape) ?? 0) + 1);
      queue.push(next);
    }
  }
  return { visited, routePages, findings, unvisited: queue.map((url) => url.pathname + url.search), scriptErrors };
}

/**
 * One page of each route the role reached, again in another language at desktop width, unless
 * another role's already was: the words change, not the markup nor the phone layout's rules
 * (checked in Portuguese at both widths).
 */
async function recheck(
  page: Page,
  lng: string,
  routePages: Map<string, string>,
  scriptErrors: string[],
  done: Checked,
) {
  const findings: Finding[] = [];
  let routes = 0;
  for (const [route, where] of routePages) {
    if (done.checks.has(`${lng} desktop ${route}`)) continue;
    routes += 1;
    if ((await open(page, where, scriptErrors, findings)) >= 500) continue;
    findings.push(...(await axeAt(page, where, [BOTH_WIDTHS[0]])));
    done.runs += 1;
    for (const r of await routesOf(page)) done.checks.set(`${lng} desktop ${r}`, where);
  }
  return { findings, routes };
}

/** Switches the signed-in (or visitor's) browser to another language, as the switch in the page does. */
async function switchLanguage(page: Page, lng: string) {
  const res = await page.request.post("/language", {
    form: { lng, redirectTo: "/" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
}

/** One line per problem (rule and element), with the pages it was found on. */
function report(findings: Finding[]) {
  const grouped = new Map<string, { finding: Finding; pages: string[] }>();
  for (const f of findings) {
    const key = `${f.rule} ${f.width} ${f.target}`;
    const entry = grouped.get(key) ?? { finding: f, pages: [] };
    if (!entry.pages.includes(f.page)) entry.pages.push(f.page);
    grouped.set(key, entry);
  }
  return [...grouped.values()].map(({ finding: f, pages }) => {
    const where = pages.length > 1 ? `${pages[0]} and ${pages.length - 1} more` : pages[0];
    return `${f.rule} (${f.impact}) at ${f.target} on ${where}${f.width ? `, ${f.width}` : ""}: ${f.help}`;
  });
}

// One account per role for every language: the crawl walks the role's pages in Portuguese, then
// one page of each route it reached is checked again in English and in Spanish (the words change,
// not the markup's kinds, nor the phone layout). What one role checked, the next does not check
// again; at the end every page route has been checked in Portuguese at both widths and in every
// other language at desktop width.
test("axe: every page of the visitor, a merchant, a freelancer and the operator, pt-BR, en and es, desktop and phone", async ({
  browser,
}, testInfo) => {
  // A guard against a hang, not a speed check.
  test.setTimeout(900_000);
  const done: Checked = { checks: new Map(), kinds: new Map(), runs: 0 };
  const findings: Finding[] = [];
  for (const role of roles) {
    const page = await newUserPage(browser, testInfo, role, "pt-BR");
    const started = Date.now();
    const runs = done.runs;
    const crawled = await crawl(page, role.start, done);
    findings.push(...crawled.findings);
    await testInfo.attach(`pages of the ${role.name}`, { body: crawled.visited.join("\n"), contentType: "text/plain" });
    const rechecked: string[] = [];
    for (const lng of languages.filter((l) => l !== "pt-BR")) {
      await switchLanguage(page, lng);
      const again = await recheck(page, lng, crawled.routePages, crawled.scriptErrors, done);
      findings.push(...again.findings);
      rechecked.push(`${again.routes} new in ${lng}`);
    }
    console.log(
      `${role.name}: ${crawled.visited.length} pages, ${crawled.routePages.size} routes, ${rechecked.join(", ")}, ${done.runs - runs} axe runs, in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    // The crawl really walked the role's pages (a broken sign-in would leave only the login
    // page), and all of them: past the guard the rest is named.
    expect(crawled.visited.length).toBeGreaterThanOrEqual(role.email ? 15 : 4);
    expect(crawled.unvisited, `${role.name}: pages left unvisited`).toEqual([]);
    await page.context().close();
  }
  const lines = report(findings);
  expect(lines, `axe found ${lines.length} problems:\n${lines.join("\n")}`).toEqual([]);
  // Every page route was checked in every language (Portuguese at both widths), or is named in NOT_CRAWLED:
  // a new page no role reaches by links gets demo data that reaches it.
  const routes = pageRoutes();
  const notCrawled = routes.filter((route) => route in NOT_CRAWLED).map((r) => `${r}: ${NOT_CRAWLED[r]}`);
  testInfo.annotations.push({ type: "not crawled", description: notCrawled.join("; ") });
  console.log(`${routes.length} page routes, ${done.runs} axe runs; not crawled:\n  ${notCrawled.join("\n  ")}`);
  const missing = routes.flatMap((route) =>
    route in NOT_CRAWLED
      ? []
      : languages.flatMap((lng) =>
          widthsIn(lng)
            .filter(([width]) => !done.checks.has(`${lng} ${width} ${route}`))
            .map(([width]) => `${route} (${lng}, ${width})`),
        ),
  );
  expect(missing, "page routes no crawl checked").toEqual([]);
  // And the list stays true: no route in it that is gone or that the crawl now reaches.
  const stale = Object.keys(NOT_CRAWLED).filter((r) => !routes.includes(r) || done.checks.has(`pt-BR phone ${r}`));
  expect(stale, "routes named in NOT_CRAWLED that are gone or crawled").toEqual([]);
});

// The account's own pages in the states the demo's confirmed accounts never show: the banner of
// an unconfirmed account, a link that failed, the security settings with a refused form.
for (const lng of languages) {
  test(`axe: the account pages of a new, unconfirmed account, ${lng}`, async ({ browser, request }, testInfo) => {
    test.setTimeout(180_000);
    const account = await registerViaApi(request, { account_type: "freelancer", confirmed: false });
    const page = await newUserPage(browser, testInfo, { name: "new", start: [] }, lng);
    const checkNow = (on: Page, where: string) => axeAt(on, where, widthsIn(lng));
    await signIn(page, account.email, account.password);
    // Another session (the list has two).
    const firefox = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" };
    const other = await request.post("/api/login", {
      data: { email: account.email, password: account.password },
      headers: firefox,
    });
    expect(other.status()).toBe(200);
    // A sign-in notice goes only to a confirmed address: a confirmed account's gives the page of its link.
    const notified = await registerViaApi(request, { account_type: "freelancer" });
    for (const headers of [{}, firefox]) {
      const res = await request.post("/api/login", {
        data: { email: notified.email, password: notified.password },
        headers,
      });
      expect(res.status()).toBe(200);
    }
    const endLink = new URL(linkIn(await lastMail(request, notified.email, /novo acesso/), "/sessions/end"));
    const endPage = endLink.pathname + endLink.search;
    const findings: Finding[] = [];
    for (const where of [
      "/dashboard",
      "/primeiros-passos",
      "/verify-email",
      "/verify-email?token=invalido",
      endPage,
      "/sessions/end?token=invalido",
      // Last: the refused form below is on it.
      "/account/security",
    ]) {
      await page.goto(where);
      if (await page.locator(".shell").count()) await page.locator("button.menu-button").waitFor({ state: "attached" });
      findings.push(...(await checkNow(page, where)));
    }
    // A refused form, its messages shown.
    await page.locator("section#email button[type=submit]").click();
    await expect(page.locator("section#email .field-error").first()).toBeVisible();
    findings.push(...(await checkNow(page, "/account/security (refused)")));
    // The notice's link opened signed out, and after ending the session.
    const visitor = await newUserPage(browser, testInfo, { name: "visitor", start: [] }, lng);
    await visitor.goto(endPage);
    findings.push(...(await checkNow(visitor, `${endLink.pathname} (signed out)`)));
    await visitor.locator("form:has(input[name=token]) button[type=submit]").click();
    await expect(visitor.locator(".alert").first()).toBeVisible();
    findings.push(...(await checkNow(visitor, `${endLink.pathname} (ended)`)));
    // Two-factor: the enrollment (QR code, key, code), the recovery codes, then the login's second step.
    await page.goto("/account/security");
    const twoFactor = page.locator("section#two-factor");
    await twoFactor.locator("input[name=password]").fill(account.password);
    await twoFactor.locator("button[type=submit]").click();
    await expect(twoFactor.locator(".totp-secret")).toBeVisible();
    findings.push(...(await checkNow(page, "/account/security (two-factor enrollment)")));
    const secret = (await twoFactor.locator(".totp-secret").textContent())!.trim();
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    await twoFactor.locator("input[name=code]").fill(totp.generate());
    await twoFactor.locator("button[type=submit]").click();
    await expect(page.locator("#recovery-codes li")).toHaveCount(10);
    // The toast (bottom right, five seconds) lies over the form's buttons below it: axe would
    // measure the overlap. Closed, as a reader does, the page itself is checked.
    await page.locator(".toast-close").first().click();
    await expect(page.locator(".toast:visible")).toHaveCount(0);
    findings.push(...(await checkNow(page, "/account/security (recovery codes)")));
    await visitor.goto("/login");
    await visitor.locator("input[name=email]").fill(account.email);
    await visitor.locator("input[name=password]").fill(account.password);
    await visitor.locator("#login-form button[type=submit]").click();
    await expect(visitor.locator("input[name=code]")).toBeVisible();
    findings.push(...(await checkNow(visitor, "/login (second step)")));
    await visitor.locator("input[name=code]").fill("000000");
    await visitor.locator("form:has(input[name=code]) button[type=submit]").click();
    await expect(visitor.locator("input[name=code][aria-invalid=true]")).toBeVisible();
    findings.push(...(await checkNow(visitor, "/login (second step, refused)")));
    await visitor.context().close();
    const lines = report(findings);
    expect(lines, `axe found ${lines.length} problems:\n${lines.join("\n")}`).toEqual([]);
    await page.context().close();
  });
}

// The keyboard alone: the skip link, the phone menu and the confirmation steps.
test.describe("keyboard", () => {
  /** React has taken the page over (the menu button replaces its no-script label then). */
  const hydrated = (page: Page) => page.locator("button.menu-button").waitFor({ state: "attached" });
  const focusInside = (page: Page, id: string) =>
    page.evaluate((id) => document.getElementById(id)?.contains(document.activeElement) ?? false, id);

  test("the skip link is the first stop and leads to the content", async ({ page }) => {
    await signIn(page, "ana@freela.dev", DEMO_PASSWORD);
    await page.goto("/dashboard");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Pular para o conteúdo" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    await page.keyboard.press("Tab");
    expect(await focusInside(page, "content")).toBe(true);
  });

  test("the phone menu holds the keyboard while open and gives it back", async ({ browser }, testInfo) => {
    const { baseURL, locale, timezoneId } = testInfo.project.use;
    const context = await browser.newContext({ baseURL, locale, timezoneId, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, "julia@freela.dev", DEMO_PASSWORD);
    await page.goto("/dashboard");
    await hydrated(page);
    const menuButton = page.getByRole("button", { name: "Abrir menu" });
    const sidebar = page.getByRole("complementary", { name: "Menu principal" });
    // Closed, the menu's links are out of the way: skip link, then the menu button.
    await expect(sidebar).toBeHidden();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");

    await page.keyboard.press("Enter");
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await expect(sidebar).toBeVisible();
    await expect.poll(() => focusInside(page, "sidebar")).toBe(true);
    // Around and around, forwards and backwards, never out of the menu.
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press("Tab");
      expect(await focusInside(page, "sidebar")).toBe(true);
    }
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press("Shift+Tab");
      expect(await focusInside(page, "sidebar")).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(menuButton).toBeFocused();
    await expect(sidebar).toBeHidden();

    // Its close button closes it too.
    await page.keyboard.press("Enter");
    await sidebar.getByRole("button", { name: "Fechar menu" }).focus();
    await page.keyboard.press("Enter");
    await expect(sidebar).toBeHidden();
    await expect(menuButton).toBeFocused();

    // A link followed from the menu closes it, and focus starts at the new page's content.
    await page.keyboard.press("Enter");
    await sidebar.getByRole("link", { name: "Contratos" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/contracts$/);
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("main")).toBeFocused();

    // On a wide screen the menu is always there: no button opens or closes it.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(sidebar).toBeVisible();
    await expect(menuButton).toBeHidden();
    await expect(sidebar.getByRole("button", { name: "Fechar menu" })).toBeHidden();
    await context.close();
  });

  test("a confirmation step holds the keyboard and gives it back to its button", async ({ page, request }) => {
    const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
    const login = await request.post("/api/login", { data: { email: merchant.email, password: merchant.password } });
    const headers = { Authorization: `Bearer ${(await login.json()).access_token}` };
    const created = await request.post("/api/opportunities", {
      headers,
      data: {
        title: `Cardápio digital ${Date.now().toString(36)}`,
        description: "Cardápio com fotos e preços para a lanchonete, fácil de atualizar pelo celular.",
        category: "design",
        skills: ["Figma"],
        budget_type: "fixed",
        budget_min_cents: 50_000,
        budget_max_cents: 90_000,
        location_type: "remote",
      },
    });
    expect(created.status()).toBe(201);
    const { uuid } = (await created.json()).data;
    await signIn(page, merchant.email, merchant.password);
    await page.goto(`/opportunities/${uuid}`);
    await hydrated(page);

    const opener = page.getByRole("link", { name: "Encerrar", exact: true });
    const panel = page.getByRole("alertdialog", { name: "Encerrar esta oportunidade?" });
    await opener.focus();
    await page.keyboard.press("Enter");
    await expect(panel).toBeVisible();
    await expect(page).toHaveURL(/\?confirm=close$/);
    // Focus starts on the way back (the least harmful choice) and Tab stays in the panel.
    await expect(panel.getByRole("link", { name: "Voltar" })).toBeFocused();
    const inPanel = () => panel.evaluate((el) => el.contains(document.activeElement));
    for (let i = 0; i < 5; i += 1) {
      await page.keyboard.press("Tab");
      expect(await inPanel()).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    expect(await inPanel()).toBe(true);

    // Escape cancels, and focus is back on the button that opened it.
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/opportunities/${uuid}$`));
    await expect(opener).toBeFocused();

    // So does its own way back.
    await page.keyboard.press("Enter");
    await expect(panel).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(panel).toBeHidden();
    await expect(opener).toBeFocused();
  });
});
