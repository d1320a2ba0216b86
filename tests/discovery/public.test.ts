import { XMLParser, XMLValidator } from "fast-xml-parser";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { JsonLd } from "~/components/discovery/public-frame";
import { updateProfile } from "~/services/accounts/accounts.server";
import {
  getPublicOpportunity,
  getPublicProfile,
  idFromSlug,
  opportunitiesSitemapXml,
  SITEMAP_PAGE_SIZE,
  opportunityPath,
  opportunityShareUrl,
  profileShareUrl,
  profilesSitemap,
  robotsTxt,
  sitemapIndex,
  sitemapXml,
  slugify,
  urlsetXml,
} from "~/services/discovery/public.server";
import { updateSettings } from "~/services/operator/settings.server";
import {
  createOpportunity as createOpportunityService,
  updateOpportunity,
} from "~/services/marketplace/opportunities.server";
import { fillSlugs } from "../../migrations/036_opportunity_slugs";
import { validOpportunity } from "../support/fixtures";
import { statementsOf } from "../support/statements";
import { jobPosting, person } from "~/web/public-page.server";
import { config } from "~/config.server";
import { SITEMAP_PIECE } from "~/lib/sitemap";

// Public pages: what a visitor may read, what never leaves (applicants, e-mails, the merchant's
// contact, addresses), hidden things are not found, and the sitemap lists exactly what is shown.

let merchant: UserRow;
let operator: UserRow;
let freelancer: UserRow;
let applicant: UserRow;
let open: Awaited<ReturnType<typeof createOpportunity>>;

const SECRET_BITS = (u: UserRow) => [u.email, u.password_hash, u.id];

beforeAll(async () => {
  merchant = await createUser(db, {
    account_type: "merchant",
    full_name: "Ana Contratante Completa",
    display_name: "Ana",
    email: "ana.privada@example.com",
  });
  operator = await createUser(db, { account_type: "operator" });
  freelancer = await createUser(db, {
    account_type: "freelancer",
    full_name: "Bia Freelancer",
    display_name: "Bia <Tradutora>",
    bio: "Tradutora </script><script>alert(1)</script>",
    skills: ["Inglês", "Espanhol"],
    city: "Recife",
    email: "bia.privada@example.com",
  });
  applicant = await createUser(db, {
    account_type: "freelancer",
    full_name: "Carlos Candidato Secreto",
    email: "carlos.candidato@example.com",
  });
  open = await createOpportunity(db, {
    merchant_id: merchant.id,
    title: "Logo para padaria </script> & café",
    location_type: "hybrid",
    city: "Belo Horizonte",
  });
  await createApplication(db, {
    opportunity: open,
    freelancer_id: applicant.id,
    cover_letter: "Carta de candidatura secreta do Carlos",
  });
});

describe("addresses", () => {
  it("slugs are lower-case ASCII words, and the id is read from the end", () => {
    expect(slugify("Logo para Padaria — São João & Café!", "vaga")).toBe("logo-para-padaria-sao-joao-cafe");
    expect(slugify("日本語", "vaga")).toBe("vaga");
    const id = "b36206bc-e877-429f-a2d7-f21572f72db7";
    expect(idFromSlug(`qualquer-coisa-${id}`)).toBe(id);
    expect(idFromSlug(id)).toBe(id);
    expect(idFromSlug(`x${id}`)).toBeNull();
    expect(idFromSlug(`a-${id.toUpperCase()}`)).toBeNull();
    expect(idFromSlug("a-123")).toBeNull();
    expect(idFromSlug(`${"a".repeat(300)}-${id}`)).toBeNull();
    expect(idFromSlug(undefined)).toBeNull();
  });
});

describe("the public opportunity", () => {
  it("has the public fields only: no applicant, no e-mail, no merchant id, the city and no address", async () => {
    const found = await getPublicOpportunity(open.uuid);
    expect(found.open).toBeDefined();
    const o = found.open!;
    expect(o.path).toBe(opportunityPath(open));
    expect(o.url).toBe(`${config.APP_URL}${o.path}`);
    expect(o.city).toBe("Belo Horizonte");
    expect(o.merchant).toEqual({ name: "Ana", rating: { average: null, count: 0 }, identity_verified: false });
    expect(Object.keys(o).sort()).toEqual(
      [
        "uuid",
        "path",
        "url",
        "title",
        "description",
        "category",
        "skills",
        "budget_type",
        "budget_min_cents",
        "budget_max_cents",
        "currency",
        "deadline",
        "location_type",
        "city",
        "vacancies",
        "created_at",
        "updated_at",
        "merchant",
      ].sort(),
    );
    const everything = JSON.stringify([o, jobPosting(o)]);
    for (const secret of [...SECRET_BITS(merchant), ...SECRET_BITS(applicant), "Completa", "Carlos", "Carta"])
      expect(everything).not.toContain(secret);
  });

  it("the JSON-LD is a JobPosting, and no text in it can close its script", async () => {
    const o = (await getPublicOpportunity(open.uuid)).open!;
    const html = renderToStaticMarkup(createElement(JsonLd, { data: jobPosting(o) }));
    const body = /^<script type="application\/ld\+json">(.*)<\/script>$/s.exec(html)![1]!;
    expect(body).not.toContain("<");
    const ld = JSON.parse(body);
    expect(ld["@type"]).toBe("JobPosting");
    expect(ld.title).toBe("Logo para padaria </script> & café");
    expect(ld.hiringOrganization).toEqual({ "@type": "Organization", name: "Ana" });
    expect(ld.jobLocation.address.addressLocality).toBe("Belo Horizonte");
    // A fixed budget is the price of the whole work: no pay rate (Google's needs a unit of time).
    expect(ld).not.toHaveProperty("baseSalary");
  });

  it("the JSON-LD gives an hourly budget as a pay rate per hour, and no end date to an open opportunity past its deadline", async () => {
    const hourly = await createOpportunity(db, {
      merchant_id: merchant.id,
      budget_type: "hourly",
      budget_min_cents: 5_000,
      budget_max_cents: 12_050,
      deadline: "2020-01-31",
    });
    const ld = jobPosting((await getPublicOpportunity(hourly.uuid)).open!);
    expect(ld.baseSalary).toEqual({
      "@type": "MonetaryAmount",
      currency: "BRL",
      value: { "@type": "QuantitativeValue", minValue: 50, maxValue: 120.5, unitText: "HOUR" },
    });
    // Its delivery date passed, yet it still takes applications (until closed or filled): no
    // validThrough, which would tell search engines the posting expired.
    expect(ld).not.toHaveProperty("validThrough");
  });

  it("closed or filled: only its title and address (410 on the page); hidden, held, or its merchant sanctioned: 404", async () => {
    const closed = await createOpportunity(db, { merchant_id: merchant.id, status: "closed", title: "Encerrada" });
    expect(await getPublicOpportunity(closed.uuid)).toEqual({
      closed: { uuid: closed.uuid, path: opportunityPath(closed), title: "Encerrada" },
    });
    const filled = await createOpportunity(db, { merchant_id: merchant.id, status: "filled" });
    expect((await getPublicOpportunity(filled.uuid)).closed).toBeDefined();
    const at = new Date().toISOString();
    const hidden = await createOpportunity(db, { merchant_id: merchant.id, hidden_at: at, hidden_reason: "spam" });
    const held = await createOpportunity(db, { merchant_id: merchant.id, held_at: at });
    const banned = await createUser(db, { account_type: "merchant", banned_at: at });
    const ofBanned = await createOpportunity(db, { merchant_id: banned.id });
    const suspended = await createUser(db, {
      account_type: "merchant",
      suspended_until: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const ofSuspended = await createOpportunity(db, { merchant_id: suspended.id });
    for (const o of [hidden, held, ofBanned, ofSuspended])
      await expect(getPublicOpportunity(o.uuid)).rejects.toMatchObject({ status: 404 });
    // The link to share, on the signed-in page: only where a visitor would see it.
    expect(await opportunityShareUrl(open.uuid)).toBe(`${config.APP_URL}${opportunityPath(open)}`);
    for (const o of [closed, filled, hidden, held, ofBanned, ofSuspended])
      expect(await opportunityShareUrl(o.uuid)).toBeNull();
    await expect(getPublicOpportunity("not-a-uuid")).rejects.toMatchObject({ status: 404 });
    await expect(getPublicOpportunity(crypto.randomUUID())).rejects.toMatchObject({ status: 404 });
  });
});

describe("the public profile", () => {
  it("has what its owner shows, never the e-mail; a Person in JSON-LD", async () => {
    const p = await getPublicProfile(freelancer.id);
    expect(p.name).toBe("Bia <Tradutora>");
    expect(p.city).toBe("Recife");
    expect(p.path).toBe(`/perfil/bia-tradutora-${freelancer.id}`);
    const everything = JSON.stringify([p, person(p)]);
    for (const secret of [freelancer.email, freelancer.password_hash, "Bia Freelancer"])
      expect(everything).not.toContain(secret);
    const html = renderToStaticMarkup(createElement(JsonLd, { data: person(p) }));
    expect(html).not.toContain("</script><script>");
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.replace(/^<script[^>]*>|<\/script>$/g, ""))).toMatchObject({
      "@type": "Person",
      name: "Bia <Tradutora>",
      knowsAbout: ["Inglês", "Espanhol"],
    });
  });

  it("hidden by its owner (the profile setting), by an operator, or the account sanctioned: 404; merchants have none", async () => {
    const owner = await createUser(db, { account_type: "freelancer" });
    await getPublicProfile(owner.id);
    expect(await profileShareUrl(owner.id)).toBe((await getPublicProfile(owner.id)).url);
    await updateProfile(owner, { public_profile: "0" });
    await expect(getPublicProfile(owner.id)).rejects.toMatchObject({ status: 404 });
    expect(await profileShareUrl(owner.id)).toBeNull();
    await updateProfile(owner, { public_profile: true });
    expect((await getPublicProfile(owner.id)).id).toBe(owner.id);
    await expect(updateProfile(owner, { public_profile: "talvez" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { public_profile: "public_profile_invalid" },
    });
    const at = new Date().toISOString();
    for (const overrides of [
      { profile_hidden_at: at },
      { banned_at: at },
      { suspended_until: new Date(Date.now() + 86_400_000).toISOString() },
    ]) {
      const user = await createUser(db, { account_type: "freelancer", ...overrides });
      await expect(getPublicProfile(user.id)).rejects.toMatchObject({ status: 404 });
    }
    // A suspension that ended is over.
    const back = await createUser(db, { account_type: "freelancer", suspended_until: "2020-01-01T00:00:00.000Z" });
    expect((await getPublicProfile(back.id)).id).toBe(back.id);
    await expect(getPublicProfile(merchant.id)).rejects.toMatchObject({ status: 404 });
  });
});

const parser = new XMLParser({ isArray: (name) => name === "url" || name === "sitemap" });
/** The files of a sitemap index, once it parsed as XML. */
const files = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return (parser.parse(xml).sitemapindex.sitemap as { loc: string }[]).map((s) => s.loc);
};
/** The addresses of a sitemap page, once it parsed as XML. */
const locs = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return ((parser.parse(xml).urlset.url ?? []) as { loc: string }[]).map((u) => u.loc);
};

describe("sitemap and robots", () => {
  it("lists every shown opportunity and profile, and nothing hidden; valid XML", async () => {
    const index = await sitemapIndex();
    expect(index).toEqual({ pages: [1], opportunities: [1], profiles: [1], services: [] });
    const indexXml = sitemapXml(index);
    expect(files(indexXml)).toEqual([
      `${config.APP_URL}/sitemap/pages-1.xml`,
      `${config.APP_URL}/sitemap/opportunities-1.xml`,
      `${config.APP_URL}/sitemap/profiles-1.xml`,
    ]);
    const opportunities = locs((await opportunitiesSitemapXml(1))!);
    const shown = await db
      .selectFrom("opportunities as o")
      .innerJoin("users as u", "u.id", "o.merchant_id")
      .select(["o.uuid", "o.title"])
      .where("o.status", "=", "open")
      .where("o.hidden_at", "is", null)
      .where("o.held_at", "is", null)
      .where("u.banned_at", "is", null)
      .where((eb) =>
        eb.or([eb("u.suspended_until", "is", null), eb("u.suspended_until", "<", new Date().toISOString())]),
      )
      .execute();
    expect(opportunities.sort()).toEqual(shown.map((o) => `${config.APP_URL}${opportunityPath(o)}`).sort());
    expect(opportunities).toContain(`${config.APP_URL}${opportunityPath(open)}`);

    const profiles = locs(urlsetXml((await profilesSitemap(1))!));
    expect(profiles).toContain(`${config.APP_URL}/perfil/bia-tradutora-${freelancer.id}`);
    expect(profiles.some((p) => p.includes(merchant.id) || p.includes(operator.id))).toBe(false);
    for (const p of profiles) expect((await getPublicProfile(idFromSlug(p.split("/").pop())!)).url).toBe(p);

    expect(await opportunitiesSitemapXml(2)).toBeNull();
    expect(await opportunitiesSitemapXml(0)).toBeNull();
    expect(await profilesSitemap(2)).toBeNull();
  });

  it("profiles are split by ranges of their ids, each listed once", async () => {
    // 26 000 more freelancers: two pages of profiles.
    const at = new Date().toISOString();
    const rows = Array.from({ length: 26_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `bulk-${i}@example.com`,
      password_hash: "x",
      display_name: null,
      full_name: `Pessoa ${i}`,
      account_type: "freelancer" as const,
      bio: "",
      skills: "[]",
      photo_path: null,
      city: null,
      remote: 1,
      search_text: "",
      search_skills: "",
      search_city: null,
      sort_name: "",
      locale: null,
      suspended_until: null,
      banned_at: null,
      sanction_reason: null,
      profile_hidden_at: null,
      profile_hidden_reason: null,
      hidden_photo_path: null,
      email_verified_at: at,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto("users")
        .values(rows.slice(i, i + 1000))
        .execute();
    const index = await sitemapIndex();
    expect(index.profiles).toEqual([1, 2]);
    const [first, second] = [(await profilesSitemap(1))!, (await profilesSitemap(2))!];
    const all = [...first, ...second].map((e) => e.loc);
    expect(new Set(all).size).toBe(all.length);
    const count = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_type", "=", "freelancer")
      .where("public_profile", "=", 1)
      .where("profile_hidden_at", "is", null)
      .where("banned_at", "is", null)
      .where((eb) => eb.or([eb("suspended_until", "is", null), eb("suspended_until", "<", at)]))
      .executeTakeFirstOrThrow();
    expect(all).toHaveLength(Number(count.n));
    expect(first.length).toBeGreaterThan(10_000);
    expect(second.length).toBeGreaterThan(10_000);
    await db.deleteFrom("users").where("email", "like", "bulk-%").execute();
  }, 120_000);

  it("the stored slug follows the title on the service's writes, and the migration fills old rows", async () => {
    const created = await createOpportunityService(merchant, {
      ...validOpportunity,
      title: 'Cardápio & <Pedidos> "Online" – Açaí da Praça',
    });
    const listed = async () => locs((await opportunitiesSitemapXml(1))!).filter((l) => l.endsWith(created.uuid));
    expect(await listed()).toEqual([`${config.APP_URL}/vagas/cardapio-pedidos-online-acai-da-praca-${created.uuid}`]);
    await updateOpportunity(merchant, created.uuid, { title: "Entregas por bicicleta no centro" });
    expect(await listed()).toEqual([`${config.APP_URL}/vagas/entregas-por-bicicleta-no-centro-${created.uuid}`]);
    expect(await listed()).toEqual([`${config.APP_URL}${(await getPublicOpportunity(created.uuid)).open!.path}`]);

    // Rows written before the column existed: the migration's fill gives each its title's slug.
    await db.updateTable("opportunities").set({ slug: "" }).execute();
    await fillSlugs(db as never);
    const rows = await db.selectFrom("opportunities").select(["title", "slug"]).execute();
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) expect(r.slug).toBe(slugify(r.title, "vaga"));
  });

  it("lists only files with something in them, and serves no empty file", async () => {
    // Ids far apart: page 3 of opportunities holds one, page 2 none.
    const created = await createOpportunity(db, { merchant_id: merchant.id });
    const far = { ...created, id: 2 * 50_000 + 7 };
    await db.updateTable("opportunities").set({ id: far.id }).where("id", "=", created.id).execute();
    const url = `${config.APP_URL}${opportunityPath(far)}`;
    expect((await sitemapIndex()).opportunities).toEqual([1, 3]);
    expect(files(sitemapXml(await sitemapIndex()))).toEqual([
      `${config.APP_URL}/sitemap/pages-1.xml`,
      `${config.APP_URL}/sitemap/opportunities-1.xml`,
      `${config.APP_URL}/sitemap/opportunities-3.xml`,
      `${config.APP_URL}/sitemap/profiles-1.xml`,
    ]);
    expect(await opportunitiesSitemapXml(2)).toBeNull();
    expect(locs((await opportunitiesSitemapXml(3))!)).toEqual([url]);
    // Hidden, closed, held, or of a banned merchant: the page has nothing to list, and goes.
    const at = new Date().toISOString();
    const banned = await createUser(db, { account_type: "merchant", banned_at: at });
    for (const change of [
      { hidden_at: at },
      { status: "closed" as const },
      { held_at: at },
      { merchant_id: banned.id },
    ]) {
      await db.updateTable("opportunities").set(change).where("id", "=", far.id).execute();
      expect((await sitemapIndex()).opportunities).toEqual([1]);
      expect(await opportunitiesSitemapXml(3)).toBeNull();
      await db
        .updateTable("opportunities")
        .set({ hidden_at: null, status: "open", held_at: null, merchant_id: merchant.id })
        .where("id", "=", far.id)
        .execute();
      expect((await sitemapIndex()).opportunities).toEqual([1, 3]);
    }
    await db.deleteFrom("opportunities").where("id", "=", far.id).execute();
    expect((await sitemapIndex()).opportunities).toEqual([1]);
  });

  it("robots.txt points at the sitemap from APP_URL", async () => {
    const robots = await robotsTxt();
    expect(robots).toContain(`Sitemap: ${config.APP_URL}/sitemap.xml`);
    expect(robots).toContain("Allow: /vagas");
    expect(robots).toContain("Disallow: /api/");
    // The pages of the links sent by e-mail (their address holds a personal token).
    for (const path of [
      "/unsubscribe/",
      "/buscas-salvas/cancelar/",
      "/reset-password",
      "/verify-email",
      "/sessions/end",
    ])
      expect(robots.split("\n")).toContain(`Disallow: ${path}`);
  });
});

describe("the operator's switch", () => {
  it("off: every public page is not found, the sitemap has the home page alone and robots disallow all; on again: back", async () => {
    await updateSettings(operator, { public_pages: "0" });
    try {
      await expect(getPublicOpportunity(open.uuid)).rejects.toMatchObject({ status: 404 });
      await expect(getPublicProfile(freelancer.id)).rejects.toMatchObject({ status: 404 });
      expect(await opportunityShareUrl(open.uuid)).toBeNull();
      expect(await profileShareUrl(freelancer.id)).toBeNull();
      expect(await sitemapIndex()).toEqual({ pages: [], opportunities: [], profiles: [], services: [] });
      // Neither an index nor a urlset may be empty: with no file, a urlset of the home page.
      expect(locs(sitemapXml(await sitemapIndex()))).toEqual([`${config.APP_URL}/`]);
      expect(await opportunitiesSitemapXml(1)).toBeNull();
      expect(await profilesSitemap(1)).toBeNull();
      expect(await robotsTxt()).toBe("User-agent: *\nDisallow: /\n");
    } finally {
      await updateSettings(operator, { public_pages: true });
    }
    expect((await getPublicOpportunity(open.uuid)).open).toBeDefined();
    await expect(updateSettings(operator, { public_pages: "sim" })).rejects.toMatchObject({ status: 422 });
  });
});

describe("statements per public page, whatever the data", () => {
  it("opportunity 2, profile 3, sitemap index 2, a sitemap page 2 and one per piece", async () => {
    const portfolio = await createUser(db, { account_type: "freelancer" });
    for (let i = 0; i < 5; i++)
      await db
        .insertInto("portfolio_items")
        .values({
          id: crypto.randomUUID(),
          user_id: portfolio.id,
          title: `Trabalho ${i}`,
          description: "Descrição do trabalho",
          link: null,
          image_path: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
    expect(await statementsOf(() => getPublicOpportunity(open.uuid))).toBe(2);
    expect(await statementsOf(() => getPublicProfile(freelancer.id))).toBe(3);
    expect(await statementsOf(() => getPublicProfile(portfolio.id))).toBe(3);
    expect(await statementsOf(() => sitemapIndex())).toBe(2);
    // The settings and the page count, then each piece of the page (SITEMAP_PIECE keys).
    expect(await statementsOf(() => opportunitiesSitemapXml(1))).toBe(2 + SITEMAP_PAGE_SIZE / SITEMAP_PIECE);
    expect(await statementsOf(() => profilesSitemap(1))).toBe(3);
  });
});
