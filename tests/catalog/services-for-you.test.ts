import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { loader as servicesLoader } from "~/routes/_public+/servicos._index";
import { loader as recommendedApi } from "~/routes/api+/services+/recommended";
import {
  createService,
  moderateService,
  pauseService,
  publishService,
  type ServiceJson,
} from "~/services/catalog/services.server";
import { recommendedServices } from "~/services/discovery/matches.server";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { outcome } from "../support/market";
import { statementsOf } from "../support/statements";

// "Para você" for a merchant (docs/product.md, "Serviços prontos"): published services ranked by
// the skills and categories of the merchant's opportunities, above /servicos when no filter is
// set and at GET /api/services/recommended; a fixed number of statements.

const OLD = "2026-01-01T00:00:00.000Z";
const s: Record<string, ServiceJson> = {};
let buyer: { user: UserRow; token: string };
let seller: UserRow;

async function publish(input: Record<string, unknown>, owner = seller) {
  return publishService(owner, (await createService(owner, { ...validService, ...input })).id);
}

beforeAll(async () => {
  seller = await createUser(db, { account_type: "freelancer", created_at: OLD });
  buyer = await signedInUser({ account_type: "merchant" });
  // What the merchant hires: logos (Illustrator, design) and a site (React, desenvolvimento).
  await createOpportunity(db, { merchant_id: buyer.user.id, skills: ["illustrator"], category: "design" });
  await createOpportunity(db, { merchant_id: buyer.user.id, skills: ["React"], category: "desenvolvimento" });
  // A skill and the category in common (3 + 2), a skill only (3), the category only (2), nothing.
  s.logo = await publish({ title: "Logotipo para sua confeitaria", skills: ["Illustrator"], category: "design" });
  s.react = await publish({ title: "Componentes em React para o seu site", skills: ["React"], category: "redacao" });
  s.banner = await publish({ title: "Banner para redes sociais", skills: ["Canva"], category: "design" });
  s.text = await publish({ title: "Textos para o seu blog de culinária", skills: ["SEO"], category: "redacao" });
  // Not public: never suggested.
  s.paused = await publish({ title: "Logotipo pausado para ninguém", skills: ["Illustrator"] });
  await pauseService(seller, s.paused.id);
  s.hidden = await publish({ title: "Logotipo oculto pela moderação", skills: ["Illustrator"] });
  const operator = await createUser(db, { account_type: "operator" });
  await moderateService(operator, s.hidden.id, { action: "hide", reason: "Imagens de outra pessoa." });
});

const titles = (list: { title: string }[]) => list.map((x) => x.title);
const catalogue = (path: string, token?: string) => call(servicesLoader, jsonRequest(path, undefined, { token }));

describe("services for a merchant", () => {
  it("ranks the public services by what they share with the merchant's opportunities", async () => {
    const { data, meta } = await recommendedServices(buyer.user, {});
    expect(titles(data)).toEqual([
      "Logotipo para sua confeitaria",
      "Componentes em React para o seu site",
      "Banner para redes sociais",
    ]);
    expect(meta.total).toBe(3);
    expect(data[0]).toMatchObject({ id: s.logo!.id, freelancer: { id: seller.id } });
    const second = await recommendedServices(buyer.user, { page: 2, per_page: 2 });
    expect(titles(second.data)).toEqual(["Banner para redes sociais"]);
    // A merchant who never posted an opportunity gets none; a freelancer may not ask.
    const newcomer = await createUser(db, { account_type: "merchant" });
    expect((await recommendedServices(newcomer, {})).data).toEqual([]);
    expect(await outcome(recommendedServices(seller, {}))).toBe(403);
  });

  it("GET /api/services/recommended: the merchant's list, 403 for a freelancer, 401 for a visitor, 422 for a bad page", async () => {
    const ok = await call(recommendedApi, jsonRequest("/api/services/recommended?per_page=1", undefined, buyer));
    expect(ok.status).toBe(200);
    expect(titles(ok.body.data)).toEqual(["Logotipo para sua confeitaria"]);
    expect(ok.body.meta).toMatchObject({ page: 1, per_page: 1, total: 3 });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    expect((await call(recommendedApi, jsonRequest("/api/services/recommended", undefined, freelancer))).status).toBe(
      403,
    );
    expect((await call(recommendedApi, jsonRequest("/api/services/recommended"))).status).toBe(401);
    const bad = await call(recommendedApi, jsonRequest("/api/services/recommended?page=0", undefined, buyer));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.page).toBeTruthy();
  });

  it("shows above /servicos for a signed-in merchant without a filter, for nobody else", async () => {
    const mine = await catalogue("/servicos", buyer.token);
    expect(titles(mine.body.forYou)).toEqual([
      "Logotipo para sua confeitaria",
      "Componentes em React para o seu site",
      "Banner para redes sociais",
    ]);
    expect(mine.body.forYou[0].path).toBe(`/servicos/${s.logo!.slug}-${s.logo!.id}`);
    expect((await catalogue("/servicos?q=logotipo", buyer.token)).body.forYou).toBeNull();
    expect((await catalogue("/servicos?page=2", buyer.token)).body.forYou).toBeNull();
    expect((await catalogue("/servicos")).body.forYou).toBeNull();
    const freelancer = await signedInUser({ account_type: "freelancer" });
    expect((await catalogue("/servicos", freelancer.token)).body.forYou).toBeNull();
  });

  it("takes a fixed number of statements, whatever the data", async () => {
    const count = async () => [
      await statementsOf(() => catalogue("/servicos", buyer.token)),
      await statementsOf(() => recommendedServices(buyer.user, {})),
    ];
    const before = await count();
    // The catalogue's 2 (signed in, the public pages' switch is not read) and the session, and
    // the three of "Para você".
    expect(before).toEqual([6, 3]);
    for (let i = 0; i < 3; i++) {
      await publish({ title: `Mais um logotipo vetorial ${i}`, skills: ["Illustrator"], category: "design" });
      await createOpportunity(db, { merchant_id: buyer.user.id, skills: [`Habilidade ${i}`], category: "design" });
    }
    expect(await count()).toEqual(before);
  });
});
