import { describe, expect, it } from "vitest";
import { requestIdFrom } from "~/services/platform/log.server";
import { metricsAuthorized } from "~/services/platform/metrics.server";
import { readiness, startDraining } from "~/services/platform/readiness.server";
import { routeLabeller, statusClass } from "~/web/route-label.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("keeps a well-formed X-Request-Id", () => {
    for (const id of ["abcdefgh", "req.123_456-789", "a".repeat(64), "3f273d16-924a-4d88-a642-db2a2203100d"]) {
      expect(requestIdFrom(id)).toBe(id);
    }
  });

  it("makes a new one for a missing or malformed header", () => {
    for (const header of [
      undefined,
      null,
      "",
      "short",
      "a".repeat(65),
      "has space",
      'quote"d-id',
      "<script>x",
      "ação-1234",
      ["abcdefgh", "ijklmnop"],
    ]) {
      expect(requestIdFrom(header)).toMatch(UUID);
    }
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

describe("labels of requests", () => {
  it("status classes", () => {
    expect([200, 204, 302, 304, 400, 404, 429, 500, 503].map(statusClass)).toEqual([
      "2xx",
      "2xx",
      "3xx",
      "3xx",
      "4xx",
      "4xx",
      "4xx",
      "5xx",
      "5xx",
    ]);
    expect([0, 99, 600, NaN].map(statusClass)).toEqual(["5xx", "5xx", "5xx", "5xx"]);
  });

  // The shape of a server build's routes (build.routes): flat, with parent ids.
  const routes = {
    root: { id: "root", path: "" },
    "routes/$": { id: "routes/$", parentId: "root", path: "*" },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
    "routes/opportunities+/_index": {
      id: "routes/opportunities+/_index",
      parentId: "root",
      path: "opportunities",
      index: true,
    },
    "routes/opportunities+/$uuid": { id: "routes/opportunities+/$uuid", parentId: "root", path: "opportunities/:uuid" },
    "routes/api+/opportunities+/_index": {
      id: "routes/api+/opportunities+/_index",
      parentId: "root",
      path: "api/opportunities",
      index: true,
    },
    "routes/_account+/identidade": { id: "routes/_account+/identidade", parentId: "root", path: "identidade" },
    "routes/_account+/identidade.arquivos.$file": {
      id: "routes/_account+/identidade.arquivos.$file",
      parentId: "routes/_account+/identidade",
      path: "arquivos/:file",
    },
    "routes/_account+/unsubscribe.$token": {
      id: "routes/_account+/unsubscribe.$token",
      parentId: "root",
      path: "unsubscribe/:token",
    },
  };
  const label = routeLabeller(routes, "/build/");

  it("names a request by the deepest route it reaches, never by its ids", () => {
    expect(label("/").route).toBe("routes/_index");
    expect(label("/opportunities").route).toBe("routes/opportunities+/_index");
    for (let i = 1; i <= 50; i++) expect(label(`/opportunities/${i}`).route).toBe("routes/opportunities+/$uuid");
    expect(label("/api/opportunities").route).toBe("routes/api+/opportunities+/_index");
    expect(label("/identidade/arquivos/abc.png").route).toBe("routes/_account+/identidade.arquivos.$file");
    expect(label("/nonexistent-xyz").route).toBe("routes/$");
    expect(label("/%E0%A4%A").route).toBe("unmatched");
  });

  it("files served before Remix are one label", () => {
    for (const path of ["/build/entry.client-XYZ.js", "/locales/pt-BR/common.json", "/favicon.svg", "/og-image.png"]) {
      expect(label(path)).toEqual({ route: "static", path });
    }
  });

  it("a path's token stays out of the log", () => {
    expect(label("/unsubscribe/secret-token-123")).toEqual({
      route: "routes/_account+/unsubscribe.$token",
      path: "/unsubscribe/…",
    });
    expect(label("/opportunities/42").path).toBe("/opportunities/42");
  });

  it("without a splat route, an unknown path is `unmatched`", () => {
    const { "routes/$": _splat, ...rest } = routes;
    expect(routeLabeller(rest)("/nonexistent-xyz").route).toBe("unmatched");
  });
});

describe("the metrics token", () => {
  const token = "metrics-token-0123456789";
  it("takes only `Bearer <token>`", () => {
    expect(metricsAuthorized(`Bearer ${token}`, token)).toBe(true);
    for (const header of [
      null,
      "",
      token,
      `Bearer ${token}x`,
      `Bearer ${token.slice(1)}`,
      `Basic ${token}`,
      "Bearer ",
    ]) {
      expect(metricsAuthorized(header, token)).toBe(false);
    }
  });
});

describe("readiness", () => {
  it("is ready with the database answering, the migrations applied and the files writable; not once a stop began", async () => {
    expect(await readiness()).toEqual({ ready: true });
    startDraining();
    expect(await readiness()).toEqual({ ready: false, reason: "stopping" });
  });
});
