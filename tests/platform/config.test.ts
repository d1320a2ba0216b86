import { describe, expect, it } from "vitest";
import { assertServerConfig, loadConfig } from "~/config.server";

describe("configuration", () => {
  const production = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) } as NodeJS.ProcessEnv;

  it("a production server needs APP_URL, and says so", () => {
    expect(() => assertServerConfig(loadConfig(production))).toThrow(/APP_URL: required when NODE_ENV=production/);
    expect(() => assertServerConfig(loadConfig({ ...production, APP_URL: "" }))).toThrow(/APP_URL/);
    const c = loadConfig({ ...production, APP_URL: "https://freela.example.com.br/" });
    expect(() => assertServerConfig(c)).not.toThrow();
    expect(c.APP_URL).toBe("https://freela.example.com.br");
  });

  it("scripts and other modes do without it", () => {
    expect(() => loadConfig(production)).not.toThrow();
    const dev = loadConfig({ NODE_ENV: "development", PORT: "4000" } as NodeJS.ProcessEnv);
    expect(() => assertServerConfig(dev)).not.toThrow();
    expect(dev.APP_URL).toBe("http://localhost:4000");
  });

  it("refuses an APP_URL that is not an http(s) address", () => {
    for (const APP_URL of ["freela.example", "javascript:alert(1)", "ftp://freela.example"]) {
      expect(() => loadConfig({ ...production, APP_URL })).toThrow(/APP_URL/);
    }
  });
});
