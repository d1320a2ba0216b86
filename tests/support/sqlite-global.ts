// Vitest globalSetup of the app project: one SQLite database migrated for the whole run, kept as
// a plain file (rollback journal, nothing left in a WAL); every test file's in-memory database
// starts as a copy of it (tests/support/setup.ts, db/index.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import type { TestProject } from "vitest/node";
import { migrateTemplate } from "./migrated-template";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated SQLite file every test file's database is copied from. */
    sqliteTemplate: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "freela-sqlite-template-"));
  const file = join(dir, "template.db");
  migrateTemplate({ DATABASE_PATH: file });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = DELETE");
  sqlite.close();
  project.provide("sqliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
