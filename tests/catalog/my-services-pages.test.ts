import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import * as listPage from "~/routes/_account+/meus-servicos._index";
import * as newPage from "~/routes/_account+/meus-servicos.novo";
import * as editPage from "~/routes/_account+/meus-servicos.$id";
import {
  createService,
  getService,
  listMyServices,
  pauseService,
  publishService,
  type ServiceJson,
} from "~/services/catalog/services.server";
import { SERVICE_LIMITS } from "~/lib/service-schemas";
import { postForm } from "../operator/support";
import { validService } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { statementsOf } from "../support/statements";

// "Meus serviços" (docs/product.md, "Serviços prontos"): the freelancer's list of their own
// services and the form that creates and edits one, as a browser without JavaScript posts them
// (url-encoded, the rows' steps as submit buttons); both engines.

const OLD = "2026-01-01T00:00:00.000Z";

/** A service's form, filled as a freelancer types it (prices in reais). */
const FORM = {
  title: "Cartão de visita para a sua loja",
  category: "design",
  description: "Crio o cartão de visita da sua loja, frente e verso, com arquivo pronto para a gráfica.",
  skills: "Illustrator, Impressão",
  packages_rows: "2",
  "packages.0.name": "Simples",
  "packages.0.includes": "Frente\nArquivo PDF",
  "packages.0.price": "120,00",
  "packages.0.delivery_days": "3",
  "packages.0.revisions": "1",
  "packages.1.name": "Completo",
  "packages.1.includes": "Frente e verso\nArquivo PDF\nArquivo editável",
  "packages.1.price": "1.234,56",
  "packages.1.delivery_days": "5",
  "packages.1.revisions": "3",
  extras_rows: "1",
  "extras.0.title": "Entrega expressa",
  "extras.0.price": "50,00",
  "extras.0.extra_days": "0",
  faq_rows: "0",
  questions_rows: "1",
  "questions.0.text": "Qual é o nome da loja?",
  "questions.0.kind": "choice",
  "questions.0.choices": "Moderno\nClássico",
  "questions.0.required": "1",
};

let owner: UserRow;
let token: string;
let otherToken: string;
let merchantToken: string;

beforeAll(async () => {
  ({ user: owner, token } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ token: otherToken } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ token: merchantToken } = await signedInUser({ account_type: "merchant" }));
});

const list = (t = token) => call(listPage.loader, jsonRequest("/meus-servicos", undefined, { token: t }));
const edit = (id: string, t = token) =>
  call(editPage.loader, jsonRequest(`/meus-servicos/${id}`, undefined, { token: t }), { id });
const postNew = (fields: Record<string, string>) => postForm(newPage, "/meus-servicos/novo", token, fields);
const postEdit = (id: string, fields: Record<string, string>, t = token) =>
  postForm(editPage, `/meus-servicos/${id}`, t, fields, { id });
const idFrom = (location: string | null) => location!.split("/").pop()!;

describe("the form", () => {
  it("creates a draft with two packages, prices typed in reais stored in centavos", async () => {
    const res = await postNew({ ...FORM, intent: "save" });
    expect(res.status).toBe(302);
    const id = idFrom(res.headers.get("Location"));
    const s = await getService(owner, id);
    expect(s.status).toBe("draft");
    expect(s.packages.map((p) => p.price_cents)).toEqual([12_000, 123_456]);
    expect(s.packages[1]!.includes).toEqual(["Frente e verso", "Arquivo PDF", "Arquivo editável"]);
    expect(s.extras).toEqual([{ title: "Entrega expressa", price_cents: 5_000, extra_days: 0 }]);
    expect(s.questions).toEqual([
      { text: "Qual é o nome da loja?", kind: "choice", choices: ["Moderno", "Clássico"], required: true },
    ]);
    expect(s.skills).toEqual(["Illustrator", "Impressão"]);
    expect(s.price_from_cents).toBe(12_000);
    // The edit page shows it back as typed.
    const page = await edit(id);
    expect(page.status).toBe(200);
    expect(page.body.values).toMatchObject({
      "packages.1.price": "1.234,56",
      "packages.0.includes": "Frente\nArquivo PDF",
      "questions.0.required": "1",
      packages_rows: "2",
    });
  });

  it("reports every problem at once, each on its field (prices on the field in reais), keeping what was typed", async () => {
    const fields = {
      ...FORM,
      intent: "save",
      title: "Curto",
      category: "nada",
      "packages.0.price": "mil",
      "packages.1.price": "5,00",
      "packages.1.delivery_days": "0",
      "extras.0.title": "X",
      "questions.0.choices": "Só uma",
    };
    const res = await postNew(fields);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      title: "O título deve ter entre 10 e 120 caracteres.",
      category: "Escolha uma categoria da lista.",
      "packages.0.price": "Informe um valor em reais, como 1.500,00.",
      "packages.1.price": "O preço do pacote deve ficar entre R$ 10,00 e R$ 50.000,00.",
      "packages.1.delivery_days": "O prazo de entrega deve ser de 1 a 90 dias.",
      "extras.0.title": "O título do extra deve ter entre 3 e 80 caracteres.",
      "questions.0.choices": "Uma pergunta de escolha precisa de 2 a 10 opções, cada uma com até 80 caracteres.",
    });
    expect(res.body.values).toMatchObject({ "packages.0.price": "mil", "packages.1.name": "Completo", title: "Curto" });
    const [{ n }] = await db
      .selectFrom("services")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("title", "=", "Curto")
      .execute();
    expect(Number(n)).toBe(0);
  });

  it("adds and removes rows without JavaScript, keeping every value typed; a list at its limit adds no more", async () => {
    const added = await postNew({ ...FORM, intent: "add:packages" });
    expect(added.status).toBe(200);
    expect(added.body.values).toMatchObject({ packages_rows: "3", "packages.1.price": "1.234,56", title: FORM.title });
    // Removing the first package moves the second up, with its values.
    const removed = await postNew({ ...FORM, intent: "remove:packages:0" });
    expect(removed.status).toBe(200);
    expect(removed.body.values).toMatchObject({
      packages_rows: "1",
      "packages.0.name": "Completo",
      "packages.0.price": "1.234,56",
      "extras.0.title": "Entrega expressa",
    });
    expect(removed.body.values["packages.1.name"]).toBeUndefined();
    const full = await postNew({ ...FORM, packages_rows: "3", intent: "add:packages" });
    expect(full.status).toBe(422);
    expect(full.body.values).toMatchObject({ packages_rows: "3", "packages.1.name": "Completo" });
    // A step the form does not have, or a row out of range, changes nothing.
    const odd = await postNew({ ...FORM, intent: "remove:packages:9" });
    expect(odd.body.values).toMatchObject({ packages_rows: "2" });
    for (const intent of ["add:__proto__", "remove:constructor:0", "", "publish"]) {
      const hostile = await postNew({ ...FORM, title: "Nada salvo por este envio", intent });
      expect(hostile.status).toBe(302);
      expect(hostile.headers.get("Location")).toBe("/meus-servicos/novo");
    }
    const saved = await db
      .selectFrom("services")
      .select("id")
      .where("title", "=", "Nada salvo por este envio")
      .execute();
    expect(saved).toEqual([]);
  });

  it("saves and publishes at once; editing changes it and it stays published", async () => {
    const res = await postNew({ ...FORM, title: "Cartão de visita publicado já", intent: "save_publish" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/meus-servicos");
    const [row] = await db
      .selectFrom("services")
      .select(["id", "status"])
      .where("title", "=", "Cartão de visita publicado já")
      .execute();
    expect(row!.status).toBe("published");
    const page = await edit(row!.id);
    const changed = await postEdit(row!.id, { ...page.body.values, "packages.0.price": "150,00", intent: "save" });
    expect(changed.status).toBe(302);
    const s = await getService(owner, row!.id);
    expect(s.status).toBe("published");
    expect(s.packages[0]!.price_cents).toBe(15_000);
  });

  it("someone else's service, even published, is not found on its form; a merchant is sent away", async () => {
    const s = await publishService(owner, (await createService(owner, validService)).id);
    expect((await edit(s.id, otherToken)).status).toBe(404);
    expect((await postEdit(s.id, { ...FORM, intent: "save" }, otherToken)).status).toBe(404);
    expect((await edit("nao-e-um-id")).status).toBe(404);
    expect((await list(merchantToken)).status).toBe(302);
  });
});

describe("the list and its moves", () => {
  let draft: ServiceJson;
  let published: ServiceJson;
  let hidden: ServiceJson;

  beforeAll(async () => {
    draft = await createService(owner, { ...validService, title: "Rascunho da lista de serviços" });
    published = await publishService(owner, (await createService(owner, validService)).id);
    hidden = await publishService(owner, (await createService(owner, validService)).id);
    await db
      .updateTable("services")
      .set({ hidden_at: new Date().toISOString(), hidden_reason: "Imagem de terceiros" })
      .where("id", "=", hidden.id)
      .execute();
  });

  it("lists every state with its moves and the operator's reason", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.map((s: ServiceJson) => [s.id, s]));
    expect((byId.get(draft.id) as ServiceJson).allowed_actions).toEqual(
      expect.arrayContaining(["publish", "delete", "archive"]),
    );
    expect((byId.get(hidden.id) as ServiceJson).moderation).toEqual({
      hidden: true,
      hidden_reason: "Imagem de terceiros",
    });
  });

  it("publishes and pauses from the list; a second pause is a 409 shown as a message", async () => {
    const paused = await postForm(listPage, "/meus-servicos", token, { intent: "pause", id: published.id });
    expect(paused.status).toBe(302);
    expect((await getService(owner, published.id)).status).toBe("paused");
    const again = await postForm(listPage, "/meus-servicos", token, { intent: "pause", id: published.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Só um serviço publicado pode ser pausado.");
    const back = await postForm(listPage, "/meus-servicos", token, { intent: "publish", id: published.id });
    expect(back.status).toBe(302);
    expect((await getService(owner, published.id)).status).toBe("published");
    // Another's service is not found.
    const theirs = await postForm(listPage, "/meus-servicos", otherToken, { intent: "pause", id: published.id });
    expect(theirs.status).toBe(404);
  });

  it("archives and deletes only from their confirmation step", async () => {
    const bare = await postEdit(draft.id, { intent: "delete" });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("Location")).toBe(`/meus-servicos/${draft.id}?confirm=delete`);
    expect((await getService(owner, draft.id)).status).toBe("draft");
    const deleted = await postEdit(draft.id, { intent: "delete", confirmed: "1" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/meus-servicos");
    expect((await edit(draft.id)).status).toBe(404);
    // A published one cannot be deleted: 409, as a message.
    const refused = await postEdit(published.id, { intent: "delete", confirmed: "1" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Só um rascunho pode ser excluído; arquive o serviço.");
    const archived = await postEdit(published.id, { intent: "archive", confirmed: "1" });
    expect(archived.status).toBe(302);
    const page = await edit(published.id);
    expect(page.body.status).toBe("archived");
    expect(page.body.allowed_actions).toEqual([]);
    const late = await postEdit(published.id, { ...page.body.values, intent: "save" });
    expect(late.status).toBe(409);
  });

  it("save and publish past the limit of published services keeps the changes and says why", async () => {
    const { user: busy, token: busyToken } = await signedInUser({ account_type: "freelancer", created_at: OLD });
    for (let i = 0; i < SERVICE_LIMITS.published_per_freelancer; i++) {
      await publishService(busy, (await createService(busy, validService)).id);
    }
    const one = await createService(busy, validService);
    const res = await postForm(newPage, "/meus-servicos/novo", busyToken, { ...FORM, intent: "save_publish" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/meus-servicos\/[0-9a-f-]{36}$/);
    const page = await edit(one.id, busyToken);
    const saved = await postForm(
      editPage,
      `/meus-servicos/${one.id}`,
      busyToken,
      { ...page.body.values, title: "Título novo e guardado", intent: "save_publish" },
      { id: one.id },
    );
    expect(saved.status).toBe(409);
    expect(saved.body.message).toContain("20");
    expect((await getService(busy, one.id)).title).toBe("Título novo e guardado");
  });
});

describe("statements per page, whatever the data", () => {
  it("the list two (its page and its count), the form two (the service and its images); the same with more services", async () => {
    const { user, token: t } = await signedInUser({ account_type: "freelancer", created_at: OLD });
    const s = await createService(user, validService);
    // The pages' own reads, and the pages whole (the session's lookup included) once warmed.
    const count = async () => [
      await statementsOf(() => listMyServices(user)),
      await statementsOf(() => getService(user, s.id)),
      await statementsOf(() => list(t)),
      await statementsOf(() => edit(s.id, t)),
    ];
    await count();
    const before = await count();
    expect(before.slice(0, 2)).toEqual([2, 2]);
    for (let i = 0; i < 3; i++) {
      await pauseService(user, (await publishService(user, (await createService(user, validService)).id)).id);
    }
    expect(await count()).toEqual(before);
  });
});
