import { describe, expect, it } from "vitest";
import { assertSameOrigin, crossSiteRefusal, originDecision } from "~/web/csrf.server";

function req(method: string, headers: Record<string, string> = {}, url = "http://freela.test/login") {
  return new Request(url, { method, headers });
}

describe("originDecision", () => {
  it("lets reads through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(originDecision(req(method, { Origin: "https://evil.example" }))).toBe("allowed");
    }
  });

  it("allows a write whose Origin is this site", () => {
    expect(originDecision(req("POST", { Origin: "http://freela.test" }))).toBe("allowed");
    expect(originDecision(req("POST", { Origin: "http://freela.test", Host: "freela.test" }))).toBe("allowed");
    expect(
      originDecision(
        req("DELETE", { Origin: "http://localhost:3100", Host: "localhost:3100" }, "http://localhost:3100/api/x"),
      ),
    ).toBe("allowed");
  });

  it("refuses a write from another site, another port or a null origin", () => {
    for (const origin of [
      "https://evil.example",
      "http://freela.test.evil.example",
      "http://freela.test:8080",
      "null",
    ]) {
      expect(originDecision(req("POST", { Origin: origin })), origin).toBe("cross-site");
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect(originDecision(req(method, { Origin: "https://evil.example" }))).toBe("cross-site");
    }
  });

  it("falls back to Sec-Fetch-Site when Origin is absent", () => {
    expect(originDecision(req("POST", { "Sec-Fetch-Site": "cross-site" }))).toBe("cross-site");
    expect(originDecision(req("POST", { "Sec-Fetch-Site": "same-origin" }))).toBe("allowed");
    expect(originDecision(req("POST", { "Sec-Fetch-Site": "none" }))).toBe("allowed");
    // Non-browser clients send neither header.
    expect(originDecision(req("POST"))).toBe("allowed");
  });

  it("allows a Bearer API client with no cookie, but not a cookie-carrying request from elsewhere", () => {
    expect(originDecision(req("POST", { Authorization: "Bearer abc", Origin: "https://app.example" }))).toBe("allowed");
    expect(
      originDecision(
        req("POST", { Authorization: "Bearer abc", Cookie: "freela_session=x", Origin: "https://evil.example" }),
      ),
    ).toBe("cross-site");
    expect(originDecision(req("POST", { Cookie: "freela_session=x", Origin: "https://evil.example" }))).toBe(
      "cross-site",
    );
  });

  it("behind a proxy, compares with X-Forwarded-Host and X-Forwarded-Proto", () => {
    const internal = "http://127.0.0.1:3000/login";
    const proxied = { Host: "127.0.0.1:3000", "X-Forwarded-Host": "freela.com.br", "X-Forwarded-Proto": "https" };
    expect(originDecision(req("POST", { ...proxied, Origin: "https://freela.com.br" }, internal))).toBe("allowed");
    expect(originDecision(req("POST", { ...proxied, Origin: "http://freela.com.br" }, internal))).toBe("cross-site");
    expect(originDecision(req("POST", { ...proxied, Origin: "https://evil.example" }, internal))).toBe("cross-site");
    // A TLS proxy that does not say so: the https page of the same host is still this site.
    expect(
      originDecision(
        req("POST", { Host: "freela.com.br", Origin: "https://freela.com.br" }, "http://freela.com.br/login"),
      ),
    ).toBe("allowed");
    // An https request never accepts an http page.
    expect(originDecision(req("POST", { Origin: "http://freela.com.br" }, "https://freela.com.br/login"))).toBe(
      "cross-site",
    );
    expect(originDecision(req("POST", { Origin: "https://freela.com.br" }, "https://freela.com.br:443/login"))).toBe(
      "allowed",
    );
  });
});

describe("a forwarded host that differs from the Origin", () => {
  const internal = "http://127.0.0.1:3000/login";
  const direct = { Host: "127.0.0.1:3000", Origin: "http://127.0.0.1:3000" };

  it("is a write from another site: only the forwarded host names the site", () => {
    expect(originDecision(req("POST", { ...direct, "X-Forwarded-Host": "evil.example" }, internal))).toBe("cross-site");
    expect(originDecision(req("POST", { ...direct, "X-Forwarded-Host": "127.0.0.1:3000" }, internal))).toBe("allowed");
  });

  it("gets the 403 before Remix's check on a page's form would answer an empty 500", async () => {
    for (const [headers, url] of [
      [{ ...direct, "X-Forwarded-Host": "evil.example" }, internal],
      [{ ...direct, "X-Forwarded-Host": "evil.example, 127.0.0.1:3000" }, internal],
      // The same host as Remix reads it, with its default port written out.
      [{ Host: "freela.com.br:443", Origin: "https://freela.com.br" }, "https://freela.com.br/login"],
      [{ Host: "127.0.0.1:3000", Origin: "null", Authorization: "Bearer abc" }, internal],
    ] as const) {
      const refusal = crossSiteRefusal(req("POST", headers, url));
      expect([headers, refusal?.status]).toEqual([headers, 403]);
      expect(await refusal!.json()).toEqual({
        message: "Requisição recusada: ela veio de outro site. Volte à página do Freela e tente de novo.",
      });
    }
    expect(crossSiteRefusal(req("POST", direct, internal))).toBeNull();
    // A Bearer client of the API is not held to the Origin (Remix does not check resource routes).
    expect(
      crossSiteRefusal(
        req("POST", { Authorization: "Bearer abc", Origin: "https://app.example" }, "http://freela.test/api/x"),
      ),
    ).toBeNull();
  });
});

describe("assertSameOrigin", () => {
  it("throws a 403 with a Portuguese message for a cross-site write", async () => {
    let thrown: unknown;
    try {
      assertSameOrigin(req("POST", { Origin: "https://evil.example" }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: "Requisição recusada: ela veio de outro site. Volte à página do Freela e tente de novo.",
    });
  });

  it("does nothing for a same-site write", () => {
    expect(() => assertSameOrigin(req("POST", { Origin: "http://freela.test" }))).not.toThrow();
  });
});
