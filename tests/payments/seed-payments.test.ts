import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { seedDemo } from "../../db/seed";
import { balancesOf, checkLedger } from "~/services/payments/ledger.server";
import { escrow } from "./support";

describe("the demo seed with payments on (the demo's mode)", () => {
  it("has funded, released and paid-out milestones, so /financeiro is not empty, and a sound ledger", async () => {
    escrow(1_000);
    expect(await seedDemo(db)).toBe(true);
    const kinds = await db.selectFrom("ledger_transactions").select("kind").distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(["charge_received", "payout_paid", "payout_requested", "release"]);
    const statuses = await db.selectFrom("milestones").select("status").distinct().execute();
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(["awaiting_funding", "funded", "released"]));
    const pending = await db.selectFrom("pix_charges").select("id").where("status", "=", "pending").execute();
    expect(pending.length).toBeGreaterThan(0);
    const julia = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "julia@freela.dev")
      .executeTakeFirstOrThrow();
    const ana = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "ana@freela.dev")
      .executeTakeFirstOrThrow();
    expect((await balancesOf(julia)).paid_out_cents + (await balancesOf(julia)).held_cents).toBeGreaterThan(0);
    expect((await balancesOf(ana)).paid_in_cents).toBeGreaterThan(0);
    expect(await checkLedger()).toEqual([]);
  }, 120_000);
});
