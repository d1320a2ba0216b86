import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { loader as homeLoader } from "~/routes/_index";
import { loader as opportunitiesLoader } from "~/routes/_public+/vagas._index";
import { loader as profilesLoader } from "~/routes/_public+/perfis";
import { loader as sitemapFileLoader } from "~/routes/_public+/sitemap.$file";
import {
  listPublicOpportunities,
  listPublicProfiles,
  opportunityPath,
  pagesSitemapXml,
  profilePath,
  robotsTxt,
  sitemapIndex,
  sitemapXml,
} from "~/services/discovery/public.server";
import { updateSettings } from "~/services/operator/settings.server";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { statementsOf } from "../support/statements";
import { config } from "~/config.server";

// Browsing before signing up (docs/product.md, "Páginas públicas"): the open opportunities at
// /vagas and the freelancers at /perfis, with the public pages' rules (nothing private, hidden
// things left out, cacheable for visitors, in the sitemap), and the visitors' home at /.

let merchant: UserRow;
let operator: UserRow;
let shown: UserRow;
let keptAway: UserRow;
let hidden: UserRow;
let suspended: UserRow;
const opportunities: Record<string, { uuid: string; title: string }> = {};

const MAX = { per_page: "100", sort: "newest" };
const uuids = (list: { data: { uuid: string }[] }) => list.data.map((o) => o.uuid);
const ids = (list: { data: { id: string }[] }) => list.data.map((p) => p.id);

beforeAll(async () => {
  operator = await createUser(db, { account_type: "operator" });
  merchant = await createUser(db, {
    account_type: "merchant",
    full_name: "Marta Contratante Privada",
    display_name: "Marta",
    email: "marta.privada@example.com",
  });
  for (const [key, extra] of Object.entries({
    open: {},
    closed: { status: "closed" as const },
    filled: { status: "filled" as const },
    hidden: { hidden_at: new Date().toISOString() },
    held: { held_at: new Date().toISOString() },
    design: { category: "design" },
  })) {
    const o = await createOpportunity(db, {
      merchant_id: merchant.id,
      title: `Vaga ${key} para navegar`,
      location_type: "hybrid",
      city: "Curitiba",
      ...extra,
    });
    opportunities[key] = o;
  }
  shown = await createUser(db, {
    account_type: "freelancer",
    full_name: "Sofia Nome Completo Secreto",
    display_name: "Sofia Dev",
    email: "sofia.privada@example.com",
    skills: ["Remix"],
    city: "Recife",
  });
  keptAway = await createUser(db, { account_type: "freelancer", full_name: "Otávio Discreto", public_profile: 0 });
  hidden = await createUser(db, {
    account_type: "freelancer",
    full_name: "Helena Oculta",
    profile_hidden_at: new Date().toISOString(),
  });
  suspended = await createUser(db, {
    account_type: "freelancer",
    full_name: "Sérgio Suspenso",
    suspended_until: new Date(Date.now() + 86_400_000).toISOString(),
  });
});

afterEach(async () => {
  await updateSettings(operator, { public_pages: true });
});

describe("the open opportunities for visitors", () => {
  it("lists the open ones only, with their public fields and address; never closed, filled, hidden or held", async () => {
    const list = await listPublicOpportunities(MAX);
    const seen = uuids(list);
    expect(seen).toContain(opportunities.open!.uuid);
    for (const key of ["closed", "filled", "hidden", "held"]) expect(seen).not.toContain(opportunities[key]!.uuid);
    // A status asked for in the address changes nothing.
    expect(uuids(await listPublicOpportunities({ ...MAX, status: "closed", mine: "1" }))).toEqual(seen);
    const item = list.data.find((o) => o.uuid === opportunities.open!.uuid)!;
    expect(item).toMatchObject({
      path: opportunityPath(opportunities.open!),
      city: "Curitiba",
      merchant: { name: "Marta" },
    });
    const text = JSON.stringify(list);
    for (const secret of [merchant.id, merchant.email, "Contratante Privada"]) expect(text).not.toContain(secret);
    expect(Object.keys(item)).not.toContain("applications_count");
    expect(Object.keys(item)).not.toContain("allowed_actions");
  });

  it("filters like the signed-in list", async () => {
    const design = await listPublicOpportunities({ ...MAX, category: "design" });
    expect(uuids(design)).toContain(opportunities.design!.uuid);
    expect(uuids(design)).not.toContain(opportunities.open!.uuid);
  });

  it("the page: cacheable for a visitor, private signed in; a bad filter is told, not a 5xx", async () => {
    const visitor = await call(opportunitiesLoader, jsonRequest("/vagas?budget_min=abc&category=nada"));
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(visitor.headers.get("Set-Cookie")).toBeNull();
    expect(visitor.body.list.errors.budget_min).toBe("Use um valor como 1.500,00.");
    expect(visitor.body.list.errors.category).toBeTruthy();
    expect(visitor.body.viewer).toBeNull();
    expect(visitor.body.seo.canonical).toBe(`${config.APP_URL}/vagas`);
    expect(visitor.body.noindex).toBe(true);
    const page2 = await call(opportunitiesLoader, jsonRequest("/vagas?page=2"));
    expect(page2.body.seo.canonical).toBe(`${config.APP_URL}/vagas?page=2`);
    expect(page2.body.noindex).toBe(false);
    const { token } = await signedInUser({ account_type: "freelancer" });
    const signedIn = await call(opportunitiesLoader, jsonRequest("/vagas", undefined, { token }));
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    expect(signedIn.body.viewer).toBe("freelancer");
  });
});

describe("the freelancers for visitors", () => {
  it("lists the shown profiles only, with their public fields and address", async () => {
    const list = await listPublicProfiles(MAX);
    expect(ids(list)).toContain(shown.id);
    for (const away of [keptAway, hidden, suspended, merchant]) expect(ids(list)).not.toContain(away.id);
    const item = list.data.find((p) => p.id === shown.id)!;
    expect(item).toMatchObject({
      name: "Sofia Dev",
      city: "Recife",
      path: profilePath({ id: shown.id, name: "Sofia Dev" }),
    });
    const text = JSON.stringify(list);
    for (const secret of [shown.email, "Nome Completo Secreto"]) expect(text).not.toContain(secret);
    // The signed-in directory still lists the profile its owner keeps from visitors.
    expect(ids(await listPublicProfiles({ ...MAX, q: "Otávio" }))).toEqual([]);
  });

  it("the page: the directory's filters; cacheable for a visitor", async () => {
    const res = await call(profilesLoader, jsonRequest("/perfis?skill=remix&city=Recife"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([shown.id]);
    expect(res.body.ld).toMatchObject({ "@type": "ItemList" });
    expect(res.body.ld.itemListElement[0].url).toBe(
      `${config.APP_URL}${profilePath({ id: shown.id, name: "Sofia Dev" })}`,
    );
    const bad = await call(profilesLoader, jsonRequest("/perfis?min_rating=9&sort=x"));
    expect(bad.status).toBe(200);
  });
});

describe("the visitors' home", () => {
  it("a visitor gets the home with the newest open opportunities; signed in, the account's list as before", async () => {
    const visitor = await call(homeLoader, jsonRequest("/"));
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get("Cache-Control")).toBe("public, max-age=60");
    expect(visitor.body).toMatchObject({ home: true, browse: true });
    expect(visitor.body.latest.length).toBeGreaterThan(0);
    expect(visitor.body.latest.length).toBeLessThanOrEqual(6);
    const { token } = await signedInUser({ account_type: "merchant" });
    const signedIn = await call(homeLoader, jsonRequest("/", undefined, { token }));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.role).toBe("merchant");
    expect(signedIn.body.home).toBeUndefined();
  });
});

describe("the operator's switch", () => {
  it("off: the lists are not found and the home has no way to them", async () => {
    await updateSettings(operator, { public_pages: "0" });
    await expect(listPublicOpportunities({})).rejects.toMatchObject({ status: 404 });
    await expect(listPublicProfiles({})).rejects.toMatchObject({ status: 404 });
    expect((await call(opportunitiesLoader, jsonRequest("/vagas"))).status).toBe(404);
    expect((await call(profilesLoader, jsonRequest("/perfis"))).status).toBe(404);
    expect((await call(homeLoader, jsonRequest("/"))).body).toMatchObject({ home: true, browse: false, latest: [] });
    expect(await pagesSitemapXml(1)).toBeNull();
  });
});

describe("sitemap and robots", () => {
  it("the index lists the browsing pages' file, which has the home and both lists", async () => {
    const index = await sitemapIndex();
    expect(index.pages).toEqual([1]);
    expect(sitemapXml(index)).toContain(`<loc>${config.APP_URL}/sitemap/pages-1.xml</loc>`);
    const res = await call(sitemapFileLoader, jsonRequest("/sitemap/pages-1.xml"), { file: "pages-1.xml" });
    expect(res.status).toBe(200);
    for (const path of ["/", "/vagas", "/perfis"]) expect(res.body).toContain(`<loc>${config.APP_URL}${path}</loc>`);
    expect((await call(sitemapFileLoader, jsonRequest("/sitemap/pages-2.xml"), { file: "pages-2.xml" })).status).toBe(
      404,
    );
    const robots = (await robotsTxt()).split("\n");
    expect(robots).toContain("Allow: /vagas");
    expect(robots).toContain("Allow: /perfil");
  });
});

describe("statements per list, whatever the data", () => {
  it("opportunities 3, freelancers 3, the visitors' home 3", async () => {
    const before = [
      await statementsOf(() => listPublicOpportunities({})),
      await statementsOf(() => listPublicProfiles({})),
      await statementsOf(() => homeLoader({ request: jsonRequest("/"), params: {}, context: {} })),
    ];
    for (let i = 0; i < 5; i++) {
      await createOpportunity(db, { merchant_id: merchant.id });
      await createUser(db, { account_type: "freelancer" });
    }
    const after = [
      await statementsOf(() => listPublicOpportunities({ category: "design", q: "site" })),
      await statementsOf(() => listPublicProfiles({ q: "dev", remote: "1" })),
      await statementsOf(() => homeLoader({ request: jsonRequest("/"), params: {}, context: {} })),
    ];
    expect(before).toEqual([3, 3, 3]);
    expect(after).toEqual(before);
  });
});
