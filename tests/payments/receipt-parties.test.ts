import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { getReceipt } from "~/services/payments/finance.server";
import { escrow, fund, hired } from "./support";

// A receipt names its parties as far as they are known: the merchant's company and CNPJ as
// declared on their profile, on the receipts of both sides of their contracts.

beforeAll(() => escrow(1_000));

describe("the parties on a receipt", () => {
  it("carries the merchant's company and CNPJ when declared, and nothing invented when not", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    const charge = await db
      .selectFrom("ledger_transactions")
      .select("id")
      .where("merchant_id", "=", owner.id)
      .where("kind", "=", "charge_received")
      .executeTakeFirstOrThrow();

    const before = await getReceipt(owner, charge.id);
    expect(before.merchant).toEqual({ name: owner.full_name, company_name: null, document: null });

    await db
      .updateTable("users")
      .set({ company_name: "Marta Design Ltda", company_cnpj: "11222333000181" })
      .where("id", "=", owner.id)
      .execute();
    for (const who of [owner, applicant]) {
      const receipt = await getReceipt(who, charge.id);
      expect(receipt.merchant).toEqual({
        name: owner.full_name,
        company_name: "Marta Design Ltda",
        document: "11222333000181",
      });
      // The freelancer's document is only the payout holder's, on a payout's receipt.
      expect(receipt.freelancer).toEqual({ name: applicant.full_name, company_name: null, document: null });
    }
  });
});
