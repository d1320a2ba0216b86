import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

// Tests live by domain (tests/accounts, tests/marketplace, tests/contracts, …): services and API
// handlers, each file with its own database, on SQLite (app) and PostgreSQL (app-pg); files that
// touch no database once (unit). The suites
// under tests/server start the production build instead (server project); tests/e2e is Playwright's.
const APP_TESTS = ["tests/**/*.test.ts"];
const SERVER_TESTS = ["tests/server/**/*.test.ts"];
// Files that touch no database (pure functions, schemas, the route table, rendering): run once,
// on no engine (project unit). A file that reads or writes the database belongs to app/app-pg.
const UNIT_TESTS = [
  "tests/accounts/passwords.test.ts",
  "tests/fiscal/nfse-core.test.ts",
  "tests/fiscal/sefin-client.test.ts",
  "tests/marketplace/market-schemas.test.ts",
  "tests/messaging/contact-detector.test.ts",
  "tests/platform/config.test.ts",
  "tests/platform/i18n-render.test.ts",
  "tests/platform/locale-keys.test.ts",
  "tests/platform/jobs.test.ts",
  "tests/platform/limits.test.ts",
  "tests/platform/money.test.ts",
  "tests/web/bodies.test.ts",
  "tests/web/client-ip.test.ts",
  "tests/web/csrf.test.ts",
  "tests/web/form-fields.test.ts",
  "tests/web/layers-lint.test.ts",
  "tests/web/market-forms.test.ts",
  "tests/web/page-buffer.test.ts",
  "tests/web/redirects.test.ts",
  "tests/web/resource-route.test.ts",
  "tests/web/sitemap-pieces.test.ts",
  "tests/web/render-routes.test.ts",
  "tests/web/route-matching.test.ts",
];
const TEST_ENV = {
  NODE_ENV: "test" as const,
  BCRYPT_COST: "4",
  UPLOADS_DIR: join(tmpdir(), "freela-test-uploads"),
  SEED_DEMO: "0",
  // New accounts' limits off: fixtures make accounts of a moment ago; the rule's own tests turn
  // it on (tests/marketplace/new-accounts.test.ts).
  NEW_ACCOUNT_HOURS: "0",
};

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    pool: "forks",
    // One test file per core. Vitest's own default is one fewer than the cores, which on a 2-core
    // machine runs every file one after the other.
    maxWorkers: availableParallelism(),
    // The server project's files first, two at a time, then the others (groupOrder 1 below).
    sequence: { groupOrder: 1 },
    projects: [
      {
        extends: true,
        test: {
          // Nothing migrated: an empty in-memory database, should a module open one on import.
          name: "unit",
          include: UNIT_TESTS,
          env: { ...TEST_ENV, DATABASE_PATH: ":memory:" },
        },
      },
      {
        extends: true,
        test: {
          // Every test file runs in its own process with its own in-memory database, a copy of
          // the one migrated once for the run.
          name: "app",
          include: APP_TESTS,
          exclude: [...configDefaults.exclude, ...SERVER_TESTS, ...UNIT_TESTS],
          globalSetup: ["tests/support/sqlite-global.ts"],
          setupFiles: ["tests/support/setup.ts"],
          isolate: true,
          env: { ...TEST_ENV, DATABASE_PATH: ":memory:" },
        },
      },
      {
        extends: true,
        test: {
          // The same suites against PostgreSQL: one throwaway server for the run (initdb in a
          // temporary folder), a database in it for every test file, copied from one migrated
          // template.
          name: "app-pg",
          include: APP_TESTS,
          exclude: [...configDefaults.exclude, ...SERVER_TESTS, ...UNIT_TESTS],
          globalSetup: ["tests/support/postgres-global.ts"],
          setupFiles: ["tests/support/setup.ts"],
          isolate: true,
          env: { ...TEST_ENV, TEST_ENGINE: "postgres" },
        },
      },
      {
        extends: true,
        test: {
          // Spawns the production build (build/index.js, so `npm run build` first) on free ports
          // with temporary databases, and kills it. Its files run first, two at a time (each
          // server, database and port is its own), and apart from the others: the files of the
          // other projects keep the cores to themselves, as their time limits assume. Kept to
          // one at a time, Vitest ran them in a group after everything else, one core idle (~6 min).
          name: "server",
          include: SERVER_TESTS,
          sequence: { groupOrder: 0 },
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
