import { describe, expect, it } from "vitest";
import { savedSearchListPath } from "~/lib/saved-searches";
import * as listPage from "~/routes/opportunities+/_index";
import * as searchesPage from "~/routes/_account+/buscas-salvas._index";
import { get, postForm, toastOf } from "../operator/support";
import { signedInUser } from "../support/helpers";

// Saved searches' forms as a browser without JavaScript posts them (the form's own fields,
// url-encoded), on both engines: saved from the opportunity list with its hidden filters, found on
// /buscas-salvas with its filters, frequency and a link back to its results, a blank name refused
// on its card, renamed with another frequency, deleted. The browser story
// (tests/e2e/saved-searches.spec.ts) runs with JavaScript.

describe("saved searches' forms without JavaScript", () => {
  it("saves from the list, refuses a blank name on its card, changes and deletes", async () => {
    const { token } = await signedInUser({ account_type: "freelancer", full_name: "Sara Salva" });
    const path = "/opportunities?q=loja&category=desenvolvimento&budget_min=500";
    const list = await get(listPage, path, token);
    expect(list.status).toBe(200);

    const saved = await postForm(listPage, path, token, {
      intent: "save_search",
      q: "loja",
      category: "desenvolvimento",
      budget_min: "500",
      name: "Lojas virtuais",
      frequency: "weekly",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/buscas-salvas");
    expect(await toastOf(saved)).toBe("Busca salva. Você receberá as novas oportunidades por e-mail.");

    const items = async () => (await get(searchesPage, "/buscas-salvas", token)).body.data as any[];
    const [card] = await items();
    expect(card).toMatchObject({
      name: "Lojas virtuais",
      frequency: "weekly",
      filters: { q: "loja", category: "desenvolvimento", budget_min_cents: 50_000 },
    });
    expect(savedSearchListPath(card.filters)).toBe(
      "/opportunities?q=loja&category=desenvolvimento&budget_min=500%2C00",
    );

    const blank = await postForm(searchesPage, "/buscas-salvas", token, {
      intent: "update",
      id: card.id,
      name: "   ",
      frequency: "weekly",
    });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.name).toBe("O nome da busca deve ter de 1 a 80 caracteres.");
    expect(blank.body.values).toMatchObject({ intent: "update", id: card.id, frequency: "weekly" });

    const changed = await postForm(searchesPage, "/buscas-salvas", token, {
      intent: "update",
      id: card.id,
      name: "Lojas",
      frequency: "immediate",
    });
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe("/buscas-salvas");
    expect(await items()).toMatchObject([{ id: card.id, name: "Lojas", frequency: "immediate" }]);

    const deleted = await postForm(searchesPage, "/buscas-salvas", token, { intent: "delete", id: card.id });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/buscas-salvas");
    expect(await items()).toEqual([]);
  });
});
