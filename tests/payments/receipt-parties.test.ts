import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { createSession } from "~/services/accounts/sessions.server";
import { approveContract } from "~/services/contracts/contracts.server";
import { getReceipt } from "~/services/payments/finance.server";
import { markPayoutPaid, requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import * as receiptPage from "~/routes/_account+/financeiro.recibos.$id";
import { get } from "../operator/support";
import { deliver, e2eId, escrow, fund, hired, operator, verifiedPayee } from "./support";

// A receipt names its parties as far as they are known: the merchant's company and CNPJ as
// declared on their profile, on the receipts of both sides of their contracts; the freelancer's
// document (their payout key's holder's) on their own payout's receipt only.

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

describe("the payout key holder's document", () => {
  it("is on the payout's receipt for its owner alone: the merchant, another freelancer and the operator are not found, and the release names no document", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const document = await verifiedPayee(applicant);
    await setPayoutAccount(applicant, {
      key_type: "email",
      pix_key: `recebe.${id.slice(0, 8)}@example.com`,
      holder_name: "Fernanda Recebedora",
      holder_document: document,
    });
    const payout = await requestPayout(applicant);
    await markPayoutPaid(operator, payout.id, { e2e_id: e2eId() });
    const receiptOf = (kind: "payout_paid" | "release") =>
      db
        .selectFrom("ledger_transactions")
        .select("id")
        .where("freelancer_id", "=", applicant.id)
        .where("kind", "=", kind)
        .executeTakeFirstOrThrow();
    const paid = await receiptOf("payout_paid");

    const mine = await getReceipt(applicant, paid.id);
    expect(mine.freelancer).toEqual({ name: applicant.full_name, company_name: null, document });
    expect(mine.payout).toMatchObject({ holder_name: "Fernanda Recebedora", holder_document: document });
    // The page as its owner reads it.
    const token = (await createSession(applicant.id)).token;
    const page = await get(receiptPage, `/financeiro/recibos/${paid.id}`, token, { id: paid.id });
    expect(page.status).toBe(200);
    expect(page.body.receipt.freelancer.document).toBe(document);

    const stranger = await createUser(db, { account_type: "freelancer" });
    const staff = await createUser(db, { account_type: "operator" });
    for (const who of [owner, stranger, staff]) {
      await expect(getReceipt(who, paid.id), who.account_type).rejects.toMatchObject({ status: 404 });
      const answer = await get(receiptPage, `/financeiro/recibos/${paid.id}`, (await createSession(who.id)).token, {
        id: paid.id,
      });
      // An operator's session is sent to the console (302); the others' answer is the not-found page.
      expect(answer.status, who.account_type).toBe(who === staff ? 302 : 404);
      expect(JSON.stringify(answer.body)).not.toContain(document);
    }

    // The release both sides read: the freelancer named, without the key holder's document.
    const release = await receiptOf("release");
    for (const who of [owner, applicant]) {
      const receipt = await getReceipt(who, release.id);
      expect(receipt.freelancer).toEqual({ name: applicant.full_name, company_name: null, document: null });
      expect(receipt.payout).toBeNull();
      expect(JSON.stringify(receipt)).not.toContain(document);
    }
  });
});
