import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import * as confirmPage from "~/routes/servicos+/$slug.contratar";
import * as contractPage from "~/routes/contracts+/$id";
import * as ordersApi from "~/routes/api+/services+/$id.orders";
import * as quoteApi from "~/routes/api+/services+/$id.quote";
import * as answersApi from "~/routes/api+/contracts+/$id.order.answers";
import * as contractApi from "~/routes/api+/contracts+/$id";
import { createService, publishService, updateService, type ServiceJson } from "~/services/catalog/services.server";
import { getContract } from "~/services/contracts/contracts.server";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { postForm } from "../operator/support";
import { statementsOf } from "../support/statements";

// Buying a ready-made service through its two doors (docs/product.md, "Contratar um serviço"):
// the confirmation page as a browser without JavaScript uses it, and the API; both engines.

const OLD = "2026-01-01T00:00:00.000Z";
let seller: UserRow;
let service: ServiceJson;
let buyer: { user: UserRow; token: string };

const pathOf = (s: Pick<ServiceJson, "id" | "slug">) => `/servicos/${s.slug}-${s.id}`;
const confirmAt = (path: string, token?: string) =>
  call(confirmPage.loader, jsonRequest(path, undefined, { token }), { slug: path.split("/")[2]! });

beforeAll(async () => {
  seller = await createUser(db, { account_type: "freelancer", display_name: "Júlia Designer", created_at: OLD });
  service = await publishService(seller, (await createService(seller, validService)).id);
  buyer = await signedInUser({ account_type: "merchant" });
});

describe("the confirmation page", () => {
  it("sends a visitor to sign in and back, a freelancer to the catalogue, a wrong slug to the right one", async () => {
    const path = `${pathOf(service)}/contratar?pacote=1&extras=0`;
    const visitor = await confirmAt(path);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/login?redirectFrom=${encodeURIComponent(path)}`);
    const freelancer = await signedInUser({ account_type: "freelancer" });
    expect((await confirmAt(path, freelancer.token)).headers.get("Location")).toBe("/servicos");
    const moved = await confirmAt(`/servicos/outro-nome-${service.id}/contratar?pacote=1`, buyer.token);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe(`${pathOf(service)}/contratar?pacote=1`);
    expect((await confirmAt(`/servicos/x-${"0".repeat(8)}/contratar?pacote=0`, buyer.token)).status).toBe(404);
  });

  it("shows the total of the package and the extras ticked, and the questions", async () => {
    const page = await confirmAt(`${pathOf(service)}/contratar?pacote=1&extras=0`, buyer.token);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      service: { id: service.id, title: service.title, freelancer: "Júlia Designer" },
      quote: { total_cents: 53_000, delivery_days: 3, package: { name: "Completo" } },
      questions: validService.questions,
    });
    const plain = await confirmAt(`${pathOf(service)}/contratar?pacote=0`, buyer.token);
    expect(plain.body.quote.total_cents).toBe(15_000);
    // A package the service does not have is the page's refusal.
    expect((await confirmAt(`${pathOf(service)}/contratar?pacote=7`, buyer.token)).status).toBe(422);
  });

  it("posts the order and leads to the contract; a missing answer comes back on its field, with what was typed", async () => {
    const path = `${pathOf(service)}/contratar`;
    const fields = {
      package_index: "1",
      extras: "0",
      expected_total_cents: "53000",
      answer_0: "",
      answer_1: "Moderno",
    };
    const refused = await postForm(confirmPage, path, buyer.token, fields, { slug: path.split("/")[2] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ answer_0: "Responda a esta pergunta." });
    expect(refused.body.values).toMatchObject({ answer_1: "Moderno" });
    const placed = await postForm(
      confirmPage,
      path,
      buyer.token,
      { ...fields, answer_0: "Doce Lar" },
      {
        slug: path.split("/")[2],
      },
    );
    expect(placed.status).toBe(302);
    const contractId = placed.headers.get("Location")!.replace("/contracts/", "");
    const contract = await getContract(buyer.user, contractId);
    expect(contract.order).toMatchObject({
      total_cents: 53_000,
      answers: [{ answer: "Doce Lar" }, { answer: "Moderno" }],
    });
  });

  it("answers in a fixed number of statements, whatever the service", async () => {
    const other = await publishService(
      seller,
      (await createService(seller, { ...validService, title: "Cartão de visita para a confeitaria", questions: [] }))
        .id,
    );
    const counts = [
      await statementsOf(() => confirmAt(`${pathOf(service)}/contratar?pacote=1&extras=0`, buyer.token)),
      await statementsOf(() => confirmAt(`${pathOf(other)}/contratar?pacote=0`, buyer.token)),
    ];
    // The session (user and terms), then the service.
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeLessThanOrEqual(3);
  });
});

describe("the contract page of an order", () => {
  it("takes the same statements as any contract's (the order is read with the timeline) and carries the order", async () => {
    const ordered = await call(
      ordersApi.action,
      jsonRequest(
        `/api/services/${service.id}/orders`,
        { package_index: 0, expected_total_cents: 15_000, answers: ["Doce Lar"] },
        { token: buyer.token },
      ),
      { id: service.id },
    );
    expect(ordered.status).toBe(201);
    const id = ordered.body.data.id;
    const page = await call(contractPage.loader, jsonRequest(`/contracts/${id}`, undefined, { token: buyer.token }), {
      id,
    });
    expect(page.status).toBe(200);
    expect(page.body.contract.order).toMatchObject({ revisions_allowed: 1, revisions_used: 0 });
    const withOrder = await statementsOf(() =>
      call(contractPage.loader, jsonRequest(`/contracts/${id}`, undefined, { token: buyer.token }), { id }),
    );
    // A second order's page: the same count.
    const again = await call(
      ordersApi.action,
      jsonRequest(
        `/api/services/${service.id}/orders`,
        { package_index: 1, extras: [0], expected_total_cents: 53_000, answers: ["Outra"] },
        { token: buyer.token },
      ),
      { id: service.id },
    );
    const second = again.body.data.id;
    expect(
      await statementsOf(() =>
        call(contractPage.loader, jsonRequest(`/contracts/${second}`, undefined, { token: buyer.token }), {
          id: second,
        }),
      ),
    ).toBe(withOrder);
  });

  it("takes corrected answers from the buyer's form, on their fields when refused", async () => {
    const ordered = await call(
      ordersApi.action,
      jsonRequest(
        `/api/services/${service.id}/orders`,
        { package_index: 0, expected_total_cents: 15_000, answers: ["Doce Lar"] },
        { token: buyer.token },
      ),
      { id: service.id },
    );
    const id = ordered.body.data.id;
    const refused = await postForm(
      contractPage,
      `/contracts/${id}`,
      buyer.token,
      {
        intent: "order_answers",
        answer_0: "",
        answer_1: "Barroco",
      },
      { id },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({
      answer_0: "Responda a esta pergunta.",
      answer_1: "Escolha uma das opções.",
    });
    const saved = await postForm(
      contractPage,
      `/contracts/${id}`,
      buyer.token,
      {
        intent: "order_answers",
        answer_0: "Doce Lar Confeitaria",
        answer_1: "Clássico",
      },
      { id },
    );
    expect(saved.status).toBe(302);
    expect((await getContract(buyer.user, id)).order!.answers![0]!.answer).toBe("Doce Lar Confeitaria");
  });
});

describe("the API", () => {
  it("quotes, orders (201), refuses a changed price with the new quote (409), answers and shows the order", async () => {
    const owner = await signedInUser({ account_type: "freelancer", created_at: OLD });
    const s = await publishService(owner.user, (await createService(owner.user, validService)).id);
    const quote = await call(
      quoteApi.loader,
      jsonRequest(`/api/services/${s.id}/quote?package=1&extras=0`, undefined, { token: buyer.token }),
      {
        id: s.id,
      },
    );
    expect(quote.status).toBe(200);
    expect(quote.body.data.quote.total_cents).toBe(53_000);
    expect(
      (
        await call(
          quoteApi.loader,
          jsonRequest(`/api/services/${s.id}/quote?package=x`, undefined, { token: buyer.token }),
          { id: s.id },
        )
      ).status,
    ).toBe(422);

    await updateService(owner.user, s.id, {
      packages: validService.packages.map((p) => ({ ...p, price_cents: p.price_cents + 500 })),
    });
    const order = (body: unknown, token = buyer.token) =>
      call(ordersApi.action, jsonRequest(`/api/services/${s.id}/orders`, body, { token }), { id: s.id });
    const stale = await order({ package_index: 1, extras: [0], expected_total_cents: 53_000, answers: ["Doce"] });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      message: "O preço deste serviço mudou enquanto você confirmava. Confira o novo total e confirme de novo.",
      code: "service_price_changed",
      quote: { total_cents: 53_500 },
    });
    expect((await order({ package_index: 1, expected_total_cents: 45_500 }, owner.token)).status).toBe(403);
    const refused = await order({ package_index: 1, expected_total_cents: 45_500 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ "answers.0": "Responda a esta pergunta." });
    const placed = await order({ package_index: 1, expected_total_cents: 45_500, answers: ["Doce"] });
    expect(placed.status).toBe(201);
    expect(placed.body.message).toBe("Pedido feito. O contrato está aberto.");
    const id = placed.body.data.id;

    const answered = await call(
      answersApi.action,
      jsonRequest(`/api/contracts/${id}/order/answers`, { answers: ["Doce Lar", "Clássico"] }, { token: buyer.token }),
      { id },
    );
    expect(answered.status).toBe(200);
    expect(answered.body.data.order).toMatchObject({ answers: [{ answer: "Doce Lar" }, { answer: "Clássico" }] });
    const notYours = await call(
      answersApi.action,
      jsonRequest(`/api/contracts/${id}/order/answers`, { answers: ["x"] }, { token: owner.token }),
      { id },
    );
    expect(notYours.status).toBe(404);
    const shown = await call(
      contractApi.loader,
      jsonRequest(`/api/contracts/${id}`, undefined, { token: owner.token }),
      { id },
    );
    expect(shown.body.data.order).toMatchObject({ total_cents: 45_500, revisions_allowed: 3, revisions_used: 0 });
  });
});
