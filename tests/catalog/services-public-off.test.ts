import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { loader as serviceLoader } from "~/routes/_public+/servicos.$slug";
import { loader as servicesLoader } from "~/routes/_public+/servicos._index";
import { loader as opportunityLoader } from "~/routes/_public+/vagas.$slug";
import { loader as opportunitiesLoader } from "~/routes/_public+/vagas._index";
import { createService, publishService, type ServiceJson } from "~/services/catalog/services.server";
import { updateSettings } from "~/services/operator/settings.server";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// With public pages off (settings: public_pages = 0), the catalogue follows the rule of the
// opportunities: visitors get 404 (/vagas and /servicos, a service's page as an opportunity's),
// and the signed-in keep what they browse in their account. For opportunities that is the app's
// own list and page (/opportunities, /vagas stays 404 for them too); the services have no other
// catalogue, so /servicos and a service's page stay for the signed-in, a merchant's "Para você"
// included, without the links to the public profiles, which are off too (docs/product.md, "Páginas
// públicas"); both engines.

const OLD = "2026-01-01T00:00:00.000Z";

let owner: UserRow;
let ownerToken: string;
let otherToken: string;
let buyer: UserRow;
let operator: UserRow;
let service: ServiceJson;
let vaga: string;

const servicePage = (token?: string) => {
  const slug = `${service.slug}-${service.id}`;
  return call(serviceLoader, jsonRequest(`/servicos/${slug}`, undefined, { token }), { slug });
};
const catalogue = (token?: string) => call(servicesLoader, jsonRequest("/servicos", undefined, { token }));
const vagas = (token?: string) => call(opportunitiesLoader, jsonRequest("/vagas", undefined, { token }));
const vagaPage = (token?: string) =>
  call(opportunityLoader, jsonRequest(`/vagas/${vaga}`, undefined, { token }), { slug: vaga });

beforeAll(async () => {
  operator = await createUser(db, { account_type: "operator" });
  ({ user: owner, token: ownerToken } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ user: buyer, token: otherToken } = await signedInUser({ account_type: "merchant", created_at: OLD }));
  // What the merchant hires shares a skill with the service: "Para você" shows it.
  await createOpportunity(db, { merchant_id: buyer.id, skills: ["Branding"], category: "design" });
  service = await publishService(owner, (await createService(owner, validService)).id);
  const o = await createOpportunity(db, { title: "Site para a padaria do bairro" });
  vaga = `site-para-a-padaria-do-bairro-${o.uuid}`;
});

describe("the catalogue with public pages off", () => {
  it("is 404 for a visitor, as /vagas is; the signed-in keep the list, a service's page and the merchant's \"Para você\"", async () => {
    // On: everyone sees everything, the service's freelancer with a link to their profile.
    for (const token of [undefined, otherToken, ownerToken]) {
      expect((await catalogue(token)).status).toBe(200);
      expect((await servicePage(token)).status).toBe(200);
      expect((await vagas(token)).status).toBe(200);
      expect((await vagaPage(token)).status).toBe(200);
    }
    expect((await servicePage(otherToken)).body.service.freelancer.path).toMatch(/^\/perfil\//);
    await updateSettings(operator, { public_pages: "0" });
    try {
      // A visitor: nothing; the opportunities' public pages are 404 for the signed-in too.
      expect((await catalogue()).status).toBe(404);
      expect((await servicePage()).status).toBe(404);
      for (const token of [undefined, otherToken, ownerToken]) {
        expect((await vagas(token)).status).toBe(404);
        expect((await vagaPage(token)).status).toBe(404);
      }
      // Signed in: the catalogue, its cards' pages (without the public profile's link), "Para você".
      for (const token of [otherToken, ownerToken]) {
        const list = await catalogue(token);
        expect(list.status).toBe(200);
        expect(list.headers.get("Cache-Control")).toBe("private, no-store");
        const card = list.body.list.data.find((item: { id: string }) => item.id === service.id);
        expect(card.path).toBe(`/servicos/${service.slug}-${service.id}`);
        const page = await servicePage(token);
        expect(page.status).toBe(200);
        expect(page.body.service.freelancer).toMatchObject({ id: owner.id, path: null });
      }
      const forYou = (await catalogue(otherToken)).body.forYou as { id: string }[];
      expect(forYou.map((item) => item.id)).toContain(service.id);
    } finally {
      await updateSettings(operator, { public_pages: "1" });
    }
  });
});
