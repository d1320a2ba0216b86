import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { loader as directoryLoader } from "~/routes/api+/_profiles+/freelancers._index";
import { loader as freelancerLoader } from "~/routes/api+/_profiles+/freelancers.$id";
import { loader as merchantLoader } from "~/routes/api+/_profiles+/merchants.$id";
import { addPortfolioItem } from "~/services/reputation/portfolio.server";
import { call, jsonRequest, signedInUser } from "../support/helpers";

let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  token = (await signedInUser({ account_type: "merchant" })).token;
  const people = [
    {
      key: "jose",
      full_name: "José Araújo",
      bio: "Fotógrafo de eventos e produtos.",
      skills: ["Fotografia", "Lightroom"],
      city: "São Paulo",
      remote: 0,
    },
    {
      key: "ana",
      full_name: "Ana Beatriz",
      display_name: "Bia",
      bio: "Desenvolvedora React e Node.",
      skills: ["React", "Node.js"],
      city: "Recife",
      remote: 1,
    },
    {
      key: "carla",
      full_name: "Carla Dias",
      bio: "Design de marcas, 100% remoto.",
      skills: ["Design", "C++"],
      city: "sao paulo",
      remote: 1,
    },
  ];
  for (const [i, { key, ...p }] of people.entries()) {
    const u = await createUser(db, { account_type: "freelancer", created_at: `2026-01-0${i + 1}T12:00:00.000Z`, ...p });
    ids[key] = u.id;
  }
  // A merchant never shows in the directory, whatever it matches.
  await createUser(db, { account_type: "merchant", full_name: "José Contratante", city: "São Paulo" });
});

const list = async (query: string) => {
  const res = await call(directoryLoader, jsonRequest(`/api/freelancers?${query}`, undefined, { token }));
  expect(res.status).toBe(200);
  return res.body as { data: { id: string; name: string }[]; meta: { total: number; total_pages: number } };
};
const names = async (query: string) => (await list(query)).data.map((p) => p.name);

describe("GET /api/freelancers", () => {
  it("lists freelancers only, the proven first by default (newest among equals), or by name", async () => {
    expect(await names("")).toEqual(["Carla Dias", "Bia", "José Araújo"]);
    expect(await names("sort=newest")).toEqual(["Carla Dias", "Bia", "José Araújo"]);
    expect(await names("sort=name")).toEqual(["Bia", "Carla Dias", "José Araújo"]);
  });

  it("puts completed contracts first, then the rating, then the newest", async () => {
    // Bia is rated; José, the oldest member, finished a contract.
    await db.updateTable("users").set({ rating_count: 2, rating_sum: 9 }).where("id", "=", ids.ana!).execute();
    const opportunity = await createOpportunity(db, {});
    const hire = await createApplication(db, { opportunity, freelancer_id: ids.jose!, status: "accepted" });
    await db.updateTable("contracts").set({ status: "completed" }).where("id", "=", hire.id).execute();
    try {
      expect(await names("")).toEqual(["José Araújo", "Bia", "Carla Dias"]);
      expect(await names("sort=proven")).toEqual(["José Araújo", "Bia", "Carla Dias"]);
      expect(await names("sort=newest")).toEqual(["Carla Dias", "Bia", "José Araújo"]);
    } finally {
      await db.updateTable("contracts").set({ status: "cancelled" }).where("id", "=", hire.id).execute();
      await db.updateTable("users").set({ rating_count: 0, rating_sum: 0 }).where("id", "=", ids.ana!).execute();
    }
  });

  it("searches names, bio and skills by word beginnings, ignoring case and accents", async () => {
    expect(await names("q=jose")).toEqual(["José Araújo"]);
    expect(await names("q=FOTOGRAF")).toEqual(["José Araújo"]);
    expect(await names("q=react%20desenvolv")).toEqual(["Bia"]);
    expect(await names("q=bia")).toEqual(["Bia"]);
    expect(await names("q=eact")).toEqual([]);
    expect(await names("q=%25")).toEqual(["Carla Dias", "Bia", "José Araújo"]);
  });

  it("filters by skill (whole, any case), city (accents aside) and remote", async () => {
    expect(await names("skill=node.js")).toEqual(["Bia"]);
    expect(await names("skill=node")).toEqual([]);
    expect(await names("skill=c%2B%2B")).toEqual(["Carla Dias"]);
    expect(await names("skill=%25")).toEqual([]);
    expect(await names("city=Sao%20Paulo")).toEqual(["Carla Dias", "José Araújo"]);
    expect(await names("city=S%C3%83O%20PAULO&remote=1")).toEqual(["Carla Dias"]);
  });

  it("paginates and refuses bad parameters with 422", async () => {
    const page = await list("per_page=2&page=2");
    expect(page.data).toHaveLength(1);
    expect(page.meta).toMatchObject({ total: 3, total_pages: 2 });
    const bad = await call(
      directoryLoader,
      jsonRequest("/api/freelancers?sort=stars&per_page=500", undefined, { token }),
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["per_page", "sort"]);
    expect((await call(directoryLoader, jsonRequest("/api/freelancers"))).status).toBe(401);
  });
});

describe("public profiles", () => {
  it("a freelancer's profile shows the portfolio and never the e-mail", async () => {
    const freelancer = await db.selectFrom("users").selectAll().where("id", "=", ids.ana!).executeTakeFirstOrThrow();
    await addPortfolioItem(freelancer, {
      title: "App de delivery",
      description: "Aplicativo React Native para pedidos.",
    });
    const res = await call(freelancerLoader, jsonRequest(`/api/freelancers/${ids.ana}`, undefined, { token }), {
      id: ids.ana!,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Bia", city: "Recife", remote: true, skills: ["React", "Node.js"] });
    expect(res.body.data.portfolio.map((p: { title: string }) => p.title)).toEqual(["App de delivery"]);
    expect(JSON.stringify(res.body)).not.toMatch(/email|password|search_/);
  });

  it("a merchant's profile counts open opportunities; the wrong kind or id is 404", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    await createOpportunity(db, { merchant_id: merchant.id });
    await createOpportunity(db, { merchant_id: merchant.id });
    await createOpportunity(db, { merchant_id: merchant.id, status: "closed" });
    const res = await call(merchantLoader, jsonRequest(`/api/merchants/${merchant.id}`, undefined, { token }), {
      id: merchant.id,
    });
    expect(res.body.data.open_opportunities_count).toBe(2);
    expect(JSON.stringify(res.body)).not.toMatch(/email/);
    for (const [loader, id] of [
      [freelancerLoader, merchant.id],
      [merchantLoader, ids.ana!],
      [freelancerLoader, "nope"],
    ] as const) {
      const missing = await call(loader, jsonRequest(`/api/x/${id}`, undefined, { token }), { id });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe("Perfil não encontrado.");
    }
  });
});
