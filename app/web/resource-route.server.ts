import { json, type LoaderFunction } from "@remix-run/node";
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoutes } from "@remix-run/router";
import { decodes, routeTree } from "./route-label.server";

// A GET of a resource route (a route with a loader and no page: the JSON API, files, the sitemap,
// /healthz, /metrics) answered by calling its loader, as Remix does, without the rest of
// Remix's request handling. For such a request Remix matches the route, copies the Request
// twice (taking `?index` and `?_data` off), runs the loader through its static router and hands
// the Response back unchanged: about 0.4 ms of CPU per request, a third of the JSON list's. The
// answer is the same, byte for byte (tests/server/public/resource-routes.test.ts compares the
// two for the API's GETs, refusals and errors included).

type Module = { default?: unknown; ErrorBoundary?: unknown; loader?: LoaderFunction; action?: unknown };
type BuildRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };
type Build = {
  routes: Record<string, BuildRoute & { module: Module }>;
  entry: {
    module: { handleError?: (error: unknown, args: { request: Request; params: object; context: object }) => void };
  };
};

/**
 * Whether the query carries a parameter Remix's router acts on (a data request, an empty
 * `index`, which it takes off, the routes of a data fetch): such a request goes through Remix.
 */
function routerParams(search: string) {
  const params = new URLSearchParams(search);
  return params.has("_data") || params.has("_routes") || params.getAll("index").includes("");
}

export type ResourceLoader = { id: string; params: Record<string, string | undefined>; loader: LoaderFunction };

/**
 * The resource route a GET reaches, as Remix's matching finds it (the deepest match of the whole
 * route tree), or null when Remix must answer: a page, no route, a router parameter in the query.
 */
export function resourceLoaders(routes: Build["routes"]) {
  const tree = routeTree(routes);
  return (pathname: string, search: string): ResourceLoader | null => {
    if (search && routerParams(search)) return null;
    if (pathname.includes("%") && !decodes(pathname)) return null;
    const last = matchRoutes(tree, pathname)?.at(-1);
    if (!last) return null;
    const { module } = routes[last.route.id!]!;
    if (module.default != null || module.ErrorBoundary != null || !module.loader) return null;
    return { id: last.route.id!, params: last.params, loader: module.loader };
  };
}

/** A resource route's answer to a request, as Remix's handleResourceRequest gives it. */
export async function callResourceLoader(found: ResourceLoader, request: Request, build: Pick<Build, "entry">) {
  const context = {};
  try {
    const result: unknown = await found.loader({ request, params: found.params, context });
    return result instanceof Response ? result : json(result);
  } catch (error) {
    if (error instanceof Response) {
      error.headers.set("X-Remix-Catch", "yes");
      return error;
    }
    build.entry.module.handleError?.(error, { request, params: found.params, context });
    return new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
  }
}

/** What scripts/server.js's Express request and response are to this module. */
type ExpressRequest = IncomingMessage & {
  originalUrl: string;
  protocol: string;
  hostname: string;
  get(name: string): string | undefined;
};
type ExpressResponse = ServerResponse & { status(code: number): unknown; append(name: string, value: string): unknown };

/** A request target that is a path (`/…`, not `//host/…` nor an absolute URL): others go to Remix. */
const ORIGIN_FORM = /^\/(?!\/)/;
const BASE = "http://localhost";

/**
 * scripts/server.js: answers a GET that reaches a resource route, else passes it on to Remix.
 * The Request and the writing of the answer are @remix-run/express's (createRemixRequest and
 * sendRemixResponse, which it does not export), for a GET.
 */
export function resourceRoutes(build: Build) {
  const find = resourceLoaders(build.routes);
  return (req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void) => {
    if (req.method !== "GET" || !ORIGIN_FORM.test(req.originalUrl)) return next();
    // The path as Remix reads it from the Request's URL (dot segments resolved, escapes kept).
    const url = new URL(req.originalUrl, BASE);
    const found = find(url.pathname, url.search);
    if (!found) return next();
    callResourceLoader(found, requestOf(req, res), build)
      .then((response) => send(res, response))
      .catch(next);
  };
}

function requestOf(req: ExpressRequest, res: ExpressResponse) {
  // req.hostname has no port (and respects "trust proxy"): the port from X-Forwarded-Host or Host.
  const port = [req.get("X-Forwarded-Host"), req.get("host")]
    .map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10))
    .find((n) => Number.isSafeInteger(n));
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(name, value);
    else headers.set(name, values);
  }
  // Loaders stop when the client is gone before the answer was written.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(new URL(url).href, { method: "GET", headers, signal: controller.signal });
}

async function send(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  // As Remix's writeReadableStreamToWritable, but a piece is read only once the socket took the
  // last one: a slow client of a streamed answer (a sitemap page) is not buffered for whole.
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return void res.end();
      if (!res.write(value) && !(await drained(res))) return void (await reader.cancel());
    }
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

/** Whether what was written went out ("drain") rather than the connection closing first. */
function drained(res: ServerResponse) {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const settle = (ok: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}
