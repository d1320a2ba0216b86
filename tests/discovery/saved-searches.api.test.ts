import { describe, expect, it } from "vitest";
import { action as listAction, loader as listLoader } from "~/routes/api+/_account+/saved-searches._index";
import { action as oneAction, loader as oneLoader } from "~/routes/api+/_account+/saved-searches.$id";
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from "~/routes/_account+/buscas-salvas.cancelar.$token";
import { savedSearchUnsubscribeUrl } from "~/services/discovery/saved-searches.server";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

// The saved searches' API (docs/api.md): the service's rules with the API's statuses and
// Portuguese messages, on both engines.

const freelancer = () => signedInUser({ account_type: "freelancer" });

describe("/api/saved-searches", () => {
  it("creates, lists, reads, changes and deletes a search", async () => {
    const { token } = await freelancer();
    const created = await call(
      listAction,
      jsonRequest(
        "/api/saved-searches",
        { name: "Design", frequency: "daily", filters: { category: "design" } },
        { token },
      ),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Busca salva.");
    const id = created.body.data.id as string;
    const listed = await call(listLoader, jsonRequest("/api/saved-searches", undefined, { token }));
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    const one = await call(oneLoader, jsonRequest(`/api/saved-searches/${id}`, undefined, { token }), { id });
    expect(one.body.data).toMatchObject({ name: "Design", frequency: "daily", filters: { category: "design" } });
    const patched = await call(
      oneAction,
      jsonRequest(`/api/saved-searches/${id}`, { frequency: "weekly" }, { token, method: "PATCH" }),
      { id },
    );
    expect([patched.status, patched.body.data.frequency]).toEqual([200, "weekly"]);
    const deleted = await call(
      oneAction,
      jsonRequest(`/api/saved-searches/${id}`, undefined, { token, method: "DELETE" }),
      {
        id,
      },
    );
    expect([deleted.status, deleted.body.message]).toEqual([200, "Busca salva excluída."]);
    const gone = await call(oneLoader, jsonRequest(`/api/saved-searches/${id}`, undefined, { token }), { id });
    expect([gone.status, gone.body.error ?? gone.body.message]).toEqual([404, "Busca salva não encontrada."]);
  });

  it("answers bad input with Portuguese 4xx, another user's search with 404 and a merchant with 403", async () => {
    const { token } = await freelancer();
    const bad = await call(
      listAction,
      jsonRequest(
        "/api/saved-searches",
        { name: "x".repeat(81), frequency: "hourly", filters: { category: "nada" } },
        { token },
      ),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      name: "O nome da busca deve ter de 1 a 80 caracteres.",
      frequency: "Frequência inválida: use imediata, diária, semanal ou desligada.",
      "filters.category": expect.stringMatching(/categoria/i),
    });
    const unknown = await call(
      listAction,
      jsonRequest("/api/saved-searches", { name: "a", frequency: "daily", filters: { cor: "azul" } }, { token }),
    );
    expect([unknown.status, unknown.body.errors]).toEqual([
      422,
      { filters: expect.stringMatching(/^Filtro desconhecido/) },
    ]);
    // A value of the wrong type is told so, not that it is too long.
    for (const q of [123, ["react"], { q: "react" }, true]) {
      const wrongType = await call(
        listAction,
        jsonRequest("/api/saved-searches", { name: 42, frequency: "daily", filters: { q } }, { token }),
      );
      expect([wrongType.status, wrongType.body.errors]).toEqual([
        422,
        { name: "O nome da busca deve ser um texto.", "filters.q": "A busca deve ser um texto." },
      ]);
    }
    const tooLong = await call(
      listAction,
      jsonRequest("/api/saved-searches", { name: "a", frequency: "daily", filters: { q: "x".repeat(201) } }, { token }),
    );
    expect(tooLong.body.errors).toEqual({ "filters.q": "A busca deve ter no máximo 200 caracteres." });
    const malformed = await call(listAction, jsonRequest("/api/saved-searches", "{nope", { token }));
    expect(malformed.status).toBe(400);

    const mine = await call(
      listAction,
      jsonRequest("/api/saved-searches", { name: "Minha", frequency: "off" }, { token }),
    );
    const id = mine.body.data.id as string;
    const other = await freelancer();
    for (const [handler, method] of [
      [oneLoader, "GET"],
      [oneAction, "PATCH"],
      [oneAction, "DELETE"],
    ] as const) {
      const res = await call(
        handler,
        jsonRequest(`/api/saved-searches/${id}`, method === "PATCH" ? { name: "Dele" } : undefined, {
          token: other.token,
          method,
        }),
        { id },
      );
      expect(res.status).toBe(404);
    }
    const notId = await call(oneLoader, jsonRequest("/api/saved-searches/x", undefined, { token }), { id: "x" });
    expect(notId.status).toBe(404);

    const merchant = await signedInUser({ account_type: "merchant" });
    const refused = await call(listLoader, jsonRequest("/api/saved-searches", undefined, { token: merchant.token }));
    expect([refused.status, refused.body.error ?? refused.body.message]).toEqual([
      403,
      "Seu tipo de conta não tem permissão para esta ação.",
    ]);
    const anonymous = await call(listLoader, jsonRequest("/api/saved-searches"));
    expect(anonymous.status).toBe(401);
  });
});

describe("/buscas-salvas/cancelar/:token", () => {
  it("asks on GET, turns the search's e-mails off on POST without a session, and refuses a forged link", async () => {
    const { token } = await freelancer();
    const created = await call(
      listAction,
      jsonRequest("/api/saved-searches", { name: "Vídeo", frequency: "daily" }, { token }),
    );
    const id = created.body.data.id as string;
    const path = new URL(savedSearchUnsubscribeUrl(id)).pathname;
    const linkToken = path.split("/").pop()!;
    const asked = await call(unsubscribeLoader, new Request(BASE + path), { token: linkToken });
    expect([asked.status, asked.body]).toEqual([200, { ok: true, name: "Vídeo", unsubscribed: false }]);
    expect(asked.headers.get("Cache-Control")).toBe("no-store");
    const done = await call(
      unsubscribeAction,
      new Request(BASE + path, { method: "POST", body: "List-Unsubscribe=One-Click" }),
      {
        token: linkToken,
      },
    );
    expect([done.status, done.body]).toEqual([200, { ok: true, name: "Vídeo", unsubscribed: true }]);
    const one = await call(oneLoader, jsonRequest(`/api/saved-searches/${id}`, undefined, { token }), { id });
    expect(one.body.data.frequency).toBe("off");
    const forged = await call(unsubscribeAction, new Request(BASE + path, { method: "POST" }), {
      token: `${id}.${"B".repeat(43)}`,
    });
    expect([forged.status, forged.body.message]).toEqual([
      400,
      "Este link de cancelamento é inválido ou a busca já foi excluída.",
    ]);
  });
});
