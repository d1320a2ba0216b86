import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { loader as directoryLoader } from "~/routes/api+/_profiles+/freelancers._index";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// A text search of the directory is in order of relevance unless another order is chosen: the
// word in the name first, then in the skills, then in the bio; without text, the proven order.

let token: string;
beforeAll(async () => {
  token = (await signedInUser({ account_type: "merchant" })).token;
  const people = [
    { full_name: "Xilo Nome Antigo", bio: "Arte gráfica.", skills: ["Gravura"] },
    { full_name: "Paula Habilidade", bio: "Arte gráfica.", skills: ["Xilogravura"] },
    { full_name: "Rita Recente", bio: "Faço xilogravuras por encomenda.", skills: ["Pintura"] },
  ];
  // Created oldest first: the newest (and so the proven order among equals) is the reverse.
  for (const [i, p] of people.entries()) {
    await createUser(db, { account_type: "freelancer", created_at: `2026-02-0${i + 1}T12:00:00.000Z`, ...p });
  }
});

const names = async (query: string) => {
  const res = await call(directoryLoader, jsonRequest(`/api/freelancers?${query}`, undefined, { token }));
  expect(res.status).toBe(200);
  return (res.body.data as { name: string }[]).map((p) => p.name);
};

describe("the directory's text search", () => {
  it("orders by relevance by default: name, then skill, then bio", async () => {
    expect(await names("q=xilo")).toEqual(["Xilo Nome Antigo", "Paula Habilidade", "Rita Recente"]);
    expect(await names("q=xilo&sort=relevance")).toEqual(["Xilo Nome Antigo", "Paula Habilidade", "Rita Recente"]);
  });

  it("keeps a chosen order, and relevance without text is the proven order", async () => {
    expect(await names("q=xilo&sort=newest")).toEqual(["Rita Recente", "Paula Habilidade", "Xilo Nome Antigo"]);
    expect((await names("sort=relevance")).slice(0, 3)).toEqual([
      "Rita Recente",
      "Paula Habilidade",
      "Xilo Nome Antigo",
    ]);
    // Punctuation only: no words, no relevance to rank by, and no error.
    expect(await names("q=%2B%2B&sort=relevance")).toEqual(await names("sort=proven"));
  });
});
