import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { loader as serviceLoader } from "~/routes/_public+/servicos.$slug";
import { loader as servicesLoader } from "~/routes/_public+/servicos._index";
import { loader as sitemapFileLoader } from "~/routes/_public+/sitemap.$file";
import {
  createService,
  pauseService,
  publishService,
  updateService,
  type ServiceJson,
} from "~/services/catalog/services.server";
import { robotsTxt, servicesSitemapXml, sitemapIndex, sitemapXml } from "~/services/discovery/public.server";
import { updateSettings } from "~/services/operator/settings.server";
import { config } from "~/config.server";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { statementsOf } from "../support/statements";

// The public pages of ready-made services (docs/product.md, "Serviços prontos"): /servicos, a
// service's page at /servicos/<slug>-<id>, and their place in the sitemap; both engines.

const OLD = "2026-01-01T00:00:00.000Z";
const at = (path: string) => call(servicesLoader, jsonRequest(path));
const pageOf = (path: string, options: { token?: string } = {}) =>
  call(serviceLoader, jsonRequest(path, undefined, options), { slug: path.split("/").pop()! });
const pathOf = (s: Pick<ServiceJson, "id" | "slug">) => `/servicos/${s.slug}-${s.id}`;
const ids = (body: { list: { data: { id: string }[] } }) => body.list.data.map((s) => s.id);

let owner: UserRow;
let ownerToken: string;
let other: UserRow;
let operator: UserRow;
const s: Record<string, ServiceJson> = {};

beforeAll(async () => {
  operator = await createUser(db, { account_type: "operator" });
  ({ user: owner, token: ownerToken } = await signedInUser({
    account_type: "freelancer",
    full_name: "Júlia Nome Completo Privado",
    display_name: "Júlia Designer",
    email: "julia.privada@example.com",
    created_at: OLD,
  }));
  other = await createUser(db, { account_type: "freelancer", display_name: "Pedro Redator", created_at: OLD });
  const publish = async (user: UserRow, input: Record<string, unknown>) =>
    publishService(user, (await createService(user, { ...validService, ...input })).id);
  s.logo = await publish(owner, {});
  s.site = await publish(owner, {
    title: "Site institucional rápido em Remix",
    category: "desenvolvimento",
    packages: [{ name: "Único", includes: ["Uma página"], price_cents: 90_000, delivery_days: 10, revisions: 2 }],
    extras: [],
    faq: [],
  });
  s.text = await publish(other, {
    title: "Textos para o seu blog de culinária",
    category: "redacao",
    packages: [{ name: "Artigo", includes: ["Um artigo"], price_cents: 5_000, delivery_days: 2, revisions: 0 }],
  });
  s.draft = await createService(owner, { ...validService, title: "Rascunho de identidade visual" });
  s.paused = await pauseService(owner, (await publish(owner, { title: "Serviço pausado de ilustração" })).id);
  s.hidden = await publish(other, { title: "Serviço oculto por um operador" });
  await db
    .updateTable("services")
    .set({ hidden_at: new Date().toISOString(), hidden_reason: "Conteúdo proibido" })
    .where("id", "=", s.hidden.id)
    .execute();
  // The text one has ratings.
  await db.updateTable("services").set({ rating_sum: 9, rating_count: 2 }).where("id", "=", s.text.id).execute();
});

describe("/servicos", () => {
  it("lists the published ones only, each card with its address and no private data; cacheable for a visitor", async () => {
    const res = await at("/servicos?per_page=100");
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    const listed = ids(res.body);
    expect(listed).toEqual(expect.arrayContaining([s.logo!.id, s.site!.id, s.text!.id]));
    for (const hidden of [s.draft!, s.paused!, s.hidden!]) expect(listed).not.toContain(hidden.id);
    const card = res.body.list.data.find((c: { id: string }) => c.id === s.logo!.id);
    expect(card).toEqual({
      id: s.logo!.id,
      path: pathOf(s.logo!),
      title: validService.title,
      category: "design",
      price_from_cents: 15_000,
      delivery_days_min: 3,
      rating: { average: null, count: 0 },
      freelancer: { name: "Júlia Designer", identity_verified: false },
      cover_url: null,
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("julia.privada@example.com");
    expect(text).not.toContain("Nome Completo Privado");
    expect(text).not.toContain("Qual é o nome da marca?");
    // Unfiltered, it is indexed and its items are an ItemList.
    expect(res.body.noindex).toBe(false);
    expect(res.body.seo).toMatchObject({ title: "Serviços prontos", canonical: `${config.APP_URL}/servicos` });
    expect(res.body.ld["@type"]).toBe("ItemList");
    // Signed in, the same list, private.
    const signedIn = await call(servicesLoader, jsonRequest("/servicos", undefined, { token: ownerToken }));
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    expect(signedIn.body.viewer).toBe("freelancer");
  });

  it("filters by text, category, price in reais, delivery days, rating and verified identity, and sorts", async () => {
    expect(ids((await at("/servicos?q=culinaria")).body)).toEqual([s.text!.id]);
    const design = ids((await at("/servicos?category=desenvolvimento")).body);
    expect(design).toContain(s.site!.id);
    expect(design).not.toContain(s.logo!.id);
    // "200,00" reais: the logo (from 150) and the text (50), not the site (900).
    const cheap = ids((await at("/servicos?max_price=200%2C00&per_page=100")).body);
    expect(cheap).toEqual(expect.arrayContaining([s.logo!.id, s.text!.id]));
    expect(cheap).not.toContain(s.site!.id);
    const quick = ids((await at("/servicos?max_days=3&per_page=100")).body);
    expect(quick).toEqual(expect.arrayContaining([s.logo!.id, s.text!.id]));
    expect(quick).not.toContain(s.site!.id);
    expect(ids((await at("/servicos?min_rating=4&per_page=100")).body)).toEqual([s.text!.id]);
    expect(ids((await at("/servicos?verified=1&per_page=100")).body)).not.toContain(s.logo!.id);
    const byPrice = ids((await at("/servicos?sort=price&per_page=100")).body);
    expect(byPrice.indexOf(s.text!.id)).toBeLessThan(byPrice.indexOf(s.logo!.id));
    expect(byPrice.indexOf(s.logo!.id)).toBeLessThan(byPrice.indexOf(s.site!.id));
    const filtered = await at("/servicos?category=design");
    expect(filtered.body.noindex).toBe(true);
    expect(filtered.body.list.filters).toEqual({ category: "design" });
  });

  it("a bad filter is told beside its field and left out, not a 5xx", async () => {
    const res = await at("/servicos?max_price=abc&max_days=999&sort=x&per_page=100");
    expect(res.status).toBe(200);
    expect(res.body.list.errors).toEqual({
      max_price: "Use um valor como 1.500,00.",
      max_days: "O prazo máximo deve ser de 1 a 90 dias.",
      sort: "Ordene por relevância, preço, nota ou mais recentes.",
    });
    expect(ids(res.body)).toContain(s.site!.id);
  });
});

describe("a service's page", () => {
  it("shows a visitor the service, its packages, extras and FAQ, with nothing private; cacheable", async () => {
    const res = await pageOf(pathOf(s.logo!));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    const service = res.body.service;
    expect(service).toMatchObject({
      id: s.logo!.id,
      title: validService.title,
      path: pathOf(s.logo!),
      url: `${config.APP_URL}${pathOf(s.logo!)}`,
      packages: validService.packages,
      extras: validService.extras,
      faq: validService.faq,
      preview: false,
      freelancer: { id: owner.id, name: "Júlia Designer", identity_verified: false },
    });
    expect(service.freelancer.path).toMatch(new RegExp(`^/perfil/julia-designer-${owner.id}$`));
    for (const key of ["questions", "allowed_actions", "moderation"]) expect(service).not.toHaveProperty(key);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("julia.privada@example.com");
    expect(text).not.toContain("Nome Completo Privado");
    expect(res.body.seo).toMatchObject({ title: validService.title, canonical: service.url });
    expect(res.body.seo.description).toMatch(/^A partir de R\$\s150,00 · Design — /);
  });

  it("JSON-LD: a Service by a Person, one Offer per package in reais, a rating only once it has one", async () => {
    const { ld } = (await pageOf(pathOf(s.logo!))).body;
    expect(ld).toEqual({
      "@context": "https://schema.org",
      "@type": "Service",
      name: validService.title,
      description: validService.description,
      url: `${config.APP_URL}${pathOf(s.logo!)}`,
      category: "design",
      identifier: { "@type": "PropertyValue", name: "Freela", value: s.logo!.id },
      provider: {
        "@type": "Person",
        name: "Júlia Designer",
        url: `${config.APP_URL}/perfil/julia-designer-${owner.id}`,
      },
      offers: [
        {
          "@type": "Offer",
          name: "Básico",
          description: "Uma proposta; Arquivo PNG",
          price: "150.00",
          priceCurrency: "BRL",
          url: `${config.APP_URL}${pathOf(s.logo!)}`,
          deliveryLeadTime: { "@type": "QuantitativeValue", value: 5, unitCode: "DAY" },
        },
        expect.objectContaining({ "@type": "Offer", name: "Completo", price: "450.00", priceCurrency: "BRL" }),
      ],
    });
    const rated = (await pageOf(pathOf(s.text!))).body.ld;
    expect(rated.offers).toEqual([expect.objectContaining({ price: "50.00", priceCurrency: "BRL" })]);
    expect(rated.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: 4.5,
      ratingCount: 2,
      bestRating: 5,
      worstRating: 1,
    });
  });

  it("is not found for a draft, a paused or a hidden one, or a bad address; its owner previews their own, unindexed", async () => {
    const { token } = await signedInUser({ account_type: "merchant" });
    for (const gone of [s.draft!, s.paused!, s.hidden!]) {
      expect((await pageOf(pathOf(gone))).status).toBe(404);
      expect((await pageOf(pathOf(gone), { token })).status).toBe(404);
    }
    expect((await pageOf("/servicos/logotipo")).status).toBe(404);
    expect((await pageOf(`/servicos/x-${crypto.randomUUID()}`)).status).toBe(404);
    const preview = await pageOf(pathOf(s.draft!), { token: ownerToken });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("Cache-Control")).toBe("private, no-store");
    expect(preview.body.service).toMatchObject({ status: "draft", preview: true });
    expect(preview.body.ld).toBeNull();
  });

  it("answers 301 to its address from a wrong slug, the bare id, or the old slug after a title change", async () => {
    const wrong = await pageOf(`/servicos/outro-nome-${s.site!.id}`);
    expect(wrong.status).toBe(301);
    expect(wrong.headers.get("Location")).toBe(pathOf(s.site!));
    expect((await pageOf(`/servicos/${s.site!.id}`)).headers.get("Location")).toBe(pathOf(s.site!));
    const renamed = await updateService(owner, s.site!.id, { title: "Loja virtual completa em Remix" });
    expect(renamed.slug).toBe("loja-virtual-completa-em-remix");
    const old = await pageOf(pathOf(s.site!));
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe(`/servicos/loja-virtual-completa-em-remix-${s.site!.id}`);
    s.site = renamed;
  });
});

describe("sitemap and robots", () => {
  it("lists the published services, by their address, and robots allows them", async () => {
    const index = await sitemapIndex();
    expect(index.services).toEqual([1]);
    expect(sitemapXml(index)).toContain(`<loc>${config.APP_URL}/sitemap/services-1.xml</loc>`);
    const res = await call(sitemapFileLoader, jsonRequest("/sitemap/services-1.xml"), { file: "services-1.xml" });
    expect(res.status).toBe(200);
    const xml = String(res.body);
    for (const shown of [s.logo!, s.site!, s.text!])
      expect(xml).toContain(`<loc>${config.APP_URL}${pathOf(shown)}</loc>`);
    for (const gone of [s.draft!, s.paused!, s.hidden!]) expect(xml).not.toContain(gone.id);
    expect(await servicesSitemapXml(2)).toBeNull();
    const pages = await call(sitemapFileLoader, jsonRequest("/sitemap/pages-1.xml"), { file: "pages-1.xml" });
    expect(String(pages.body)).toContain(`<loc>${config.APP_URL}/servicos</loc>`);
    expect((await robotsTxt()).split("\n")).toContain("Allow: /servicos");
  });
});

describe("statements per page, whatever the data", () => {
  it("the list 3 (the cards' pictures in the page's statement), a service's page 5 for a visitor (with its images and its buyers' reviews)", async () => {
    const count = async () => [
      await statementsOf(() => at("/servicos")),
      await statementsOf(() => at("/servicos?q=logotipo&category=design&max_price=500&min_rating=1&verified=1")),
      await statementsOf(() => pageOf(pathOf(s.logo!))),
      await statementsOf(() => pageOf(pathOf(s.text!))),
    ];
    const before = await count();
    expect(before).toEqual([3, 3, 5, 5]);
    for (let i = 0; i < 3; i++) {
      await publishService(other, (await createService(other, { ...validService, title: `Mais um serviço ${i}` })).id);
    }
    expect(await count()).toEqual(before);
  });
});

describe("the operator's switch", () => {
  it("off: neither the list nor a page is found by a visitor", async () => {
    await updateSettings(operator, { public_pages: "0" });
    try {
      expect((await at("/servicos")).status).toBe(404);
      expect((await pageOf(pathOf(s.logo!))).status).toBe(404);
      expect((await sitemapIndex()).services).toEqual([]);
    } finally {
      await updateSettings(operator, { public_pages: "1" });
    }
  });
});
