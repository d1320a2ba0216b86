// Route matching runs on every request (twice for a page: once in the request handler, once in
// the static handler; and once more in React Router while rendering). The patch in
// patches/@remix-run+router+1.23.4.patch, applied by patch-package on `npm install`/`npm ci`
// (postinstall), makes @remix-run/router's CommonJS build rank the branches of a routes array
// once, remember the matches of the paths it matched last and compile a route path's RegExp
// once. These tests fail when the patch is missing, and check that Freela's own routes still
// match as before. Drop both with the move to React Router 7, which caches the branches upstream.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

type RouteLike = { id: string; path?: string; index?: boolean; children?: RouteLike[] };
type Match = { params: Record<string, string | undefined>; pathname: string; route: RouteLike };

// The modules the server runs, resolved as the server resolves them: @remix-run/server-runtime
// (its CommonJS build: the package has no "exports", so Node's ESM import of it takes "main" too)
// and the @remix-run/router that it requires.
const require = createRequire(import.meta.url);
const runtimeEntry = require.resolve("@remix-run/server-runtime");
const runtimeDir = dirname(runtimeEntry);
const { matchServerRoutes } = require(join(runtimeDir, "routeMatching.js")) as {
  matchServerRoutes(routes: RouteLike[], pathname: string): Match[] | null;
};
const { createRoutes } = require(join(runtimeDir, "routes.js")) as {
  createRoutes(manifest: Record<string, unknown>): RouteLike[];
};
const routerPath = createRequire(runtimeEntry).resolve("@remix-run/router");
// The route files as the Remix compiler reads them: remix.config.js, its remix-flat-routes
// folders under app/routes.
const { readConfig } = require("@remix-run/dev/dist/config.js") as {
  readConfig(root: string): Promise<{ routes: Record<string, unknown> }>;
};
const manifest = (await readConfig(fileURLToPath(new URL("../..", import.meta.url)))).routes;

function freelaRoutes(): RouteLike[] {
  return createRoutes(manifest);
}

const leaf = (routes: RouteLike[], pathname: string) => {
  const matches = matchServerRoutes(routes, pathname);
  const last = matches?.at(-1);
  return last && { id: last.route.id, params: last.params };
};

const OriginalRegExp = globalThis.RegExp;
afterEach(() => {
  globalThis.RegExp = OriginalRegExp;
});

describe("route matching (patched @remix-run/router)", () => {
  it("the server's @remix-run/router is the CommonJS build, the one patched", () => {
    expect(routerPath).toMatch(/@remix-run[/\\]router[/\\]dist[/\\]router\.cjs\.js$/);
  });

  it("ranks the branches of a routes array once: a second match does not walk the routes again", () => {
    let reads = 0;
    const table: RouteLike[] = [
      {
        id: "root",
        path: "",
        children: [
          {
            id: "opportunities",
            get path() {
              reads++;
              return "opportunities";
            },
          },
          { id: "opportunity", path: "opportunities/:uuid" },
        ],
      },
    ];
    expect(leaf(table, "/opportunities")?.id).toBe("opportunities");
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(leaf(table, "/opportunities/abc")).toEqual({ id: "opportunity", params: { uuid: "abc" } });
    expect(leaf(table, "/opportunities")?.id).toBe("opportunities");
    expect(reads).toBe(afterFirst);
  });

  it("compiles a route path once: matching the same paths again builds no RegExp", () => {
    const routes = freelaRoutes();
    const paths = ["/opportunities/abc", "/api/opportunities/x/applications", "/healthz", "/nada"];
    for (const path of paths) leaf(routes, path);
    // A new routes array with the same paths (React Router's render builds one per request):
    // its branches are new, the compiled paths are not.
    const again = freelaRoutes();
    let built = 0;
    globalThis.RegExp = new Proxy(OriginalRegExp, {
      construct(target, args) {
        built++;
        return Reflect.construct(target, args);
      },
    });
    for (const path of paths) leaf(again, path);
    globalThis.RegExp = OriginalRegExp;
    expect(built).toBe(0);
  });

  it("remembers the matches of a path: matching it again runs no route RegExp, each caller gets its own copy", () => {
    const routes = freelaRoutes();
    const first = matchServerRoutes(routes, "/api/opportunities/u1/applications")!;
    const exec = OriginalRegExp.prototype.exec;
    let runs = 0;
    // A route path compiles to a RegExp anchored with ^ (decoding the pathname runs others).
    OriginalRegExp.prototype.exec = function (this: RegExp, text: string) {
      if (this.source.startsWith("^")) runs++;
      return exec.call(this, text);
    };
    let again: Match[] | null;
    try {
      again = matchServerRoutes(routes, "/api/opportunities/u1/applications");
    } finally {
      OriginalRegExp.prototype.exec = exec;
    }
    expect(runs).toBe(0);
    expect(again).toEqual(first);
    // A caller changing what it got changes nobody else's matches.
    again!.at(-1)!.params.uuid = "changed";
    expect(leaf(routes, "/api/opportunities/u1/applications")?.params).toEqual({ uuid: "u1" });
    expect(first.at(-1)!.params).toEqual({ uuid: "u1" });
  });

  describe("Freela's routes still match as before", () => {
    const routes = freelaRoutes();
    it.each([
      ["/", "routes/_index", {}],
      ["/healthz", "routes/healthz", {}],
      // A static segment outranks a dynamic one, which outranks a splat.
      ["/opportunities", "routes/opportunities+/_index", {}],
      ["/opportunities/create", "routes/opportunities+/create", {}],
      ["/opportunities/3f0c-9a", "routes/opportunities+/$uuid", { uuid: "3f0c-9a" }],
      ["/opportunities/3f0c-9a/edit", "routes/opportunities+/$uuid_.edit", { uuid: "3f0c-9a" }],
      ["/applications/awaiting-confirmation", "routes/applications+/awaiting-confirmation", {}],
      ["/applications/42", "routes/applications+/$id", { id: "42" }],
      ["/api/opportunities", "routes/api+/opportunities+/_index", {}],
      ["/api/opportunities/u1/applications", "routes/api+/opportunities+/$uuid.applications", { uuid: "u1" }],
      [
        "/api/contracts/7/cancellation-requests/accept",
        "routes/api+/contracts+/$id.cancellation-requests.accept",
        { id: "7" },
      ],
      ["/api/no/such/thing", "routes/api+/$", { "*": "no/such/thing" }],
      ["/no/such/page", "routes/$", { "*": "no/such/page" }],
      // Folders whose name starts with "_" add nothing to the URL.
      ["/login", "routes/_auth+/login", {}],
      ["/api/login", "routes/api+/_auth+/login", {}],
      ["/freelancers", "routes/_profiles+/freelancers._index", {}],
      ["/freelancers/9", "routes/_profiles+/freelancers.$id", { id: "9" }],
      ["/contracts/7/files/f1", "routes/contracts+/$id_.files.$file", { id: "7", file: "f1" }],
      ["/api/contracts/7", "routes/api+/contracts+/$id", { id: "7" }],
      // Percent-encoded segments are decoded into the params, as before.
      ["/opportunities/caf%C3%A9", "routes/opportunities+/$uuid", { uuid: "café" }],
    ])("%s -> %s", (path, id, params) => {
      // Twice: the first computes the branches, the second takes them from the cache.
      for (let i = 0; i < 2; i++) expect(leaf(routes, path)).toEqual({ id, params });
    });
  });
});
