import i18next from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import * as acceptRoute from "~/routes/api+/applications+/$id.accept";
import * as applicationRoute from "~/routes/api+/applications+/$id";
import * as deliveriesRoute from "~/routes/api+/contracts+/$id.deliveries";
import * as contractPage from "~/routes/contracts+/$id";
import * as createPage from "~/routes/opportunities+/create";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import { TermsFields } from "~/components/marketplace/offers";
import { i18nOptions } from "~/services/platform/i18n.server";
import { postForm } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// The marketplace's and the contract's forms as a browser without JavaScript posts them (the
// form's own fields, url-encoded), on both engines: every problem in one answer, on its field,
// with what was typed kept. The browser stories (tests/e2e/marketplace.spec.ts, contracts.spec.ts)
// check the same forms with JavaScript.

describe("page forms without JavaScript", () => {
  it("a new opportunity reports every error at once, and a budget past the largest price names the range", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    const fields = {
      title: "Site novo da padaria",
      description: "Site com cardápio, encomendas e botão de WhatsApp para a padaria.",
      category: "desenvolvimento",
      skills: "",
      budget_type: "fixed",
      budget_min: "5.000,00",
      budget_max: "1.000,00",
      deadline: "2020-01-10",
      location_type: "onsite",
      city: "",
      vacancies: "1",
    };
    const refused = await postForm(createPage, "/opportunities/create", m.token, fields);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({
      budget_max: "O orçamento máximo deve ser maior ou igual ao mínimo.",
      deadline: "O prazo deve ser a partir de hoje e em até dois anos.",
      city: "Informe a cidade para trabalhos presenciais ou híbridos.",
    });
    expect(Object.keys(refused.body.errors)).toHaveLength(3);
    expect(refused.body.values).toMatchObject({ title: fields.title, budget_min: "5.000,00", budget_max: "1.000,00" });
    const tooMuch = await postForm(createPage, "/opportunities/create", m.token, {
      ...fields,
      budget_max: "99999999999999",
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.budget_max).toBe(
      "O orçamento máximo deve ser um valor entre R$ 0,01 e R$ 1.000.000,00.",
    );
    expect(Object.keys(tooMuch.body.errors)).toHaveLength(3);
  });

  it("an application reports a short letter, a price that is not one and no days, at once", async () => {
    const f = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, {});
    const refused = await postForm(
      opportunityPage,
      `/opportunities/${opp.uuid}`,
      f.token,
      { intent: "apply", cover_letter: "Oi, topo!", price: "mil", delivery_days: "" },
      { uuid: opp.uuid },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      cover_letter: "A carta de apresentação deve ter entre 20 e 5000 caracteres.",
      price: "Informe um valor em reais, como 1.500,00.",
      delivery_days: "O prazo de entrega deve ser entre 1 e 365 dias.",
    });
    expect(refused.body.values).toMatchObject({ cover_letter: "Oi, topo!", price: "mil" });
  });

  it("an hourly application refused keeps its price and days, and the page draws the estimate from them", async () => {
    // The browser story (tests/e2e/marketplace.spec.ts) types the same with JavaScript, before
    // and after the scripts arrive; without them the estimate comes with the refused page.
    const f = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, {
      budget_type: "hourly",
      budget_min_cents: 4_000,
      budget_max_cents: 8_000,
    });
    const path = `/opportunities/${opp.uuid}`;
    const fields = { intent: "apply", cover_letter: "", price: "75,00", delivery_days: "10" };
    const refused = await postForm(opportunityPage, path, f.token, fields, { uuid: opp.uuid });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(["cover_letter"]);
    expect(refused.body.values).toMatchObject({ price: "75,00", delivery_days: "10" });
    const i18n = i18next.createInstance();
    await i18n.init({ ...i18nOptions, lng: "pt-BR" });
    const html = renderToString(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(TermsFields, { basis: "hourly", values: refused.body.values, errors: refused.body.errors }),
      ),
    ).replace(/\u00a0/g, " ");
    expect(html).toContain("Seu preço por hora (R$)");
    expect(html).toContain(
      '<p class="price-estimate-line" aria-live="polite">≈ R$ 6.000,00 em 10 dias de 8 h (estimativa)</p>',
    );
    // Sent with a letter, it is an application per hour.
    const sent = await postForm(
      opportunityPage,
      path,
      f.token,
      { ...fields, cover_letter: "Atendo lojas pelo WhatsApp há quatro anos, com educação." },
      { uuid: opp.uuid },
    );
    expect(sent.status).toBe(302);
    const id = sent.headers.get("Location")!.match(/^\/applications\/([0-9a-f-]{36})$/)![1];
    const offers = await db
      .selectFrom("offers")
      .select(["price_cents", "delivery_days"])
      .where("application_id", "=", id)
      .execute();
    expect(offers).toEqual([{ price_cents: 7_500, delivery_days: 10 }]);
  });

  it("an empty change request says the field is required", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    const f = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: m.user.id });
    const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id, status: "pending" });
    const id = { id: app.id };
    const withToken = (token: string, path: string, body?: unknown) =>
      jsonRequest(path, body, { token, method: body === undefined ? "GET" : "POST" });
    const offer = (await call(applicationRoute.loader, withToken(m.token, `/api/applications/${app.id}`), id)).body.data
      .offers[0];
    const accepted = await call(
      acceptRoute.action,
      withToken(m.token, `/api/applications/${app.id}/accept`, { offer_id: offer.id }),
      id,
    );
    expect(accepted.status).toBe(200);
    const delivered = await call(
      deliveriesRoute.action,
      withToken(f.token, `/api/contracts/${app.id}/deliveries`, { message: "Pronto." }),
      id,
    );
    expect(delivered.status).toBe(201);
    const refused = await postForm(
      contractPage,
      `/contracts/${app.id}`,
      m.token,
      { intent: "request_changes", message: "" },
      id,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.message).toBe("Explique as alterações que você quer: este campo é obrigatório.");
    expect(refused.body.values.intent).toBe("request_changes");
  });
});
