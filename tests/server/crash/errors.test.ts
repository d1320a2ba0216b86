import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  apiUser,
  freePort,
  inspect,
  migrate,
  removeTempDirs,
  serverEnv,
  startServer,
  stopServer,
  type Server,
} from "./server";

// What an unexpected failure must never show: the error text, SQL, stack frames, file paths.
const LEAKS = [
  /no such table/i,
  /SqliteError/i,
  /sessions_gone/,
  /\bselect\b.*\bfrom\b/i,
  /\n\s+at /,
  /\/(work|home|tmp|app)\//,
  /\.tsx?:\d+/,
  /node_modules/,
];

function expectNoLeak(text: string) {
  for (const pattern of LEAKS) expect(text, String(pattern)).not.toMatch(pattern);
}

describe("an unexpected error in the production server", () => {
  let server: Server;
  let base: string;
  let token: string;
  let email: string;
  let password: string;

  beforeAll(async () => {
    const port = await freePort();
    const setup = serverEnv(port);
    base = setup.base;
    migrate(setup.env);
    server = await startServer(setup.env, base);
    ({ token, email, password } = await apiUser(base, "erros@example.com"));
    // Break the database under the running server: every session lookup now fails with SQL.
    inspect(setup.dbPath, (db) => db.exec("ALTER TABLE sessions RENAME TO sessions_gone"));
  });

  afterAll(async () => {
    await stopServer(server);
    removeTempDirs();
  });

  // First: the log's buffer holds little yet, so only the error's own flush brings its line out in time.
  it("the 500 page and the API's error body show the request id, which the log line carries", async () => {
    const page = await fetch(`${base}/profile`, {
      headers: { Authorization: `Bearer ${token}`, "X-Request-Id": "support-page-0001" },
    });
    expect(page.status).toBe(500);
    expect(page.headers.get("x-request-id")).toBe("support-page-0001");
    expect(await page.text()).toContain("Código do erro: support-page-0001");

    const api = await fetch(`${base}/api/profile`, { headers: { Authorization: `Bearer ${token}` } });
    expect(api.status).toBe(500);
    const code = api.headers.get("x-request-id")!;
    expect(await api.json()).toEqual({ message: "Erro interno. Tente novamente.", error_code: code });
    // The log line of the error: JSON, the request's id, the error with its stack. Written at once,
    // not with the buffered lines (flushed each second): it reaches the log within a moment.
    const logged = await vi.waitFor(
      () => {
        const line = server
          .log()
          .split("\n")
          .filter((text) => text.startsWith("{"))
          .map(
            (text) => JSON.parse(text) as { req_id?: string; level: string; err?: { message: string; stack: string } },
          )
          .find((entry) => entry.req_id === code && entry.level === "error");
        expect(line).toBeDefined();
        return line!;
      },
      { timeout: 400, interval: 10 },
    );
    expect(logged.err?.message).toMatch(/no such table: sessions/);
    expect(logged.err?.stack).toMatch(/\n\s+at /);
  });

  it("a page answers 500 with the generic page", async () => {
    const res = await fetch(`${base}/profile`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("Algo deu errado");
    expectNoLeak(html);
  });

  it("a page's data request answers 500 without details", async () => {
    const res = await fetch(`${base}/profile?_data=root`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(500);
    expectNoLeak(await res.text());
  });

  it("the API answers 500 with the generic Portuguese message", async () => {
    const profile = await fetch(`${base}/api/profile`, { headers: { Authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(500);
    expect(await profile.json()).toEqual({
      message: "Erro interno. Tente novamente.",
      error_code: profile.headers.get("x-request-id"),
    });

    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(500);
    const text = await login.text();
    expectNoLeak(text);
    expect(JSON.parse(text)).toEqual({
      message: "Erro interno. Tente novamente.",
      error_code: login.headers.get("x-request-id"),
    });
  });

  it("the details go to the server log instead", () => {
    expect(server.log()).toMatch(/no such table: sessions/);
  });
});
