import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { PNG_1X1, registerViaApi } from "./support";

// The server under test runs the production build with NODE_ENV=production.
const DEMO = { email: "ana@freela.dev", password: "freela123" };
const EVIL = "https://evil.example";

const origin = () => new URL(test.info().project.use.baseURL!).origin;

function setCookies(res: APIResponse) {
  return res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
}

/** `name=value` of one cookie among a response's Set-Cookie headers. */
function cookiePair(res: APIResponse, name: string) {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return line?.split(";")[0] ?? null;
}

/** Signs in through the login form (as the browser does) and returns the session cookie pair. */
async function pageLogin(request: APIRequestContext, cookie?: string) {
  const res = await request.post("/login", {
    form: DEMO,
    headers: { Origin: origin(), ...(cookie ? { Cookie: cookie } : {}) },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  return { res, session: cookiePair(res, "freela_session")! };
}

function nonceOf(res: APIResponse) {
  const csp = res.headers()["content-security-policy"] ?? "";
  return /'nonce-([^']+)'/.exec(csp)?.[1] ?? null;
}

async function expectPageHeaders(res: APIResponse) {
  const headers = res.headers();
  const csp = headers["content-security-policy"];
  expect(csp, res.url()).toBeTruthy();
  expect(headers["content-security-policy-report-only"]).toBeUndefined();
  const directives = Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(directives["default-src"]).toEqual(["'self'"]);
  expect(directives["frame-ancestors"]).toEqual(["'none'"]);
  expect(directives["object-src"]).toEqual(["'none'"]);
  expect(directives["base-uri"]).toEqual(["'self'"]);
  expect(directives["form-action"]).toEqual(["'self'"]);
  const nonce = nonceOf(res);
  expect(nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
  expect(directives["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // A page whose address holds a token sends its address to no other site (app/web/security.server.ts).
  const tokenPage = new URL(res.url()).pathname === "/reset-password";
  expect(headers["referrer-policy"]).toBe(tokenPage ? "same-origin" : "strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  // Every script the page carries has the nonce of this response.
  const html = await res.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
}

test.describe("security headers", () => {
  test("every page answers with an enforced CSP, its own nonce and the other headers", async ({ request }) => {
    const visitorPages = [
      "/login",
      "/register",
      "/forgot-password",
      "/reset-password?token=invalido",
      "/auth/login",
      "/signin",
      "/pagina-que-nao-existe",
    ];
    for (const path of visitorPages) await expectPageHeaders(await request.get(path));

    const { session } = await pageLogin(request);
    for (const path of ["/", "/dashboard", "/profile", "/pages/profile-setting", "/opportunities", "/logout"]) {
      const res = await request.get(path, { headers: { Cookie: session }, maxRedirects: 0 });
      expect(res.status(), path).toBe(200);
      await expectPageHeaders(res);
    }
  });

  test("the nonce changes with every response", async ({ request }) => {
    const first = nonceOf(await request.get("/login"));
    const second = nonceOf(await request.get("/login"));
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(first).not.toBe(second);
  });

  test("the browser runs the page under the CSP without a single violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    await page.goto("/login");
    // Hydrated: client-side navigation works, so the nonce'd scripts ran.
    await page.getByRole("link", { name: /criar conta/i }).click();
    await expect(page).toHaveURL(/\/register$/);
    expect(violations).toEqual([]);
  });

  test("data requests and API answers carry nosniff too", async ({ request }) => {
    const data = await request.get("/login?_data=routes/login");
    expect(data.headers()["x-content-type-options"]).toBe("nosniff");
    for (const res of [
      await request.get("/api/profile"),
      await request.get("/api/caminho-desconhecido"),
      await request.post("/api/register", { data: {} }),
      await request.post("/api/login", { data: DEMO }),
    ]) {
      const headers = res.headers();
      expect(headers["content-type"], res.url()).toMatch(/^application\/json/);
      expect(headers["x-content-type-options"], res.url()).toBe("nosniff");
      expect(headers["content-security-policy"], res.url()).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers["cache-control"], res.url()).toBe("no-store");
    }
  });
});

test.describe("cookies and sessions", () => {
  test("the session cookie is HttpOnly, SameSite=Lax and Secure; so is every cookie set", async ({ request }) => {
    const { res } = await pageLogin(request);
    const cookies = setCookies(res);
    expect(cookies.some((c) => c.startsWith("freela_session="))).toBe(true);
    for (const cookie of cookies) {
      const attributes = cookie.split(";").map((a) => a.trim().toLowerCase());
      expect(attributes, cookie).toContain("httponly");
      expect(attributes, cookie).toContain("samesite=lax");
      expect(attributes, cookie).toContain("secure");
      expect(attributes, cookie).toContain("path=/");
    }
    const lang = await request.post("/language", {
      form: { lng: "en", redirectTo: "/login" },
      headers: { Origin: origin() },
      maxRedirects: 0,
    });
    const lngCookie = setCookies(lang).find((c) => c.startsWith("lng="))!;
    expect(lngCookie.toLowerCase()).toContain("httponly");
    expect(lngCookie.toLowerCase()).toContain("samesite=lax");
    expect(lngCookie.toLowerCase()).toContain("secure");
  });

  test("every login issues a new session and ends the one the browser carried", async ({ request }) => {
    const first = await pageLogin(request);
    const second = await pageLogin(request, first.session);
    expect(second.session).not.toBe(first.session);
    const old = await request.get("/api/profile", { headers: { Cookie: first.session } });
    expect(old.status()).toBe(401);
    const fresh = await request.get("/api/profile", { headers: { Cookie: second.session } });
    expect(fresh.status()).toBe(200);
  });
});

test.describe("cross-site requests", () => {
  // A plain HTML form on another site makes a document request, which the server entry refuses
  // before Remix runs (Remix's own check would answer an empty 500); a script-driven submission
  // (Remix's `?_data=` requests) and the API reach the app's check: 403 and a Portuguese message.
  test("a login posted from another site is refused and opens no session", async ({ request }) => {
    const document = await request.post("/login", { form: DEMO, headers: { Origin: EVIL }, maxRedirects: 0 });
    expect(document.status()).toBe(403);
    expect((await document.json()).message).toMatch(/^Requisição recusada: ela veio de outro site/);
    expect(cookiePair(document, "freela_session")).toBeNull();

    const data = await request.post("/login?_data=routes%2Flogin", {
      form: DEMO,
      headers: { Origin: EVIL },
      maxRedirects: 0,
    });
    expect(data.status()).toBe(403);
    expect((await data.json()).message).toMatch(/^Requisição recusada: ela veio de outro site/);
    expect(cookiePair(data, "freela_session")).toBeNull();

    const api = await request.post("/api/login", { data: DEMO, headers: { Origin: EVIL } });
    expect(api.status()).toBe(403);
  });

  test("a signed-in user's forms and API cannot be driven from another site", async ({ request }) => {
    const { session } = await pageLogin(request);
    const before = await (await request.get("/api/profile", { headers: { Cookie: session } })).json();
    const form = { full_name: "Alterado Por Outro Site", bio: "", skills: "" };

    const document = await request.post("/pages/profile-setting", {
      form,
      headers: { Cookie: session, Origin: EVIL },
      maxRedirects: 0,
    });
    expect(document.status()).toBe(403);
    expect((await document.json()).message).toMatch(/^Requisição recusada/);
    const data = await request.post("/pages/profile-setting?_data=routes%2Fpages.profile-setting", {
      form,
      headers: { Cookie: session, Origin: EVIL },
      maxRedirects: 0,
    });
    expect(data.status()).toBe(403);
    expect((await data.json()).message).toMatch(/^Requisição recusada/);
    const api = await request.post("/api/profile", {
      multipart: form,
      headers: { Cookie: session, "Sec-Fetch-Site": "cross-site" },
    });
    expect(api.status()).toBe(403);
    expect((await api.json()).message).toMatch(/^Requisição recusada/);
    const after = await (await request.get("/api/profile", { headers: { Cookie: session } })).json();
    expect(after.user.full_name).toBe(before.user.full_name);

    for (const path of ["/logout", "/logout?_data=routes%2Flogout", "/api/logout"]) {
      const res = await request.post(path, { headers: { Cookie: session, Origin: EVIL }, maxRedirects: 0 });
      expect(res.status(), path).toBe(403);
    }
    expect((await request.get("/api/profile", { headers: { Cookie: session } })).status()).toBe(200);

    // The same form from this site goes through.
    const own = await request.post("/pages/profile-setting", {
      form: { full_name: before.user.full_name, bio: "Atualizado pelo próprio site", skills: "" },
      headers: { Cookie: session, Origin: origin() },
      maxRedirects: 0,
    });
    expect(own.status()).toBe(302);
  });
});

test.describe("uploads", () => {
  test("photos are served with safe headers, and traversal attempts get 404", async ({ request }) => {
    const account = await registerViaApi(request, { account_type: "freelancer" });
    const login = await request.post("/api/login", { data: { email: account.email, password: account.password } });
    const { access_token } = await login.json();
    const upload = await request.post("/api/profile", {
      headers: { Authorization: `Bearer ${access_token}` },
      multipart: {
        full_name: account.full_name,
        photo: { name: "foto.png", mimeType: "image/png", buffer: PNG_1X1 },
      },
    });
    expect(upload.status()).toBe(200);
    const { user } = await upload.json();
    expect(user.photo_url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);

    const photo = await request.get(user.photo_url);
    expect(photo.status()).toBe(200);
    const headers = photo.headers();
    expect(headers["content-type"]).toBe("image/png");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(Buffer.compare(await photo.body(), PNG_1X1)).toBe(0);

    const attempts = [
      "/uploads/..%2f..%2fetc%2fpasswd",
      "/uploads/....//x",
      "/uploads/%2e%2e%2f%2e%2e%2fpackage.json",
      "/uploads/..%5c..%5cpackage.json",
      "/uploads/..%252f..%252fpackage.json",
      `${user.photo_url}%00.html`,
      "/..%2f..%2fetc%2fpasswd",
      "/%2e%2e/%2e%2e/package.json",
    ];
    for (const path of attempts) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
      const body = await res.text();
      expect(body, path).not.toContain("root:");
      expect(body, path).not.toContain('"name": "freela"');
    }
  });
});
