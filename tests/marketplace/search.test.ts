import { beforeAll, describe, expect, it } from "vitest";
import { db, engine, sqlite } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { opportunityQuerySchema } from "~/lib/market-schemas";
import {
  listOpportunities,
  opportunityListQueries,
  searchWords,
  toFtsQuery,
} from "~/services/marketplace/opportunities.server";

let merchant: UserRow;
let freelancer: UserRow;

beforeAll(async () => {
  merchant = await createUser(db, { account_type: "merchant" });
  freelancer = await createUser(db, { account_type: "freelancer" });
  const make = (title: string, description: string, extra: Record<string, unknown> = {}) =>
    createOpportunity(db, { merchant_id: merchant.id, title, description, ...extra });
  await make("Cardápio digital para padaria", "Criar um cardápio digital com QR Code para a Padaria Pão de Mel.", {
    skills: ["Figma", "QR Code"],
    category: "design",
  });
  await make("Gestão de redes sociais", "Posts semanais no Instagram para uma cafeteria em Curitiba.", {
    skills: ["Instagram"],
    category: "marketing",
  });
  await make("Tradução de catálogo", "Traduzir catálogo de produtos (português → inglês), 40 páginas.", {
    skills: ["Inglês"],
    category: "traducao",
  });
  await make("Programação de loja virtual", "Loja em e-commerce para a pizzaria.com.br, com 3D e MP3.", {
    skills: ["Node.js"],
    category: "desenvolvimento",
  });
});

const titles = async (user: UserRow, query: Record<string, string>) =>
  (await listOpportunities(user, query)).data.map((o) => o.title);

describe("toFtsQuery", () => {
  it("keeps only runs of letters and digits, lower case, each once", () => {
    expect(searchWords('site "padaria" NEAR(a b) title:x* site')).toEqual([
      "site",
      "padaria",
      "near",
      "a",
      "b",
      "title",
      "x",
    ]);
    expect(searchWords("'; DROP TABLE users;--")).toEqual(["drop", "table", "users"]);
    expect(searchWords("café São João!")).toEqual(["café", "são", "joão"]);
    expect(searchWords("a:b & c | !d <-> e")).toEqual(["a", "b", "c", "d", "e"]);
  });

  it.runIf(engine === "sqlite")("quotes every word as an FTS5 prefix", () => {
    expect(toFtsQuery('site "padaria" NEAR(a b) title:x*')).toBe('"site"* "padaria"* "near"* "a" "b" "title"* "x"');
    expect(toFtsQuery("AND OR NOT")).toBe('"and"* "or"* "not"*');
    expect(toFtsQuery("café São João")).toBe('"café"* "são"* "joão"*');
  });

  it.runIf(engine === "postgres")("makes every word a tsquery prefix, all of them required", () => {
    expect(toFtsQuery('site "padaria" NEAR(a b)')).toBe("site:* & padaria:* & near:* & a & b");
    expect(toFtsQuery("café São João")).toBe("café:* & são:* & joão:*");
  });

  it("gives null when nothing searchable is left", () => {
    for (const text of ["", "   ", '"', "*", "(", "🎉🚀", "-- ;; ''"]) expect(toFtsQuery(text)).toBeNull();
  });
});

describe("full-text search", () => {
  it("finds words by prefix, ignoring case and accents, in title, description and skills", async () => {
    expect(await titles(freelancer, { q: "PADAR" })).toEqual(["Cardápio digital para padaria"]);
    expect(await titles(freelancer, { q: "cardapio" })).toEqual(["Cardápio digital para padaria"]);
    expect(await titles(freelancer, { q: "cafeteria curitiba" })).toEqual(["Gestão de redes sociais"]);
    expect(await titles(freelancer, { q: "instagram" })).toEqual(["Gestão de redes sociais"]);
    expect(await titles(freelancer, { q: "padaria instagram" })).toEqual([]);
  });

  it("behaves alike on both engines: no stemming, no stop words, words split at punctuation", async () => {
    expect(await titles(freelancer, { q: "program" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "programacao" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "programar" })).toEqual([]);
    // "de" is a Portuguese stop word elsewhere; here it is a word (and a prefix) like any other.
    expect((await titles(freelancer, { q: "de" })).sort()).toEqual([
      "Cardápio digital para padaria",
      "Gestão de redes sociais",
      "Programação de loja virtual",
      "Tradução de catálogo",
    ]);
    expect(await titles(freelancer, { q: "de mel" })).toEqual(["Cardápio digital para padaria"]);
    expect(await titles(freelancer, { q: "commerce" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "pizzaria" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "3d mp3" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "node js" })).toEqual(["Programação de loja virtual"]);
    expect(await titles(freelancer, { q: "traducao portugues" })).toEqual(["Tradução de catálogo"]);
  });

  it("combines with the filters", async () => {
    expect(await titles(freelancer, { q: "digital", category: "marketing" })).toEqual([]);
    expect(await titles(freelancer, { q: "digital", category: "design" })).toEqual(["Cardápio digital para padaria"]);
  });

  it.each([
    '"',
    '"padaria',
    "NEAR(",
    "NEAR(padaria cafe, 2)",
    "*",
    "pad*",
    "title:",
    "title:padaria",
    "(",
    "())",
    "AND OR NOT",
    "padaria AND",
    "-padaria",
    "^padaria",
    "🎉🍞",
    "'; DROP TABLE users;--",
    "\u0000\u0001",
    "ﬁ ｐａｄａｒｉａ",
  ])("hostile query %j never errors", async (q) => {
    const result = await listOpportunities(freelancer, { q });
    expect(Array.isArray(result.data)).toBe(true);
    expect(result.meta.total).toBe(result.data.length);
  });

  it("a query with only symbols lists everything", async () => {
    expect((await listOpportunities(freelancer, { q: "🎉 **" })).meta.total).toBe(4);
  });
});

/** The hot lists: the browse page (every sort), search, the merchant's own, the freelancer's. */
const HOT_QUERIES: [string, "merchant" | "freelancer", Record<string, string>][] = [
  ["browse newest", "freelancer", {}],
  ["browse budget_desc", "freelancer", { sort: "budget_desc" }],
  ["browse budget_asc", "freelancer", { sort: "budget_asc" }],
  ["browse deadline", "freelancer", { sort: "deadline" }],
  ["browse by category", "freelancer", { category: "design" }],
  [
    "browse by category and budget",
    "freelancer",
    { category: "design", sort: "budget_desc", budget_min_cents: "1000" },
  ],
  ["search", "freelancer", { q: "padaria" }],
  ["search sorted by budget", "freelancer", { q: "site padaria", sort: "budget_asc" }],
  ["search with filters", "freelancer", { q: "site", category: "design", location_type: "remote" }],
  ["freelancer: applied to", "freelancer", { mine: "1" }],
  ["freelancer: closed ones applied to", "freelancer", { status: "closed" }],
  ["merchant: own", "merchant", {}],
  ["merchant: own by status", "merchant", { status: "open" }],
  ["merchant: own search", "merchant", { q: "padaria" }],
];

// SQLite's plans: PostgreSQL plans by statistics, and a test table this small is read whole.
describe.skipIf(!sqlite)("query plans of the hot lists", () => {
  it.each(HOT_QUERIES)("%s reads opportunities through an index or the FTS table", async (_name, role, query) => {
    // No ANALYZE: the app never runs it, so these are the plans production gets.
    const user = role === "merchant" ? merchant : freelancer;
    const { count, page } = opportunityListQueries(user, opportunityQuerySchema.parse(query));
    for (const compiled of [count.compile(), page.compile()]) {
      const plan = sqlite!.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as {
        detail: string;
      }[];
      const details = plan.map((row) => row.detail);
      const fullScans = details.filter((d) => /^SCAN (opportunities|applications|users)\b(?!_fts)/.test(d));
      expect(fullScans, details.join("\n")).toEqual([]);
      expect(details.some((d) => /(SEARCH|SCAN) opportunities(_fts)?\b/.test(d))).toBe(true);
    }
  });

  it.each(["newest", "budget_desc", "budget_asc", "deadline"])(
    "browsing sorted by %s reads open opportunities in index order (no sort of them all)",
    (sort) => {
      const { page } = opportunityListQueries(freelancer, opportunityQuerySchema.parse({ sort }));
      const compiled = page.compile();
      const details = (
        sqlite!.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as {
          detail: string;
        }[]
      ).map((row) => row.detail);
      // "LAST TERM OF ORDER BY" only orders rows that tie on the indexed column.
      expect(
        details.filter((d) => d === "USE TEMP B-TREE FOR ORDER BY"),
        details.join("\n"),
      ).toEqual([]);
    },
  );
});
