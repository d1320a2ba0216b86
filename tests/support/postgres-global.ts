// Vitest globalSetup of the app-pg project: one throwaway PostgreSQL server for the whole run,
// with one database migrated once (TEMPLATE_DATABASE); tests/support/setup.ts makes every test
// file a database of its own as a copy of it (CREATE DATABASE … TEMPLATE).
import type { TestProject } from "vitest/node";
import { migrateTemplate } from "./migrated-template";
import { startPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test server's URL (database `postgres`). */
    postgresUrl: string;
    /** The migrated database every test file's database is created from. */
    postgresTemplate: string;
  }
}

const TEMPLATE_DATABASE = "freela_template";

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  await postgres.createDatabase(TEMPLATE_DATABASE);
  migrateTemplate({ DATABASE_URL: postgres.url(TEMPLATE_DATABASE) });
  project.provide("postgresUrl", postgres.url());
  project.provide("postgresTemplate", TEMPLATE_DATABASE);
  return () => postgres.destroy();
}
