import { afterEach, describe, expect, it, vi } from "vitest";

const withXff = (value: string) => new Request("http://localhost/api/login", { headers: { "X-Forwarded-For": value } });

async function loadClientIp(trustProxy: string | undefined) {
  vi.resetModules();
  if (trustProxy === undefined) vi.stubEnv("TRUST_PROXY", "");
  else vi.stubEnv("TRUST_PROXY", trustProxy);
  return (await import("~/web/client.server")).clientIp;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("clientIp", () => {
  it("ignores X-Forwarded-For without a trusted proxy: any client could write it", async () => {
    const clientIp = await loadClientIp(undefined);
    expect(clientIp(withXff("203.0.113.7"))).toBeNull();
  });

  it("behind a trusted proxy, takes the entry the proxy appended", async () => {
    const clientIp = await loadClientIp("1");
    expect(clientIp(withXff("10.9.9.9, 203.0.113.7"))).toBe("203.0.113.7");
    expect(clientIp(new Request("http://localhost/"))).toBeNull();
  });
});
