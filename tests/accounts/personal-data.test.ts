import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { DELETION_PLAN } from "~/services/accounts/deletion.server";
import {
  NOT_PERSONAL,
  REACHED_THROUGH,
  schemaTables,
  USER_COLUMNS,
  userColumnsInSchema,
} from "~/services/accounts/personal-data.server";

// The inventory of personal data (app/services/accounts/personal-data.server.ts) against the
// schema itself, on both engines: every column pointing at users (a foreign key to users, or a
// name that says a person) is in the copy or left out with a reason, and every table is placed.
// A new table or column fails here until it is placed, so the copy (and the deletion) keep up.

describe("the inventory of personal data", () => {
  it("places every column of the schema that points at a user", async () => {
    const found = await userColumnsInSchema();
    // The discovery works: foreign keys and names alike.
    expect(found).toEqual(
      expect.arrayContaining([
        { table: "sessions", column: "user_id" },
        { table: "contracts", column: "freelancer_id" },
        { table: "reviews", column: "subject_id" },
        { table: "reports", column: "resolved_by" },
      ]),
    );
    const unplaced = found.filter(({ table, column }) => !USER_COLUMNS[table]?.[column]);
    expect(unplaced, "columns pointing at users that personal-data.server.ts does not place").toEqual([]);
    // And nothing listed that the schema no longer has.
    const listed = Object.entries(USER_COLUMNS).flatMap(([table, columns]) =>
      Object.keys(columns).map((column) => ({ table, column })),
    );
    const key = (c: { table: string; column: string }) => `${c.table}.${c.column}`;
    const existing = new Set(found.map(key));
    expect(listed.filter((c) => !existing.has(key(c)))).toEqual([]);
  });

  it("places every table: with a user column, reached through another, or not personal", async () => {
    const tables = await schemaTables();
    expect(tables).toContain("users");
    const unplaced = tables.filter((t) => !USER_COLUMNS[t] && !REACHED_THROUGH[t] && !NOT_PERSONAL[t]);
    expect(unplaced, "tables personal-data.server.ts does not place").toEqual([]);
  });

  it("names only files the copy writes, and gives every left-out column a reason", async () => {
    const { kinds } = await collectPersonalData((await createUser(db)).id);
    const dispositions = [
      ...Object.values(USER_COLUMNS).flatMap((columns) => Object.values(columns)),
      ...Object.values(REACHED_THROUGH),
    ];
    for (const d of dispositions) {
      if ("file" in d) expect(d.file === "files/" || d.file in kinds, d.file).toBe(true);
      else expect(d.left_out.length).toBeGreaterThan(20);
    }
  });

  it("agrees with the deletion plan on which tables hold someone's data", () => {
    // Every table the deletion places is placed here too, and the two say "nobody's data" of the same ones.
    for (const [table, what] of Object.entries(DELETION_PLAN)) {
      const personal = Boolean(USER_COLUMNS[table] || REACHED_THROUGH[table]);
      expect(personal || table in NOT_PERSONAL, table).toBe(true);
      expect(what === "none", `${table}: deletion says ${what}`).toBe(!personal);
    }
  });
});
