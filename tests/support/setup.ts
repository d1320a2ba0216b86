import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

// Every test file gets a database of its own: SQLite in memory, or (project app-pg) a new
// database on the test run's PostgreSQL server.
if (process.env.TEST_ENGINE === "postgres") {
  const server = inject("postgresUrl");
  const name = `freela_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}

const { migrateToLatest } = await import("../../db");
await migrateToLatest();
