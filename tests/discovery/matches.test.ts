import { describe, expect, it } from "vitest";
import { loader as recommendedApi } from "~/routes/api+/opportunities+/recommended";
import { loader as suggestionsApi } from "~/routes/api+/opportunities+/$uuid.suggestions";
import { createSession } from "~/services/accounts/sessions.server";
import {
  MATCH_WEIGHTS,
  matchScore,
  recommendedOpportunities,
  suggestFreelancers,
} from "~/services/discovery/matches.server";
import { getOpportunity } from "~/services/marketplace/opportunities.server";
import { db } from "../../db";
import { createApplication, createInvitation, createOpportunity, createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { outcome } from "../support/market";

// "Para você" (docs/product.md), on both engines: the score of known overlaps, the order, what is
// left out (nothing in common, applied to, not open, hidden), the API twin and its refusals.

const profile = (skills: string[], categories: string[] = [], city: string | null = null) => ({
  skills: new Set(skills),
  categories: new Set(categories),
  city,
});
const candidate = (skills: string[], category = "design", location_type = "remote", city: string | null = null) => ({
  id: 1,
  skills: JSON.stringify(skills),
  category,
  location_type,
  city,
});

describe("the match score", () => {
  it("adds 3 per skill in common (any case or accent), 2 for a category applied in, 1 for the city on site", () => {
    expect(matchScore(candidate(["Figma", "Illustrator"]), profile(["figma", "illustrator", "photoshop"]))).toBe(
      2 * MATCH_WEIGHTS.skill,
    );
    expect(matchScore(candidate(["Edição de Vídeo"]), profile(["edicao de video"]))).toBe(MATCH_WEIGHTS.skill);
    expect(matchScore(candidate(["React"], "desenvolvimento"), profile([], ["desenvolvimento"]))).toBe(
      MATCH_WEIGHTS.category,
    );
    expect(matchScore(candidate([], "design", "onsite", "São Paulo"), profile([], [], "sao paulo"))).toBe(
      MATCH_WEIGHTS.city,
    );
    // Remote work is anywhere: the city does not count.
    expect(matchScore(candidate([], "design", "remote", "São Paulo"), profile([], [], "sao paulo"))).toBe(0);
    expect(matchScore({ ...candidate([]), skills: "not json" }, profile(["figma"]))).toBe(0);
  });
});

describe("Para você", () => {
  it("ranks open opportunities by what they share, newest among equals, and leaves the rest out", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    const me = await createUser(db, {
      account_type: "freelancer",
      skills: ["Figma", "Ilustração"],
      city: "Recife",
    });
    const make = (title: string, extra: Parameters<typeof createOpportunity>[1] = {}) =>
      createOpportunity(db, { merchant_id: merchant.id, title, ...extra });
    // A category from my history: I applied to one in "marketing" before.
    const applied = await make("Já me candidatei", { category: "marketing", skills: ["Figma"] });
    await createApplication(db, { opportunity: applied, freelancer_id: me.id });
    const two = await make("Duas habilidades", { category: "design", skills: ["figma", "ILUSTRAÇÃO"] });
    const oneOld = await make("Uma habilidade, mais antiga", { category: "design", skills: ["Figma"] });
    const oneNew = await make("Uma habilidade, mais nova", { category: "design", skills: ["Figma"] });
    const category = await make("Só a categoria", { category: "marketing", skills: ["SEO"] });
    await make("Nada em comum", { category: "traducao", skills: ["Inglês"] });
    await make("Fechada", { category: "design", skills: ["Figma"], status: "closed" });
    const hidden = await make("Oculta", { category: "design", skills: ["Figma"] });
    await db
      .updateTable("opportunities")
      .set({ hidden_at: new Date().toISOString() })
      .where("id", "=", hidden.id)
      .execute();

    const list = await recommendedOpportunities(me, {});
    expect(list.data.map((o) => o.title)).toEqual([
      "Duas habilidades",
      "Uma habilidade, mais nova",
      "Uma habilidade, mais antiga",
      "Só a categoria",
    ]);
    expect(list.meta.total).toBe(4);
    expect(list.data.map((o) => o.uuid)).toEqual([two.uuid, oneNew.uuid, oneOld.uuid, category.uuid]);

    const second = await recommendedOpportunities(me, { per_page: "3", page: "2" });
    expect(second.data.map((o) => o.title)).toEqual(["Só a categoria"]);
    expect(second.meta).toMatchObject({ page: 2, per_page: 3, total: 4, total_pages: 2 });

    // Nothing in common at all: an empty list, not everything.
    const blank = await createUser(db, { account_type: "freelancer", skills: [], city: null });
    expect((await recommendedOpportunities(blank, {})).data.filter((o) => o.merchant.id === merchant.id)).toEqual([]);
  });

  it("answers the API, is for freelancers only, and refuses a page it cannot read", async () => {
    const me = await createUser(db, { account_type: "freelancer", skills: ["Figma"] });
    const { token } = await createSession(me.id);
    const ok = await call(recommendedApi, jsonRequest("/api/opportunities/recommended", undefined, { token }));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ data: expect.any(Array), meta: { page: 1 } });
    const bad = await call(recommendedApi, jsonRequest("/api/opportunities/recommended?page=0", undefined, { token }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.page).toBeTruthy();
    const merchant = await createUser(db, { account_type: "merchant" });
    expect(await outcome(recommendedOpportunities(merchant, {}))).toBe(403);
    const session = await createSession(merchant.id);
    const refused = await call(
      recommendedApi,
      jsonRequest("/api/opportunities/recommended", undefined, { token: session.token }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Seu tipo de conta não tem permissão para esta ação.");
    expect((await call(recommendedApi, jsonRequest("/api/opportunities/recommended"))).status).toBe(401);
  });
});

describe("suggested freelancers for an opportunity", () => {
  it("ranks those with its skills: most in common, then rating, then contracts; not those applied, invited or banned", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    const opp = await createOpportunity(db, { merchant_id: merchant.id, skills: ["Xilogravura", "Serigrafia"] });
    const person = (full_name: string, skills: string[], extra: Parameters<typeof createUser>[1] = {}) =>
      createUser(db, { account_type: "freelancer", full_name, skills, ...extra });
    await person("Ana Ambas", ["xilogravura", "SERIGRAFIA", "Figma"]);
    await person("Bruno Avaliado", ["Xilogravura"], { rating_count: 1, rating_sum: 5 });
    const carla = await person("Carla Contratos", ["Serigrafia"]);
    await person("Davi Nada", ["Inglês"]);
    const edu = await person("Edu Candidato", ["Xilogravura"]);
    await createApplication(db, { opportunity: opp, freelancer_id: edu.id });
    const fabi = await person("Fabi Convidada", ["Xilogravura"]);
    await createInvitation(db, { opportunity_id: opp.id, freelancer_id: fabi.id, merchant_id: merchant.id });
    await person("Gil Banido", ["Xilogravura"], { banned_at: new Date().toISOString() });
    // Carla finished a contract elsewhere.
    const elsewhere = await createOpportunity(db, {});
    const hire = await createApplication(db, { opportunity: elsewhere, freelancer_id: carla.id, status: "accepted" });
    await db.updateTable("contracts").set({ status: "completed" }).where("id", "=", hire.id).execute();

    const shown = await getOpportunity(merchant, opp.uuid);
    const people = await suggestFreelancers(shown);
    expect(people.map((p) => [p.name, p.skills_in_common])).toEqual([
      ["Ana Ambas", 2],
      ["Bruno Avaliado", 1],
      ["Carla Contratos", 1],
    ]);
    expect(people[2]!.completed_contracts).toBe(1);
    // Nothing to match on, or not open: none.
    expect(await suggestFreelancers({ ...shown, skills: [] })).toEqual([]);
    expect(await suggestFreelancers({ ...shown, status: "closed" })).toEqual([]);

    // The API: the owner only.
    const owner = await createSession(merchant.id);
    const path = `/api/opportunities/${opp.uuid}/suggestions`;
    const ok = await call(suggestionsApi, jsonRequest(path, undefined, { token: owner.token }), { uuid: opp.uuid });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((p: { name: string }) => p.name)).toEqual([
      "Ana Ambas",
      "Bruno Avaliado",
      "Carla Contratos",
    ]);
    for (const [other, status] of [
      [await createUser(db, { account_type: "merchant" }), 404],
      [edu, 403],
    ] as const) {
      const { token } = await createSession(other.id);
      const refused = await call(suggestionsApi, jsonRequest(path, undefined, { token }), { uuid: opp.uuid });
      expect(refused.status).toBe(status);
    }
    const bad = await call(
      suggestionsApi,
      jsonRequest("/api/opportunities/nao-e-um-id/suggestions", undefined, { token: owner.token }),
      { uuid: "nao-e-um-id" },
    );
    expect(bad.status).toBe(404);
  });
});
