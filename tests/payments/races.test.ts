import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { acceptCancellation, approveContract, requestCancellation } from "~/services/contracts/contracts.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { outcome } from "../support/market";
import { deliver, escrow, fund, hired, milestonesOf, operator, verifiedPayee } from "./support";

// Two moves on one milestone's money at once: one wins, the other answers 409, and the ledger
// holds (on PostgreSQL these run at the same time on separate connections).

beforeAll(() => escrow(1_000));

describe("races on money", () => {
  it("release racing refund on one milestone: one wins, 409 for the other", async () => {
    for (let round = 0; round < 6; round++) {
      const { owner, applicant, id } = await hired();
      await fund(owner, id);
      await deliver(applicant, id);
      await requestCancellation(applicant, id, { reason: "Preciso encerrar o trabalho aqui." });
      const statuses = await Promise.all([
        outcome(approveContract(owner, id)),
        outcome(acceptCancellation(owner, id)),
        outcome(settleDispute(operator, id, "cancel")),
      ]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(2);
      const [milestone] = await milestonesOf(id);
      expect(["released", "refunded"]).toContain(milestone.status);
    }
    expect(await checkLedger()).toEqual([]);
  }, 60_000);

  it("two payout requests at once: one payout, 409 for the other", async () => {
    for (let round = 0; round < 6; round++) {
      const { owner, applicant, id } = await hired();
      await setPayoutAccount(applicant, {
        key_type: "email",
        pix_key: "Recebedora@Example.com",
        holder_name: "Pessoa Recebedora",
        holder_document: await verifiedPayee(applicant),
      });
      await fund(owner, id);
      await deliver(applicant, id);
      await approveContract(owner, id);
      const statuses = await Promise.all([outcome(requestPayout(applicant)), outcome(requestPayout(applicant))]);
      expect(statuses.sort()).toEqual([200, 409]);
      const payouts = await db.selectFrom("payouts").selectAll().where("user_id", "=", applicant.id).execute();
      expect(payouts).toHaveLength(1);
      expect(payouts[0].pix_key).toBe("recebedora@example.com");
    }
    expect(await checkLedger()).toEqual([]);
  }, 60_000);
});
