// GETs of resource routes are answered by scripts/server.js through their loader
// (app/web/resource-route.server.ts), not through Remix's request handler: here both answer the
// same requests in one process, on the production build and a migrated SQLite file with the demo
// data, and every answer must be the same (status, headers, body). The loaders are the same
// code on both engines (the hostile suite drives every endpoint through the production server on
// both); what is compared here is only the way to them.
import { installGlobals } from "@remix-run/node";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD } from "../../support/server";
import { migrate, requireBuild, serverEnv } from "../crash/server";

type Build = {
  routes: Record<string, unknown>;
  entry: { module: Record<string, unknown> };
};
type Found = { id: string } | null;
type ResourceRouteModule = {
  resourceLoaders(routes: unknown): (pathname: string, search: string) => Found;
  callResourceLoader(found: Found, request: Request, build: Build): Promise<Response>;
};

let build: Build;
let remix: (request: Request) => Promise<Response>;
let find: (pathname: string, search: string) => Found;
let direct: ResourceRouteModule["callResourceLoader"];
let token: string;
let base: string;

beforeAll(async () => {
  requireBuild();
  const setup = serverEnv(4999);
  base = setup.base;
  Object.assign(setup.env, {
    SEED_DEMO: "1",
    CONTRACT_SCHEDULE_SECONDS: "0",
    OUTBOX_SECONDS: "0",
    SAVED_SEARCH_SECONDS: "0",
  });
  migrate(setup.env);
  Object.assign(process.env, setup.env);
  installGlobals();
  build = (await import(pathToFileURL(BUILD).href)) as Build;
  const { createRequestHandler } = await import("@remix-run/node");
  remix = createRequestHandler(build as never, "production");
  const module = build.entry.module as unknown as ResourceRouteModule;
  find = module.resourceLoaders(build.routes);
  direct = module.callResourceLoader;
  const login = await remix(
    new Request(`${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ email: "carlos@freela.dev", password: "freela123" }),
    }),
  );
  expect(login.status).toBe(200);
  token = ((await login.json()) as { access_token: string }).access_token;
}, 120_000);

async function both(path: string, headers: Record<string, string>) {
  const url = new URL(path, base);
  const found = find(url.pathname, url.search);
  expect(found, path).not.toBeNull();
  const request = () => new Request(url, { headers });
  const [a, b] = [await remix(request()), await direct(found, request(), build)];
  return {
    remix: { status: a.status, headers: [...a.headers], body: await a.text() },
    direct: { status: b.status, headers: [...b.headers], body: await b.text() },
  };
}

describe("a GET of a resource route, through its loader or through Remix", () => {
  const paths = [
    "/api/opportunities",
    "/api/opportunities?page=2&per_page=5&sort=budget_desc",
    "/api/opportunities?q=site&category=desenvolvimento",
    "/api/opportunities?page=abc",
    "/api/opportunities/not-a-uuid",
    "/api/opportunities/00000000-0000-4000-8000-000000000000",
    "/api/notifications",
    "/api/contracts",
    "/api/services",
    "/api/no-such-endpoint",
    "/healthz",
    "/robots.txt",
    "/sitemap.xml",
  ];

  it.each(paths)("answers the same: %s (signed in)", async (path) => {
    const { remix: a, direct: b } = await both(path, { Authorization: `Bearer ${token}`, "Accept-Language": "en" });
    expect(b).toEqual(a);
  });

  it.each(["/api/opportunities", "/api/contracts", "/api/notifications"])(
    "answers the same: %s (no session, a bad token)",
    async (path) => {
      for (const headers of [{}, { Authorization: "Bearer nope" }] as Record<string, string>[]) {
        const { remix: a, direct: b } = await both(path, headers);
        expect(b.status).toBe(401);
        expect(b).toEqual(a);
      }
    },
  );

  it("leaves pages, data requests and the router's own parameters to Remix", () => {
    for (const [pathname, search] of [
      ["/", ""],
      ["/opportunities", ""],
      ["/contracts", ""],
      ["/api/opportunities", "?_data=routes%2Fapi%2B%2Fopportunities%2B%2F_index"],
      ["/api/opportunities", "?index"],
      ["/api/opportunities", "?page=2&_routes=root"],
      ["/api/%E0%A4%A", ""],
    ]) {
      expect(find(pathname!, search!), `${pathname}${search}`).toBeNull();
    }
    expect(find("/api/opportunities", "?page=2&indexing=1")?.id).toBe("routes/api+/opportunities+/_index");
  });
});
