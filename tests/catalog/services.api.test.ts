import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createVerifiedIdentity } from "../../db/factories";
import * as oneApi from "~/routes/api+/services+/$id";
import * as archiveApi from "~/routes/api+/services+/$id.archive";
import * as pauseApi from "~/routes/api+/services+/$id.pause";
import * as publishApi from "~/routes/api+/services+/$id.publish";
import * as listApi from "~/routes/api+/services+/_index";
import * as mineApi from "~/routes/api+/_account+/me.services";
import * as profileApi from "~/routes/api+/_profiles+/freelancers.$id";
import * as moderationApi from "~/routes/api+/admin+/services.$id.moderation";
import { validService } from "../support/fixtures";
import { signedInOperator } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// The services' API (docs/product.md §7): status codes, per-field 422 in Portuguese, and the
// public list's search, filters and sorts on both engines.

const OLD = "2026-01-01T00:00:00.000Z";
const seller = () => signedInUser({ account_type: "freelancer", created_at: OLD });

const create = (token: string, body: unknown) => call(listApi.action, jsonRequest("/api/services", body, { token }));
const get = (id: string, token?: string) =>
  call(oneApi.loader, jsonRequest(`/api/services/${id}`, undefined, { token }), { id });
const move = (route: { action: typeof publishApi.action }, id: string, token: string) =>
  call(route.action, jsonRequest(`/api/services/${id}/x`, {}, { token }), { id });
const list = (query = "") => call(listApi.loader, jsonRequest(`/api/services${query}`));
const ids = async (query = "") => {
  const answer = await list(query);
  expect(answer.status).toBe(200);
  return answer.body.data.map((s: { title: string }) => s.title);
};

/** A published service of a new freelancer (or of `token`'s). */
async function live(input: Record<string, unknown> = {}, token?: string) {
  const owner = token ?? (await seller()).token;
  const created = await create(owner, { ...validService, ...input });
  expect(created.status).toBe(201);
  const published = await move(publishApi, created.body.data.id, owner);
  expect(published.status).toBe(200);
  return published.body.data;
}

describe("the services' API", () => {
  it("creates (201), reads, changes, publishes, pauses, archives and deletes, with its messages", async () => {
    const f = await seller();
    const created = await create(f.token, validService);
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Rascunho do serviço salvo.");
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ status: "draft", packages: validService.packages });

    // A draft is its owner's alone: 404 for a visitor and for anyone else.
    expect((await get(id)).status).toBe(404);
    expect((await get(id, (await seller()).token)).status).toBe(404);
    expect((await get(id, f.token)).body.data.status).toBe("draft");

    const patched = await call(
      oneApi.action,
      jsonRequest(`/api/services/${id}`, { title: "Logotipo e cartão de visita" }, { method: "PATCH", token: f.token }),
      { id },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      message: "Serviço atualizado.",
      data: { slug: "logotipo-e-cartao-de-visita" },
    });

    expect((await move(publishApi, id, f.token)).body.data.status).toBe("published");
    expect((await get(id)).body.data).toMatchObject({ id, status: "published", allowed_actions: [] });
    expect((await get(id)).body.data.moderation).toBeUndefined();
    const again = await move(publishApi, id, f.token);
    expect(again).toMatchObject({
      status: 409,
      body: { message: "Só um rascunho ou um serviço pausado pode ser publicado." },
    });
    expect((await move(pauseApi, id, f.token)).body).toMatchObject({
      message: "Serviço pausado.",
      data: { status: "paused" },
    });
    const deleted = await call(
      oneApi.action,
      jsonRequest(`/api/services/${id}`, undefined, { method: "DELETE", token: f.token }),
      { id },
    );
    expect(deleted.status).toBe(409);
    expect((await move(archiveApi, id, f.token)).body.data.status).toBe("archived");

    const other = (await create(f.token, validService)).body.data.id;
    const gone = await call(
      oneApi.action,
      jsonRequest(`/api/services/${other}`, undefined, { method: "DELETE", token: f.token }),
      {
        id: other,
      },
    );
    expect(gone).toMatchObject({ status: 200, body: { message: "Rascunho excluído." } });

    const mine = await call(mineApi.loader, jsonRequest("/api/me/services", undefined, { token: f.token }));
    expect(mine.body.data.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([[id, "archived"]]);
    expect(mine.body.meta).toMatchObject({ page: 1, total: 1 });
  });

  it("answers 422 naming every refused field in Portuguese, nested ones by their path", async () => {
    const f = await seller();
    const refused = await create(f.token, {
      ...validService,
      title: "Curto",
      packages: [{ ...validService.packages[0], price_cents: 500, delivery_days: 120 }],
      extras: [{ title: "Urgente", price_cents: 100, extra_days: 0 }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      title: "O título deve ter entre 10 e 120 caracteres.",
      "packages.0.price_cents": "O preço do pacote deve ficar entre R$ 10,00 e R$ 50.000,00.",
      "packages.0.delivery_days": "O prazo de entrega deve ser de 1 a 90 dias.",
      "extras.0.price_cents": "O preço do extra deve ficar entre R$ 5,00 e R$ 10.000,00.",
    });
    expect((await create(f.token, { ...validService, packages: [] })).body.errors).toEqual({
      packages: "Informe de 1 a 3 pacotes; o primeiro é obrigatório.",
    });
  });

  it("refuses a merchant (403), a visitor (401), and a bad id (404)", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    expect((await create(m.token, validService)).status).toBe(403);
    expect((await call(listApi.action, jsonRequest("/api/services", validService))).status).toBe(401);
    expect((await call(mineApi.loader, jsonRequest("/api/me/services", undefined, { token: m.token }))).status).toBe(
      403,
    );
    expect((await get("not-an-id")).status).toBe(404);
    expect((await get("00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("the 21st publish is a 409 that says the limit", async () => {
    const f = await seller();
    for (let i = 0; i < 20; i++) await live({ title: `Serviço publicado número ${i + 1}` }, f.token);
    const extra = (await create(f.token, validService)).body.data.id;
    expect(await move(publishApi, extra, f.token)).toMatchObject({
      status: 409,
      body: { message: "Você já tem 20 serviços publicados. Pause ou arquive um antes de publicar outro." },
    });
  });
});

describe("the public list", () => {
  it("finds by word prefix and without accents, on both engines, only what is published", async () => {
    await live({ title: "Edição de vídeos para YouTube", category: "video", skills: ["Premiere"] });
    await live({ title: "Tradução de contratos jurídicos", category: "traducao", skills: [] });
    const f = await seller();
    await create(f.token, { ...validService, title: "Edição de podcast em rascunho" });

    expect(await ids("?q=edic")).toEqual(["Edição de vídeos para YouTube"]);
    expect(await ids("?q=VIDEO")).toEqual(["Edição de vídeos para YouTube"]);
    expect(await ids("?q=tradução%20jurid")).toEqual(["Tradução de contratos jurídicos"]);
    expect(await ids("?q=premi")).toEqual(["Edição de vídeos para YouTube"]);
    expect(await ids("?q=inexistente")).toEqual([]);
    // Only punctuation: nothing to search, the whole list.
    expect((await ids("?q=%2A%26%21")).length).toBeGreaterThanOrEqual(2);
  });

  it("filters by category, price, delivery, rating and verified identity, and sorts", async () => {
    const pkg = validService.packages[0]!;
    const cheap = await live({
      title: "Serviço barato e rápido",
      category: "redacao",
      packages: [{ ...pkg, price_cents: 2_000, delivery_days: 2 }],
    });
    const dear = await live({
      title: "Serviço caro e demorado",
      category: "redacao",
      packages: [{ ...pkg, price_cents: 900_000, delivery_days: 60 }],
    });
    const rated = await live({
      title: "Serviço bem avaliado",
      category: "redacao",
      packages: [{ ...pkg, price_cents: 50_000, delivery_days: 10 }],
    });
    await db.updateTable("services").set({ rating_sum: 9, rating_count: 2 }).where("id", "=", rated.id).execute();
    await createVerifiedIdentity(db, dear.freelancer.id);

    const cat = "?category=redacao";
    expect(await ids(`${cat}&sort=price`)).toEqual([cheap.title, rated.title, dear.title]);
    expect(await ids(`${cat}&sort=newest`)).toEqual([rated.title, dear.title, cheap.title]);
    expect((await ids(`${cat}&sort=rating`))[0]).toBe(rated.title);
    expect(await ids(`${cat}&min_price_cents=10000&max_price_cents=100000`)).toEqual([rated.title]);
    expect(await ids(`${cat}&max_days=10&sort=price`)).toEqual([cheap.title, rated.title]);
    expect(await ids(`${cat}&min_rating=4`)).toEqual([rated.title]);
    expect(await ids(`${cat}&min_rating=5`)).toEqual([]);
    expect(await ids(`${cat}&verified=1`)).toEqual([dear.title]);
    expect(await ids(`${cat}&q=servi&sort=relevance`)).toHaveLength(3);

    const page = await list(`${cat}&per_page=2&page=2&sort=price`);
    expect(page.body.data.map((s: { title: string }) => s.title)).toEqual([dear.title]);
    expect(page.body.meta).toMatchObject({ total: 3, page: 2, per_page: 2 });

    const bad = await list("?sort=cheapest&min_rating=9&max_days=0&category=x");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      category: "Escolha uma categoria da lista.",
      max_days: "O prazo máximo deve ser de 1 a 90 dias.",
      min_rating: "A nota mínima deve ser de 1 a 5.",
      sort: "Ordene por relevância, preço, nota ou mais recentes.",
    });
  });
});

describe("the operator's moves on a service", () => {
  it("approves a pending one, hides and shows one again, each in the audit log; 409 when the state moved on", async () => {
    const operator = await signedInOperator();
    const moderate = (id: string, body: unknown, token = operator.token) =>
      call(moderationApi.action, jsonRequest(`/api/admin/services/${id}/moderation`, body, { token }), { id });

    await db.insertInto("settings").values({ key: "premoderation_days", value: "3", updated_at: OLD }).execute();
    const young = await signedInUser({ account_type: "freelancer" });
    const pending = await live({}, young.token);
    await db.deleteFrom("settings").where("key", "=", "premoderation_days").execute();
    expect(pending.status).toBe("pending");
    expect((await get(pending.id)).status).toBe(404);

    // Nobody but an operator reaches it.
    expect((await moderate(pending.id, { action: "approve" }, young.token)).status).toBe(404);
    expect((await moderate(pending.id, { action: "hide" })).body.errors).toEqual({
      reason: "Escreva o motivo (de 5 a 2000 caracteres).",
    });
    expect((await moderate(pending.id, { action: "vanish" })).status).toBe(422);
    expect(await moderate(pending.id, { action: "approve" })).toMatchObject({
      status: 200,
      body: { message: "Pronto: o serviço foi atualizado." },
    });
    expect((await moderate(pending.id, { action: "approve" })).status).toBe(409);
    expect((await get(pending.id)).body.data.status).toBe("published");

    expect((await moderate(pending.id, { action: "hide", reason: "Promete o que não entrega." })).status).toBe(200);
    expect((await moderate(pending.id, { action: "hide", reason: "De novo, por engano." })).status).toBe(409);
    expect((await get(pending.id)).status).toBe(404);
    expect((await get(pending.id, young.token)).body.data.moderation).toEqual({
      hidden: true,
      hidden_reason: "Promete o que não entrega.",
    });
    expect((await moderate(pending.id, { action: "restore", reason: "Corrigido pelo freelancer." })).status).toBe(200);
    expect((await moderate(pending.id, { action: "restore", reason: "Corrigido pelo freelancer." })).status).toBe(409);
    expect((await get(pending.id)).status).toBe(200);
    expect((await moderate("00000000-0000-4000-8000-000000000000", { action: "approve" })).status).toBe(404);

    const log = await db
      .selectFrom("audit_log")
      .select(["action", "target_type", "target_id", "reason", "actor_id"])
      .where("target_type", "=", "service")
      .orderBy("created_at")
      .execute();
    expect(log).toEqual([
      {
        action: "service.approve",
        target_type: "service",
        target_id: pending.id,
        reason: null,
        actor_id: operator.user.id,
      },
      {
        action: "content.hide",
        target_type: "service",
        target_id: pending.id,
        reason: "Promete o que não entrega.",
        actor_id: operator.user.id,
      },
      {
        action: "content.restore",
        target_type: "service",
        target_id: pending.id,
        reason: "Corrigido pelo freelancer.",
        actor_id: operator.user.id,
      },
    ]);
  });
});

describe("a freelancer's profile", () => {
  it("lists their published services, not their drafts, paused or hidden ones", async () => {
    const f = await seller();
    const shown = await live({ title: "Serviço que aparece no perfil" }, f.token);
    const paused = await live({ title: "Serviço pausado pelo dono" }, f.token);
    await move(pauseApi, paused.id, f.token);
    await create(f.token, { ...validService, title: "Rascunho que não aparece" });
    const reader = await signedInUser({ account_type: "merchant" });
    const profile = await call(
      profileApi.loader,
      jsonRequest(`/api/freelancers/${f.user.id}`, undefined, { token: reader.token }),
      { id: f.user.id },
    );
    expect(profile.status).toBe(200);
    expect(profile.body.data.services.map((s: { id: string }) => s.id)).toEqual([shown.id]);
    expect(profile.body.data.services[0].moderation).toBeUndefined();
  });
});

describe("public pages off", () => {
  it("visitors get 404 from the catalogue and a service; signed-in people still read them", async () => {
    const shown = await live({ title: "Serviço visto só por quem entrou" });
    await db.insertInto("settings").values({ key: "public_pages", value: "0", updated_at: OLD }).execute();
    try {
      expect((await list()).status).toBe(404);
      expect((await get(shown.id)).status).toBe(404);
      const reader = await signedInUser({ account_type: "merchant" });
      expect((await get(shown.id, reader.token)).status).toBe(200);
      const signedIn = await call(listApi.loader, jsonRequest("/api/services", undefined, { token: reader.token }));
      expect(signedIn.body.data.map((s: { id: string }) => s.id)).toContain(shown.id);
    } finally {
      await db.deleteFrom("settings").where("key", "=", "public_pages").execute();
    }
  });
});
