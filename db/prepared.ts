import pg from "pg";

// A PostgreSQL connection that prepares the statements it runs often (decision 011,
// docs/decisions/011-instrucoes-preparadas.md). Kysely sends every query as an unnamed statement, which
// PostgreSQL parses, analyses and plans on every run: for the app's short statements that was
// most of the database's work (a message's write, 7 statements, cost it about 3 ms of CPU). The
// second time a connection runs a text with parameters, it names it, so PostgreSQL keeps it
// parsed for the connection's life; plans are still made for each run's values
// (plan_cache_mode=force_custom_plan, set by db/index.ts), so a skewed value never gets a plan
// made for another. The same idea as JDBC's prepareThreshold or Npgsql's automatic preparation.
//
// A kept statement goes stale when a migration changes a table it reads (another server
// migrating while this one runs): PostgreSQL refuses it once ("cached plan must not change result
// type"). The connection then forgets its names and runs the text again, fresh; inside a
// transaction that is not possible, so the error goes up and transaction() runs the whole
// transaction again (isRetryable).

/** Texts named per connection at most (each is parsed and kept by its PostgreSQL backend). */
export const PREPARED_PER_CONNECTION = 200;
/** A text is named the second time a connection runs it: one-off texts stay unnamed. */
const PREPARE_AFTER = 2;
/** Texts counted while waiting for their second run, at most (then the count starts over). */
const COUNTED = 1_000;

const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback)\s*$/i;

let serial = 0;

type Callback = (error: Error | null, result?: pg.QueryResult) => void;

/** PostgreSQL refused a kept statement: a table it reads changed, or the statement is gone. */
export function isStaleStatement(error: unknown): boolean {
  const e = error as { code?: string; routine?: string } | undefined;
  // The routine, not the message, which follows the server's language (lc_messages).
  return (e?.code === "0A000" && e.routine === "RevalidateCachedQuery") || e?.code === "26000";
}

class Preparing extends pg.Client {
  #names = new Map<string, string>();
  #uses = new Map<string, number>();
  #inTransaction = false;

  /** The name to run `text` under, or none (run unnamed). */
  #nameFor(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name || this.#names.size >= PREPARED_PER_CONNECTION) return name;
    const uses = (this.#uses.get(text) ?? 0) + 1;
    if (uses < PREPARE_AFTER) {
      if (this.#uses.size >= COUNTED) this.#uses.clear();
      this.#uses.set(text, uses);
      return undefined;
    }
    this.#uses.delete(text);
    const named = `freela_${++serial}`;
    this.#names.set(text, named);
    return named;
  }

  async #run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const name = this.#nameFor(text);
    try {
      return await super.query({ name, text, values });
    } catch (error) {
      if (!name || !isStaleStatement(error)) throw error;
      // Its old names stay on the server until the connection closes; new ones never clash.
      this.#names = new Map();
      if (this.#inTransaction) throw error;
      return await super.query({ text, values });
    }
  }

  // pg's many signatures in one: a text with parameters (Kysely's queries, pool.query) may be
  // named; anything else (a query object, a text without parameters) goes to pg as it came.
  // @ts-expect-error -- one implementation for pg.Client's overloads
  override query(first: unknown, values?: unknown, callback?: unknown): unknown {
    if (typeof first !== "string" || !Array.isArray(values) || values.length === 0) {
      // Transaction control (Kysely's begin, commit, rollback) never has parameters.
      if (typeof first === "string") {
        if (TRANSACTION_START.test(first)) this.#inTransaction = true;
        else if (TRANSACTION_END.test(first)) this.#inTransaction = false;
      }
      // @ts-expect-error -- passed on exactly as received
      return super.query(first, values, callback);
    }
    const result = this.#run(first, values);
    if (typeof callback !== "function") return result;
    result.then(
      (r) => (callback as Callback)(null, r),
      (e: Error) => (callback as Callback)(e),
    );
    return undefined;
  }
}

/** pg.Client that names its frequent statements (its `query` keeps pg's signatures). */
export const PreparingClient = Preparing as unknown as typeof pg.Client;
