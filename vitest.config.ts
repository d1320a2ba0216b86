import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
          setupFiles: ["tests/setup.ts"],
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
          include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
          globalSetup: ["tests/support/postgres-global.ts"],
          setupFiles: ["tests/setup.ts"],
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
          include: ["tests/crash/**/*.test.ts", "tests/hostile/**/*.test.ts", "tests/multinode/**/*.test.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
