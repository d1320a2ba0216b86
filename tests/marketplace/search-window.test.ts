import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { opportunityQuerySchema } from "~/lib/market-schemas";
import {
  listOpportunities,
  opportunityListQueries,
  reopenOpportunity,
  SEARCH_WINDOW_MS,
  updateOpportunity,
} from "~/services/marketplace/opportunities.server";
import { parseInput } from "~/services/platform/errors.server";
import { statementsOf } from "../support/statements";

// A freelancer's text search in order of relevance reads its window of ranked ids once and keeps
// it a few seconds (docs/performance.md): a repeated search is one statement, and what it shows
// is never wrong, only at most SEARCH_WINDOW_MS late for a change made by another server process.

let merchant: UserRow;
let freelancer: UserRow;
let other: UserRow;

beforeAll(async () => {
  merchant = await createUser(db, { account_type: "merchant" });
  freelancer = await createUser(db, { account_type: "freelancer" });
  other = await createUser(db, { account_type: "freelancer" });
  for (let i = 0; i < 12; i++) {
    await createOpportunity(db, {
      merchant_id: merchant.id,
      title: `Mosaico ${"de azulejo ".repeat(1 + (i % 4))}número ${i}`,
      description: `Painel em mosaico para a fachada ${i}; azulejos pintados à mão e instalação.`,
      category: i % 3 === 0 ? "design" : "desenvolvimento",
    });
  }
});

afterEach(() => vi.restoreAllMocks());

const ids = async (user: UserRow, query: Record<string, string>) =>
  (await listOpportunities(user, query)).data.map((o) => o.uuid);

describe("the kept window of a search by relevance", () => {
  it("shows what the ranked query shows, page by page, and a repeat costs one statement", async () => {
    const query = { q: "azulejo mosaico", per_page: "5" };
    const ranked = await opportunityListQueries(
      { ...freelancer },
      parseInput(opportunityQuerySchema, { ...query, per_page: "50" }),
    ).page.execute();
    const pages = [
      ...(await ids(freelancer, query)),
      ...(await ids(freelancer, { ...query, page: "2" })),
      ...(await ids(freelancer, { ...query, page: "3" })),
    ];
    expect(pages).toEqual(ranked.map((row) => (row as { uuid: string }).uuid));
    expect(pages).toHaveLength(12);
    // Another freelancer's same search reads the kept window: one statement, the page's rows.
    expect(await statementsOf(() => listOpportunities(other, query))).toBe(1);
    const page = await listOpportunities(other, query);
    expect(page.data.map((o) => o.uuid)).toEqual(pages.slice(0, 5));
    expect(page.meta.total).toBe(12);
  });

  it("shows a new match at once, even one written without this process knowing", async () => {
    const query = { q: "azulejo" };
    const before = await ids(freelancer, query);
    const added = await createOpportunity(db, {
      merchant_id: merchant.id,
      title: "Azulejo azulejo azulejo azulejo",
      description: "Restauro de azulejos portugueses antigos, azulejo por azulejo.",
    });
    const after = await listOpportunities(freelancer, query);
    expect(after.data[0]!.uuid).toBe(added.uuid);
    expect(after.meta.total).toBe(before.length + 1);
  });

  it("drops a row closed or hidden since, at once", async () => {
    const query = { q: "mosaico", category: "design" };
    const [first, ...rest] = await ids(freelancer, query);
    await db
      .updateTable("opportunities")
      .set({ hidden_at: new Date().toISOString() })
      .where("uuid", "=", first!)
      .execute();
    expect(await ids(freelancer, query)).toEqual(rest);
    await db.updateTable("opportunities").set({ status: "closed" }).where("uuid", "=", rest[0]!).execute();
    expect(await ids(freelancer, query)).toEqual(rest.slice(1));
  });

  it("reads the window again after a change made here, and after SEARCH_WINDOW_MS otherwise", async () => {
    const query = { q: "vitral" };
    expect(await ids(freelancer, query)).toEqual([]);
    const [target] = await db
      .selectFrom("opportunities")
      .select("uuid")
      .where("merchant_id", "=", merchant.id)
      .where("status", "=", "open")
      .where("hidden_at", "is", null)
      .orderBy("id")
      .limit(1)
      .execute();
    // Edited through the service: the kept windows are read again.
    await updateOpportunity(merchant, target!.uuid, { title: "Vitral para a capela do bairro" });
    expect(await ids(freelancer, query)).toEqual([target!.uuid]);

    // Closed and opened again behind the process's back: the page checks its rows again at once;
    // a window read while it was closed misses it until SEARCH_WINDOW_MS later.
    await db.updateTable("opportunities").set({ status: "closed" }).where("uuid", "=", target!.uuid).execute();
    expect(await ids(freelancer, query)).toEqual([]);
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + SEARCH_WINDOW_MS + 1);
    expect(await ids(freelancer, query)).toEqual([]); // read again, while closed
    await db.updateTable("opportunities").set({ status: "open" }).where("uuid", "=", target!.uuid).execute();
    expect(await ids(freelancer, query)).toEqual([]);
    vi.spyOn(Date, "now").mockReturnValue(now + 2 * SEARCH_WINDOW_MS + 2);
    expect(await ids(freelancer, query)).toEqual([target!.uuid]);

    // Reopened through the service: at once.
    vi.restoreAllMocks();
    await db.updateTable("opportunities").set({ status: "closed" }).where("uuid", "=", target!.uuid).execute();
    expect(await ids(freelancer, query)).toEqual([]);
    await reopenOpportunity(merchant, target!.uuid);
    expect(await ids(freelancer, query)).toEqual([target!.uuid]);
  });
});
