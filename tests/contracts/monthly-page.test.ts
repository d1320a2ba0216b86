import i18next from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserRow } from "../../db/schema";
import { createSession } from "~/services/accounts/sessions.server";
import * as contractPage from "~/routes/contracts+/$id";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import * as negotiatePage from "~/routes/applications+/$id_.negotiate";
import { TermsFields } from "~/components/marketplace/offers";
import { i18nOptions } from "~/services/platform/i18n.server";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
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

describe("the counter-offer form of a monthly negotiation", () => {
  it("shows what the month includes, prefilled; a blank or short text is refused on its field; a new one kept", async () => {
    const owner = await newMerchant();
    const applicant = await newFreelancer();
    const opportunity = await createOpportunity(db, { merchant_id: owner.id, budget_type: "fixed" });
    const application = await createApplication(db, {
      opportunity,
      freelancer_id: applicant.id,
      offers: [{ author: "freelancer", price_cents: 150_000, delivery_days: 30, month_includes: MONTH_INCLUDES }],
    });
    const token = await tokenOf(owner);
    const path = `/applications/${application.id}/negotiate`;
    const params = { id: application.id };
    const page = await get(negotiatePage, path, token, params);
    expect(page.body.application.month_includes).toBe(MONTH_INCLUDES);

    const form = { intent: "counter", price: "1.200,00", delivery_days: "30", message: "" };
    for (const month_includes of ["", "pouco"]) {
      const refused = await postForm(negotiatePage, path, token, { ...form, month_includes }, params);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ month_includes: "Descreva o que o mês inclui em 10 a 1000 caracteres." });
      expect(refused.body.values).toMatchObject({ price: "1.200,00", month_includes });
    }
    // The form as the page renders it: the field with the current text, or what was typed.
    const i18n = i18next.createInstance();
    await i18n.init({ ...i18nOptions, lng: "pt-BR" });
    const render = (values?: Record<string, string>) =>
      renderToString(
        createElement(
          I18nextProvider,
          { i18n },
          createElement(TermsFields, {
            counter: true,
            basis: "fixed",
            values,
            errors: values ? { month_includes: "Descreva o que o mês inclui em 10 a 1000 caracteres." } : {},
            defaultCents: 150_000,
            defaultDays: 30,
            defaultIncludes: MONTH_INCLUDES,
          }),
        ),
      );
    expect(render()).toContain(`O que o mês inclui`);
    expect(render()).toContain(`${MONTH_INCLUDES}</textarea>`);
    expect(render({ ...form, month_includes: "pouco" })).toContain(">pouco</textarea>");
    expect(render({ ...form, month_includes: "pouco" })).toContain(
      "Descreva o que o mês inclui em 10 a 1000 caracteres.",
    );

    const text = "Até 10 posts por mês e um relatório no fim do mês.";
    const countered = await postForm(negotiatePage, path, token, { ...form, month_includes: text }, params);
    expect(countered.status).toBe(302);
    expect(await toastOf(countered)).toBeTruthy();
    const offers = await db
      .selectFrom("offers")
      .select(["price_cents", "month_includes"])
      .where("application_id", "=", application.id)
      .orderBy("created_at")
      .execute();
    expect(offers.at(-1)).toEqual({ price_cents: 120_000, month_includes: text });
  });
});
