import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { beforeAll } from "vitest";
import { sql } from "kysely";
import { db, exactNumber, transaction } from "../../db";
import { feeOf } from "~/lib/fees";
import { approveContract, getContract } from "~/services/contracts/contracts.server";
import { issueCharge, settleCharge } from "~/services/payments/charges.server";
import { balancesOf, checkLedger, heldTotal } from "~/services/payments/ledger.server";
import { markPayoutPaid, requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import { getStatement } from "~/services/payments/finance.server";
import { deliver, e2eId, escrow, fund, hired, milestonesOf, operator, verifiedPayee } from "./support";

// Money is integer centavos of 64 bits on both engines (bigint on PostgreSQL, migration 039):
// amounts past 2³¹−1 are stored, summed, multiplied by the fee and read back as exact numbers.

beforeAll(() => escrow(1_000));

/** A hire whose price (and single milestone) is `cents`: set in the database, past what forms take. */
async function hiredAt(cents: number) {
  const setup = await hired();
  await db.updateTable("contracts").set({ price_cents: cents }).where("id", "=", setup.id).execute();
  await db.updateTable("milestones").set({ amount_cents: cents }).where("contract_id", "=", setup.id).execute();
  return setup;
}

const ledgerCheck = () =>
  spawnSync("npx", ["tsx", "scripts/ledger-check.ts"], {
    env: { ...process.env, NODE_ENV: "test", SEED_DEMO: "0" },
    encoding: "utf8",
    cwd: process.cwd(),
  });

describe("amounts past 2³¹ centavos", () => {
  it("10¹² centavos: charged, held, released less the fee, paid out; balances and the ledger exact", async () => {
    const big = 1_000_000_000_000;
    const { owner, applicant, id } = await hiredAt(big);
    const { charge } = await issueCharge(owner, id);
    expect(charge.amount_cents).toBe(big);
    // The Pix arrives (as the operator's confirmation or the webhook settle it).
    const settled = await transaction((trx) =>
      settleCharge(trx, { ...charge, contract_id: id }, { e2e_id: e2eId(), by: operator.id }, new Date().toISOString()),
    );
    expect(settled).toBe("funded");
    expect(await heldTotal()).toMatchObject({ ledger: expect.any(Number) });
    expect(await balancesOf(owner)).toMatchObject({ held_cents: big, paid_in_cents: big });

    await deliver(applicant, id);
    await approveContract(owner, id);
    const fee = feeOf(big, 1_000);
    expect(fee).toBe(100_000_000_000);
    expect((await milestonesOf(id))[0]).toMatchObject({ released_cents: big, fee_cents: fee });
    expect((await getContract(owner, id)).milestones[0]).toMatchObject({ net_cents: big - fee });
    expect(await balancesOf(applicant)).toMatchObject({ available_cents: big - fee });

    await setPayoutAccount(applicant, {
      key_type: "email",
      pix_key: "grande@example.com",
      holder_name: "Pessoa Recebedora",
      holder_document: await verifiedPayee(applicant),
    });
    const payout = await requestPayout(applicant);
    expect(payout.amount_cents).toBe(big - fee);
    expect(typeof payout.amount_cents).toBe("number");
    await markPayoutPaid(operator, payout.id, { e2e_id: e2eId() });
    expect(await balancesOf(applicant)).toMatchObject({ available_cents: 0, paid_out_cents: big - fee });
    const statement = await getStatement(applicant, {});
    expect(JSON.stringify(statement)).toContain(String(big - fee));
    expect(await checkLedger()).toEqual([]);
  });

  it("the ledger check multiplies in 64 bits: a released R$ 22.000,00 at 10% (the product passes 2³¹)", async () => {
    const { owner, applicant, id } = await hiredAt(2_200_000);
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect(await checkLedger()).toEqual([]);
    // npm run ledger:check on this very database (PostgreSQL; SQLite's script: ledger-check.test.ts).
    if (process.env.TEST_ENGINE === "postgres") {
      const run = ledgerCheck();
      expect(run.stdout).toContain("every invariant holds");
      expect(run.status).toBe(0);
    }
  }, 60_000);

  it.runIf(process.env.TEST_ENGINE === "postgres")("every money column is bigint on PostgreSQL", async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
      SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name LIKE '%\_cents'`.execute(db);
    expect(rows.length).toBeGreaterThanOrEqual(14);
    expect(rows.filter((r) => r.data_type !== "bigint")).toEqual([]);
  });

  it("a 64-bit value is read as a number only when the number holds it exactly", () => {
    expect(exactNumber("1000000000000")).toBe(1_000_000_000_000);
    expect(exactNumber("-9007199254740991")).toBe(-9_007_199_254_740_991);
    expect(exactNumber("2.5")).toBe(2.5);
    expect(() => exactNumber("9007199254740993")).toThrow(RangeError);
  });
});
