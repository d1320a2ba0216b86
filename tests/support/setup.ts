import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

// Every test file gets a database of its own, a copy of the one migrated once for the run
// (tests/support/sqlite-global.ts, postgres-global.ts): SQLite in memory, loaded from the
// migrated file, or (project app-pg) a new database on the test run's PostgreSQL server made
// from the migrated template.
if (process.env.TEST_ENGINE === "postgres") {
  const server = inject("postgresUrl");
  const name = `freela_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE "${inject("postgresTemplate")}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
} else {
  process.env.TEST_SQLITE_TEMPLATE = inject("sqliteTemplate");
}

// Already migrated: this only checks that nothing is pending.
const { migrateToLatest } = await import("../../db");
await migrateToLatest();
