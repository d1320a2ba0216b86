import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "./engines";
import {
  apiUser,
  freePort,
  migrate,
  removeTempDirs,
  startServer,
  stopServer,
  uploadPhoto,
  type Server,
} from "./server";

// What every answer of the production server carries, whoever makes it (a page, the API, a file,
// a CSV, a redirect, sitemap.xml, robots.txt, a static file, a refusal made before Remix), and how
// it answers what it has no handler for, on both databases: the common security headers, a 405
// without a stack trace in the log for a POST to a page without an action, and the 403 of a
// cross-site write for a form whose Origin is not the host the proxy forwarded.

const COMMON = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};

describe.each(ENGINES)("every answer, on $name", (engine) => {
  let server: Server;
  let base: string;
  let token: string;
  let photo: string;

  beforeAll(async () => {
    const setup = await engine.env(await freePort());
    base = setup.base;
    migrate(setup.env);
    server = await startServer(setup.env, base);
    ({ token } = await apiUser(base, "respostas@example.com"));
    photo = await uploadPhoto(base, token);
  });

  afterAll(async () => {
    await stopServer(server);
    removeTempDirs();
  });

  it("carries the common security headers, on resource routes, redirects, files and refusals too", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const cases: [string, RequestInit, number][] = [
      ["/termos", {}, 200],
      ["/api/opportunities", { headers: auth }, 200],
      ["/financeiro/extrato.csv", { headers: auth }, 200],
      [new URL(photo, base).pathname, {}, 200],
      ["/uploads/nao-existe.png", {}, 404],
      ["/sitemap.xml", {}, 200],
      ["/robots.txt", {}, 200],
      ["/profile", { redirect: "manual" }, 302],
      ["/favicon.svg", {}, 200],
      ["/build/nao-existe.js", {}, 404],
      ["/healthz", {}, 200],
      ["/login", { method: "POST", headers: { Origin: "https://evil.example" }, body: "a=1" }, 403],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(`${base}${path}`, { redirect: "manual", ...init });
      await res.arrayBuffer();
      const headers = Object.fromEntries(Object.keys(COMMON).map((name) => [name, res.headers.get(name)]));
      expect([path, res.status, headers]).toEqual([path, status, COMMON]);
    }
  });

  it("answers a POST to a page without an action with 405, and logs no stack trace", async () => {
    const before = server.log().length;
    for (const path of ["/", "/termos", "/sitemap.xml", "/robots.txt", "/perfil/ninguem", "/vagas/x"]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      await res.arrayBuffer();
      expect([path, res.status, res.headers.get("x-content-type-options")]).toEqual([path, 405, "nosniff"]);
    }
    // Let the process write what it would have logged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = server.log().slice(before);
    expect(logged).not.toMatch(/\n\s+at /);
    expect(logged).not.toMatch(/did not provide an `action`/);
  });

  it("refuses with 403, not 500, a form whose Origin is not the forwarded host", async () => {
    const host = new URL(base).host;
    for (const forwarded of ["evil.example", "evil.example, " + host]) {
      const res = await fetch(`${base}/login`, {
        method: "POST",
        headers: {
          Origin: base,
          "X-Forwarded-Host": forwarded,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "email=a%40example.com&password=x",
      });
      expect([forwarded, res.status]).toEqual([forwarded, 403]);
      expect(await res.json()).toEqual({
        message: "Requisição recusada: ela veio de outro site. Volte à página do Freela e tente de novo.",
      });
    }
    // The same form with the forwarded host of this site goes on to the page's action.
    const ok = await fetch(`${base}/login`, {
      method: "POST",
      headers: { Origin: base, "X-Forwarded-Host": host, "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a%40example.com&password=x",
      redirect: "manual",
    });
    await ok.arrayBuffer();
    expect(ok.status).toBeLessThan(500);
    expect(ok.status).not.toBe(403);
  });
});
