import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, postgresPool } from "../../db";
import { engine, isRetryable } from "../../db/dialect";
import { PREPARED_PER_CONNECTION, PreparingClient } from "../../db/prepared";

// PostgreSQL connections prepare the statements they run often (db/prepared.ts): a text with
// parameters is named on its second run and kept parsed by the connection's backend; a kept
// statement that a migration made stale is run again fresh, or its transaction again.
describe.runIf(engine === "postgres")("statements prepared per connection", () => {
  let pool: pg.Pool;
  /** One connection, so every query of a test lands on the same backend. */
  const one = () => pool.connect();
  const kept = async (client: pg.PoolClient) =>
    (await client.query("SELECT statement FROM pg_prepared_statements ORDER BY prepare_time")).rows.map(
      (r: { statement: string }) => r.statement,
    );

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, Client: PreparingClient, max: 1 });
  });
  afterAll(() => pool.end());

  it("names a text with parameters on its second run; each run still gets its own values", async () => {
    const client = await one();
    try {
      const text = "SELECT $1::int + 1 AS n";
      expect((await client.query(text, [1])).rows).toEqual([{ n: 2 }]);
      expect(await kept(client)).toEqual([]);
      expect((await client.query(text, [2])).rows).toEqual([{ n: 3 }]);
      expect((await client.query(text, [41])).rows).toEqual([{ n: 42 }]);
      expect(await kept(client)).toEqual([text]);
      // Without parameters, and through pool.query with its callback, as pg does.
      await client.query("SELECT 1");
      await client.query("SELECT 1");
      expect(await kept(client)).toEqual([text]);
    } finally {
      client.release();
    }
    const viaPool = "SELECT $1::text || '!' AS s";
    await pool.query(viaPool, ["a"]);
    expect((await pool.query(viaPool, ["b"])).rows).toEqual([{ s: "b!" }]);
    const client2 = await one();
    try {
      expect(await kept(client2)).toContain(viaPool);
    } finally {
      client2.release();
    }
  });

  it("is how the app connects, with plans still made for each run's values", async () => {
    const { rows } = await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db);
    expect(rows).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
    expect(postgresPool!.options.Client).toBe(PreparingClient);
  });

  it(`keeps at most ${PREPARED_PER_CONNECTION} texts per connection; the rest run unnamed`, async () => {
    const client = await one();
    try {
      for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) {
        for (let run = 0; run < 2; run++) {
          expect((await client.query(`SELECT $1::int AS n, ${i} AS i`, [run])).rows).toEqual([{ n: run, i }]);
        }
      }
      expect((await kept(client)).length).toBe(PREPARED_PER_CONNECTION);
    } finally {
      client.release();
    }
  });
});

describe.runIf(engine === "postgres")("a statement kept before a migration changed its table", () => {
  let pool: pg.Pool;
  let other: pg.Client;
  const select = "SELECT * FROM prepared_probe WHERE id = $1";

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, Client: PreparingClient, max: 1 });
    other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    await other.query("CREATE TABLE prepared_probe (id int PRIMARY KEY, name text)");
    await other.query("INSERT INTO prepared_probe VALUES (1, 'um')");
  });
  afterAll(async () => {
    await pool.end();
    await other.query("DROP TABLE prepared_probe");
    await other.end();
  });

  /** Runs the select twice (named), then adds a column from another connection. */
  async function keepThenMigrate(client: pg.PoolClient, column: string) {
    await client.query(select, [1]);
    await client.query(select, [1]);
    await other.query(`ALTER TABLE prepared_probe ADD COLUMN ${column} text`);
  }

  it("is run again fresh outside a transaction: the answer has the new column", async () => {
    const client = await pool.connect();
    try {
      await keepThenMigrate(client, "city");
      expect((await client.query(select, [1])).rows).toEqual([{ id: 1, name: "um", city: null }]);
    } finally {
      client.release();
    }
  });

  it("inside a transaction ends it with an error transaction() retries; the next one works", async () => {
    const client = await pool.connect();
    try {
      await keepThenMigrate(client, "state");
      await client.query("BEGIN");
      const error = await client.query(select, [1]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "0A000" });
      expect(isRetryable(error)).toBe(true);
      await client.query("ROLLBACK");
      await client.query("BEGIN");
      expect((await client.query(select, [1])).rows).toEqual([{ id: 1, name: "um", city: null, state: null }]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  });

  it("other errors are not taken for a stale statement", async () => {
    const error = await pool.query("SELECT * FROM prepared_probe WHERE id = $1", ["não é número"]).catch((e) => e);
    expect(error).toMatchObject({ code: "22P02" });
    expect(isRetryable(error)).toBe(false);
  });
});
