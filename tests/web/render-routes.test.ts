// A page render hands React Router the app's routes. Unpatched, Remix's RemixServer built new
// route objects on every render and react-router-dom's createStaticRouter new data routes from
// them, so every route match of the render (and the route manifest sent to the browser) ranked
// the routes again: ~20% of a list page's CPU. The patches in patches/@remix-run+react+2.17.5.patch
// and patches/react-router-dom+6.30.6.patch (applied by patch-package on `npm install`/`npm ci`)
// make them once per build manifest. These tests fail when a patch is missing, and check that a
// render still gets its own request's data. Drop both with the move to React Router 7.
import { createRequire } from "node:module";
import { createElement, useContext } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

// The CommonJS builds, as the server resolves them (the packages' "main").
const require = createRequire(import.meta.url);
const { RemixServer } = require("@remix-run/react") as typeof import("@remix-run/react");
const rrdServer = require("react-router-dom/server") as typeof import("react-router-dom/server");
const { UNSAFE_DataRouterContext, useLoaderData } = require("react-router-dom") as typeof import("react-router-dom");
const remixReactPath = require.resolve("@remix-run/react");
const rrdServerPath = require.resolve("react-router-dom/server");

type Routes = unknown[];

/** What the last render saw: the data router's routes array and the root loader's data. */
let seen: { routes?: Routes; data?: unknown } = {};
// The root route's module, the same for every render, as a server build's modules are.
function Root() {
  seen.routes = useContext(UNSAFE_DataRouterContext)!.router.routes as Routes;
  seen.data = useLoaderData();
  return createElement("p", null, (seen.data as { message: string }).message);
}

async function render(manifestRoutes: Record<string, unknown>, message: string) {
  seen = {};
  const handler = rrdServer.createStaticHandler([{ id: "root", path: "/", loader: () => ({ message }) }]);
  const staticHandlerContext = await handler.query(new Request("http://localhost/"));
  if (staticHandlerContext instanceof Response) throw new Error("unexpected response");
  const context = {
    manifest: {
      routes: manifestRoutes,
      entry: { module: "/build/entry.js", imports: [] },
      url: "/build/manifest.js",
      version: "1",
    },
    routeModules: { root: { default: Root } },
    staticHandlerContext,
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: false,
      v3_routeConfig: false,
    },
    isSpaMode: false,
    serverHandoffString: "{}",
    criticalCss: undefined,
    serializeError: (error: Error) => ({ message: error.message }),
    renderMeta: {},
  };
  const html = renderToString(createElement(RemixServer, { context: context as never, url: "http://localhost/" }));
  return { html, ...seen };
}

const rootManifest = () => ({
  root: {
    id: "root",
    path: "/",
    hasLoader: true,
    hasAction: false,
    hasClientLoader: false,
    hasClientAction: false,
    hasErrorBoundary: false,
    module: "/build/root.js",
  },
});

describe("page render routes (patched @remix-run/react and react-router-dom)", () => {
  it("the server loads the CommonJS builds, the ones patched", () => {
    expect(remixReactPath).toMatch(/@remix-run[/\\]react[/\\]dist[/\\]index\.js$/);
    expect(rrdServerPath).toMatch(/react-router-dom[/\\]server\.js$/);
  });

  it("builds the routes once per manifest: two renders share them, each with its own data", async () => {
    const manifestRoutes = rootManifest();
    const first = await render(manifestRoutes, "primeira");
    const second = await render(manifestRoutes, "segunda");
    expect(first.routes).toBeDefined();
    expect(second.routes).toBe(first.routes);
    expect(first.html).toContain("<p>primeira</p>");
    expect(second.html).toContain("<p>segunda</p>");
    // Another build (another manifest, as after a rebuild in development) gets its own routes.
    const rebuilt = await render(rootManifest(), "terceira");
    expect(rebuilt.routes).not.toBe(first.routes);
    expect(rebuilt.html).toContain("<p>terceira</p>");
  });

  it("createStaticRouter makes the data routes of a routes array once", async () => {
    const routes = [{ id: "root", path: "/", loader: () => null }];
    const handler = rrdServer.createStaticHandler(routes);
    const context = await handler.query(new Request("http://localhost/"));
    if (context instanceof Response) throw new Error("unexpected response");
    const a = rrdServer.createStaticRouter(routes, context);
    const b = rrdServer.createStaticRouter(routes, context);
    expect(b.routes).toBe(a.routes);
    // The state is still the request's own: its matches point at the (shared) data routes.
    expect(a.state.matches[0]!.route).toBe(a.routes[0]);
    expect(rrdServer.createStaticRouter([...routes], context).routes).not.toBe(a.routes);
  });
});
