import { describe, expect, it } from "vitest";
import { db, engine, transaction } from "../../db";
import { createUser } from "../../db/factories";

// PostgreSQL ends one of two deadlocked transactions; transaction() runs it again, so both
// requests still get their answer. (SQLite's BEGIN IMMEDIATE runs write transactions one at a
// time: they cannot deadlock.)
describe.runIf(engine === "postgres")("transaction()", () => {
  it("runs the transaction PostgreSQL picked to break a deadlock again, and both finish", async () => {
    const [a, b] = [await createUser(db), await createUser(db)];
    let attempts = 0;
    let holding = 0;
    let bothHolding!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHolding = resolve));
    // Each locks one row, waits until the other holds its row, then asks for the other's.
    const crosswise = (first: string, second: string, bio: string) =>
      transaction(async (trx) => {
        attempts++;
        await trx.updateTable("users").set({ bio }).where("id", "=", first).execute();
        if (++holding === 2) bothHolding();
        if (attempts <= 2) await barrier;
        await trx.updateTable("users").set({ bio }).where("id", "=", second).execute();
        return bio;
      });
    expect(await Promise.all([crosswise(a.id, b.id, "um"), crosswise(b.id, a.id, "dois")])).toEqual(["um", "dois"]);
    expect(attempts).toBe(3);
    // Whichever finished last wrote both rows.
    const bios = await db.selectFrom("users").select("bio").where("id", "in", [a.id, b.id]).execute();
    expect(new Set(bios.map((r) => r.bio)).size).toBe(1);
  });

  it("does not repeat a transaction that failed for any other reason", async () => {
    let attempts = 0;
    await expect(
      transaction(async (trx) => {
        attempts++;
        await trx
          .insertInto("users")
          .values({ id: "x" } as never)
          .execute();
      }),
    ).rejects.toThrow(/null value/);
    expect(attempts).toBe(1);
  });
});
