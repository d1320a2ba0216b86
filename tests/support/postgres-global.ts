// Vitest globalSetup of the app-pg project: one throwaway PostgreSQL server for the whole run;
// tests/support/setup.ts makes a database in it for every test file.
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test server's URL (database `postgres`). */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide("postgresUrl", postgres.url());
  return () => postgres.destroy();
}
