// Which GETs scripts/server.js answers through a resource route's loader (app/web/resource-route.server.ts),
// and the answer it gives when the loader returns data, throws a Response or fails, as Remix's
// handleResourceRequest does. tests/server/public/resource-routes.test.ts compares the answers of
// the real routes with Remix's own on the production build.
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { callResourceLoader, resourceLoaders, resourceRoutes } from "~/web/resource-route.server";

const loader = vi.fn(async () => new Response("ok"));
const routes = {
  root: { id: "root", path: "", module: { default: () => null, loader } },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true, module: { default: () => null, loader } },
  "routes/$": { id: "routes/$", parentId: "root", path: "*", module: { default: () => null } },
  "routes/api+/opportunities+/_index": {
    id: "routes/api+/opportunities+/_index",
    parentId: "root",
    path: "api/opportunities",
    index: true,
    module: { loader },
  },
  "routes/api+/opportunities+/$uuid": {
    id: "routes/api+/opportunities+/$uuid",
    parentId: "root",
    path: "api/opportunities/:uuid",
    module: { loader, action: loader },
  },
  "routes/api+/logout": { id: "routes/api+/logout", parentId: "root", path: "api/logout", module: { action: loader } },
  "routes/odd": { id: "routes/odd", parentId: "root", path: "odd", module: { loader, ErrorBoundary: () => null } },
};
const find = resourceLoaders(routes);

describe("the resource route a GET reaches", () => {
  it("is the deepest match when it has a loader and no page, with the path's parameters", () => {
    expect(find("/api/opportunities", "")?.id).toBe("routes/api+/opportunities+/_index");
    expect(find("/api/opportunities", "?page=2&q=site")?.id).toBe("routes/api+/opportunities+/_index");
    const one = find("/api/opportunities/abc%20d", "");
    expect(one?.id).toBe("routes/api+/opportunities+/$uuid");
    expect(one?.params.uuid).toBe("abc d");
  });

  it("is none for a page, the splat page, a route without a loader or with an error boundary", () => {
    for (const path of ["/", "/opportunities", "/api/unknown", "/api/logout", "/odd"])
      expect(find(path, "")).toBeNull();
  });

  it("is none when the query carries a parameter Remix's router acts on, or the path a bad escape", () => {
    for (const search of ["?_data=root", "?%5Fdata=root", "?index", "?a=1&index=", "?_routes=root"]) {
      expect(find("/api/opportunities", search)).toBeNull();
    }
    expect(find("/api/opportunities", "?indexed=1&data=2&index=2")).not.toBeNull();
    expect(find("/api/%E0%A4%A", "")).toBeNull();
  });
});

describe("the answer", () => {
  const found = (fn: () => Promise<unknown>) => ({ id: "routes/x", params: { uuid: "1" }, loader: fn as never });
  const request = () => new Request("http://localhost/x");
  const build = (handleError = vi.fn()) => ({ entry: { module: { handleError } } });

  it("is the loader's Response as it is, or its data as JSON", async () => {
    const response = new Response("body", { status: 201, headers: { "X-A": "1" } });
    expect(
      await callResourceLoader(
        found(async () => response),
        request(),
        build(),
      ),
    ).toBe(response);
    const data = await callResourceLoader(
      found(async () => ({ a: 1 })),
      request(),
      build(),
    );
    expect(data.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await data.json()).toEqual({ a: 1 });
  });

  it("is a thrown Response marked as caught, and a failure a logged 500", async () => {
    const thrown = await callResourceLoader(
      found(async () => {
        throw new Response("nope", { status: 404 });
      }),
      request(),
      build(),
    );
    expect(thrown.status).toBe(404);
    expect(thrown.headers.get("X-Remix-Catch")).toBe("yes");

    const handleError = vi.fn();
    const error = new Error("boom");
    const failed = await callResourceLoader(
      found(async () => {
        throw error;
      }),
      request(),
      build(handleError),
    );
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe("Unexpected Server Error");
    expect(handleError).toHaveBeenCalledWith(error, expect.objectContaining({ params: { uuid: "1" } }));
  });
});

describe("a streamed answer", () => {
  it("reads the next piece only once the client took the last: a reader that stops holds the rest back", async () => {
    const PIECES = 64;
    const piece = Buffer.alloc(1024 * 1024, 120);
    let pulled = 0;
    const streamed = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled === PIECES) return controller.close();
            pulled += 1;
            controller.enqueue(piece);
          },
        }),
      );
    const handle = resourceRoutes({
      routes: { "routes/big": { id: "routes/big", path: "big", module: { loader: streamed } } },
      entry: { module: {} },
    });
    // What the middleware uses of Express's request and response.
    const server = createServer((req, res) =>
      handle(
        Object.assign(req, {
          originalUrl: req.url!,
          protocol: "http",
          hostname: "127.0.0.1",
          get: (name: string) => req.headers[name.toLowerCase()] as string | undefined,
        }),
        Object.assign(res, { status: (code: number) => (res.statusCode = code), append: res.appendHeader }),
        () => res.writeHead(404).end(),
      ),
    ).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        httpRequest({ host: "127.0.0.1", port, path: "/big" }, resolve).on("error", reject).end(),
      );
      expect(response.statusCode).toBe(200);
      // Nothing read for a while: the server stops at what the socket's buffers hold.
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(pulled).toBeLessThan(PIECES / 2);
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      await new Promise((resolve) => response.on("end", resolve).resume());
      expect(bytes).toBe(PIECES * piece.length);
      expect(pulled).toBe(PIECES);
    } finally {
      server.close();
    }
  });
});
