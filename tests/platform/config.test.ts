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

  it("FILE_STORAGE: the database with DATABASE_URL, the folder otherwise; s3 needs a bucket and keys", () => {
    const test = { NODE_ENV: "test" } as NodeJS.ProcessEnv;
    expect(loadConfig(test).FILE_STORAGE).toBe("folder");
    expect(loadConfig({ ...test, DATABASE_URL: "postgres://db/freela" }).FILE_STORAGE).toBe("database");
    expect(() => loadConfig({ ...test, FILE_STORAGE: "database" })).toThrow(/FILE_STORAGE=database needs DATABASE_URL/);
    const s3 = { ...test, FILE_STORAGE: "s3", S3_BUCKET: "freela", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" };
    for (const missing of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"])
      expect(() => loadConfig({ ...s3, [missing]: "" })).toThrow(
        /FILE_STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
      );
    const c = loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "true" });
    expect([c.FILE_STORAGE, c.S3_REGION, c.S3_FORCE_PATH_STYLE]).toEqual(["s3", "us-east-1", true]);
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "1" }).S3_FORCE_PATH_STYLE).toBe(true);
    expect(loadConfig(s3).S3_FORCE_PATH_STYLE).toBe(false);
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
