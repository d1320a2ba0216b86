import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { listOpportunities, RELEVANCE_WINDOW } from "~/services/marketplace/opportunities.server";

// Relevance order of a text search (docs/product.md, "Busca"), on both engines: bm25 on SQLite,
// ts_rank on PostgreSQL. The default of a search; newest first stays one choice away, and is the
// order of a list without text.

let merchant: UserRow;
let freelancer: UserRow;

beforeAll(async () => {
  merchant = await createUser(db, { account_type: "merchant" });
  freelancer = await createUser(db, { account_type: "freelancer" });
  const make = (title: string, description: string) =>
    createOpportunity(db, { merchant_id: merchant.id, title, description, category: "design" });
  // Oldest first: the one that is most about the words is the oldest.
  await make("Ilustração de aquarela para aquarela botânica", "Aquarela botânica: vinte pranchas em aquarela.");
  await make("Logotipo para floricultura", "Identidade visual; uma vinheta em aquarela no cartão.");
  await make("Cardápio de cafeteria", "Fotos dos pratos e textos curtos, sem ilustrações.");
});

const titles = async (user: UserRow, query: Record<string, string>) =>
  (await listOpportunities(user, query)).data.map((o) => o.title);

describe("relevance of a text search", () => {
  it("puts the best match first by default, whatever its age", async () => {
    expect(await titles(freelancer, { q: "aquarela" })).toEqual([
      "Ilustração de aquarela para aquarela botânica",
      "Logotipo para floricultura",
    ]);
    expect(await titles(freelancer, { q: "aquarela", sort: "relevance" })).toEqual([
      "Ilustração de aquarela para aquarela botânica",
      "Logotipo para floricultura",
    ]);
    // The merchant's own list ranks the same way (its rows looked up in the text index).
    expect(await titles(merchant, { q: "aquarela" })).toEqual([
      "Ilustração de aquarela para aquarela botânica",
      "Logotipo para floricultura",
    ]);
  });

  it("keeps newest first one choice away, and for lists without searchable text", async () => {
    expect(await titles(freelancer, { q: "aquarela", sort: "newest" })).toEqual([
      "Logotipo para floricultura",
      "Ilustração de aquarela para aquarela botânica",
    ]);
    const newest = [
      "Cardápio de cafeteria",
      "Logotipo para floricultura",
      "Ilustração de aquarela para aquarela botânica",
    ];
    expect(await titles(freelancer, {})).toEqual(newest);
    expect(await titles(freelancer, { sort: "relevance" })).toEqual(newest);
    expect(await titles(freelancer, { q: "🎉 **" })).toEqual(newest);
  });

  it("pages through the ranked matches, and past the window is an empty page", async () => {
    const first = await listOpportunities(freelancer, { q: "aquarela", per_page: "1" });
    const second = await listOpportunities(freelancer, { q: "aquarela", per_page: "1", page: "2" });
    expect([...first.data, ...second.data].map((o) => o.title)).toEqual([
      "Ilustração de aquarela para aquarela botânica",
      "Logotipo para floricultura",
    ]);
    expect(first.meta.total).toBe(2);
    const past = await listOpportunities(freelancer, {
      q: "aquarela",
      per_page: "100",
      page: String(RELEVANCE_WINDOW / 100 + 1), // past the window
    });
    expect(past.data).toEqual([]);
  });
});
