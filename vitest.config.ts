import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

// Tests live by domain (tests/accounts, tests/marketplace, tests/contracts, …): services and API
// handlers, each file with its own database, on SQLite (app) and PostgreSQL (app-pg). The suites
// under tests/server start the production build instead (server project); tests/e2e is Playwright's.
const APP_TESTS = ["tests/**/*.test.ts"];
const SERVER_TESTS = ["tests/server/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          include: APP_TESTS,
          exclude: [...configDefaults.exclude, ...SERVER_TESTS],
          setupFiles: ["tests/support/setup.ts"],
          // Every test file runs in its own process with its own in-memory database.
          isolate: true,
          env: {
            NODE_ENV: "test",
            DATABASE_PATH: ":memory:",
            BCRYPT_COST: "4",
            UPLOADS_DIR: join(tmpdir(), "freela-test-uploads"),
            SEED_DEMO: "0",
          },
        },
      },
      {
        extends: true,
        test: {
          // The same suites against PostgreSQL: one throwaway server for the run (initdb in a
          // temporary folder), a new database in it for every test file.
          name: "app-pg",
          include: APP_TESTS,
          exclude: [...configDefaults.exclude, ...SERVER_TESTS],
          globalSetup: ["tests/support/postgres-global.ts"],
          setupFiles: ["tests/support/setup.ts"],
          isolate: true,
          env: {
            NODE_ENV: "test",
            TEST_ENGINE: "postgres",
            BCRYPT_COST: "4",
            UPLOADS_DIR: join(tmpdir(), "freela-test-uploads"),
            SEED_DEMO: "0",
          },
        },
      },
      {
        extends: true,
        test: {
          // Spawns the production build (build/index.js, so `npm run build` first) on free ports
          // with temporary databases, and kills it.
          name: "server",
          include: SERVER_TESTS,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
