import { sql, type Kysely } from "kysely";

// Widening a CHECK constraint (a new value an enum-like column may take), on either engine.
// Not a migration itself: migrations call it (see migrations/index.ts for the list).

export type CheckChange = {
  /** The column whose CHECK changes. */
  column: string;
  /** The constraint's expression as the table was created with it. */
  from: string;
  /** The new expression. */
  to: string;
};

/**
 * PostgreSQL: the column's CHECK constraint is dropped and added again with the new expression
 * (inside the migration's transaction).
 */
export async function alterChecksPostgres(db: Kysely<unknown>, table: string, changes: CheckChange[]) {
  for (const change of changes) {
    const { rows } = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE ${`%${change.column}%`}`.execute(
      db,
    );
    if (rows.length !== 1) throw new Error(`${table}: expected one CHECK on ${change.column}, found ${rows.length}`);
    const name = rows[0]!.conname;
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.ref(name)} CHECK (${sql.raw(change.to)})`.execute(
      db,
    );
  }
}

/**
 * SQLite cannot alter a constraint: the table is made again, as SQLite's documentation lays out
 * (ALTER TABLE, "making other kinds of table schema changes"). Its CREATE TABLE text, as stored
 * (with every column added since), gets the new expressions; the rows are copied over; the old
 * table is dropped and the new one takes its name; its indexes and triggers are made again.
 * Foreign keys are off meanwhile (tables that refer to this one would otherwise lose their rows
 * to ON DELETE CASCADE when the old table is dropped) and checked before the commit. Kysely runs
 * SQLite migrations outside a transaction, so this one opens its own: all or nothing.
 */
export async function alterChecksSqlite(db: Kysely<unknown>, table: string, changes: CheckChange[]) {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ${table}`.execute(db);
  const create = rows.find((r) => r.type === "table")?.sql;
  if (!create) throw new Error(`${table}: no such table`);
  let next = create;
  for (const change of changes) {
    if (!next.includes(change.from)) throw new Error(`${table}: the CHECK "${change.from}" was not found`);
    next = next.replace(change.from, change.to);
  }
  const temporary = `${table}__new`;
  const head = new RegExp(`^CREATE TABLE\\s+("?)${table}\\1`);
  if (!head.test(next)) throw new Error(`${table}: unexpected CREATE TABLE text`);
  next = next.replace(head, `CREATE TABLE "${temporary}"`);
  const others = rows.filter((r) => r.type !== "table" && r.sql !== null).map((r) => r.sql!);

  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`BEGIN IMMEDIATE`.execute(db);
    try {
      await sql.raw(next).execute(db);
      await sql.raw(`INSERT INTO "${temporary}" SELECT * FROM "${table}"`).execute(db);
      await sql.raw(`DROP TABLE "${table}"`).execute(db);
      await sql.raw(`ALTER TABLE "${temporary}" RENAME TO "${table}"`).execute(db);
      for (const statement of others) await sql.raw(statement).execute(db);
      const broken = await sql`PRAGMA foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`${table}: foreign keys broken by the rebuild`);
      await sql`COMMIT`.execute(db);
    } catch (error) {
      await sql`ROLLBACK`.execute(db);
      throw error;
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
