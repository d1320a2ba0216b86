import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { loader as serviceLoader } from "~/routes/_public+/servicos.$slug";
import { loader as opportunityLoader } from "~/routes/_public+/vagas.$slug";
import { createService, publishService, type ServiceJson } from "~/services/catalog/services.server";
import { updateSettings } from "~/services/operator/settings.server";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// With public pages off (settings: public_pages = 0), a service's page follows the rule of an
// opportunity's /vagas page: 404 for everyone, the signed-in (its owner too) as well as visitors
// (docs/product.md, "Páginas públicas"); both engines.

const OLD = "2026-01-01T00:00:00.000Z";

let owner: UserRow;
let ownerToken: string;
let otherToken: string;
let operator: UserRow;
let service: ServiceJson;
let vaga: string;

const servicePage = (token?: string) => {
  const slug = `${service.slug}-${service.id}`;
  return call(serviceLoader, jsonRequest(`/servicos/${slug}`, undefined, { token }), { slug });
};
const vagaPage = (token?: string) =>
  call(opportunityLoader, jsonRequest(`/vagas/${vaga}`, undefined, { token }), { slug: vaga });

beforeAll(async () => {
  operator = await createUser(db, { account_type: "operator" });
  ({ user: owner, token: ownerToken } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ token: otherToken } = await signedInUser({ account_type: "merchant", created_at: OLD }));
  service = await publishService(owner, (await createService(owner, validService)).id);
  const o = await createOpportunity(db, { title: "Site para a padaria do bairro" });
  vaga = `site-para-a-padaria-do-bairro-${o.uuid}`;
});

describe("a service's page with public pages off", () => {
  it("is 404 for a visitor, a signed-in user and its owner, as a /vagas page is", async () => {
    // On: everyone sees both.
    for (const token of [undefined, otherToken, ownerToken]) {
      expect((await servicePage(token)).status).toBe(200);
      expect((await vagaPage(token)).status).toBe(200);
    }
    await updateSettings(operator, { public_pages: "0" });
    try {
      for (const token of [undefined, otherToken, ownerToken]) {
        expect((await vagaPage(token)).status).toBe(404);
        expect((await servicePage(token)).status).toBe(404);
      }
    } finally {
      await updateSettings(operator, { public_pages: "1" });
    }
  });
});
