import pg from "pg";
import { vi } from "vitest";
import { statements } from "../../db";

/** How many statements `run` sends to the database. */
export async function statementsOf(run: () => Promise<unknown>) {
  // SQLite: every statement Kysely runs is prepared through the cache; PostgreSQL: sent by a client.
  const spy = statements ? vi.spyOn(statements, "prepare") : vi.spyOn(pg.Client.prototype, "query");
  try {
    await run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}
