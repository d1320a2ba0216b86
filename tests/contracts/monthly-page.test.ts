import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserRow } from "../../db/schema";
import { createSession } from "~/services/accounts/sessions.server";
import * as contractPage from "~/routes/contracts+/$id";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { freelancer as newFreelancer, merchant as newMerchant } from "../support/market";
import { get, postForm, toastOf } from "../operator/support";
import { escrow, fund, hiredMonthly, MONTH_INCLUDES } from "../payments/support";

// The monthly contract's page without JavaScript (docs/product.md, "Contrato mensal"): the
// proposal form's "what a month includes", the retainer box and ending through its confirmation.

const tokenOf = async (user: UserRow) => (await createSession(user.id)).token;

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2 December 2026, 15:00 in São Paulo.
  vi.setSystemTime(new Date("2026-12-02T18:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

describe("the proposal form on a fixed-budget opportunity", () => {
  it("takes what a month includes: the application is monthly; a text too short is refused on its field", async () => {
    const owner = await newMerchant();
    const applicant = await newFreelancer();
    const opp = await createOpportunity(db, { merchant_id: owner.id, budget_type: "fixed" });
    const path = `/opportunities/${opp.uuid}`;
    const token = await tokenOf(applicant);
    const form = {
      intent: "apply",
      cover_letter: "Olá! Cuido das redes sociais de pequenas empresas há cinco anos.",
      price: "1.500,00",
      delivery_days: "30",
    };
    const refused = await postForm(
      opportunityPage,
      path,
      token,
      { ...form, month_includes: "pouco" },
      { uuid: opp.uuid },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ month_includes: "Descreva o que o mês inclui em 10 a 1000 caracteres." });
    const applied = await postForm(
      opportunityPage,
      path,
      token,
      { ...form, month_includes: MONTH_INCLUDES },
      { uuid: opp.uuid },
    );
    expect(applied.status).toBe(302);
    const row = await db
      .selectFrom("applications")
      .select(["price_cents", "month_includes"])
      .where("freelancer_id", "=", applicant.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price_cents: 150_000, month_includes: MONTH_INCLUDES });
  });
});

describe("the monthly contract's page", () => {
  it("shows the months and ends the contract from the next month through its confirmation", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: 200_000 });
    await fund(owner, id);
    const path = `/contracts/${id}`;
    const params = { id };
    const merchant = await tokenOf(owner);
    const page = await get(contractPage, path, merchant, params);
    expect(page.status).toBe(200);
    expect(page.body.months).toMatchObject({
      monthly_day: 2,
      month_includes: MONTH_INCLUDES,
      amount_cents: 200_000,
      net_cents: 180_000,
      can_end: true,
      months: [{ month: "2026-12", status: "open" }],
    });
    const unconfirmed = await postForm(contractPage, path, merchant, { intent: "end_monthly" }, params);
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=end_monthly`);
    const ended = await postForm(
      contractPage,
      path,
      await tokenOf(applicant),
      { intent: "end_monthly", confirmed: "1" },
      params,
    );
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe(`${path}#retainer`);
    expect(await toastOf(ended)).toBe("Contrato encerrado a partir do próximo mês.");
    const after = await get(contractPage, path, merchant, params);
    expect(after.body.months).toMatchObject({ ends_from: "2027-01", can_end: false });
    const again = await postForm(contractPage, path, merchant, { intent: "end_monthly", confirmed: "1" }, params);
    expect(again.status).toBe(409);
  });
});
