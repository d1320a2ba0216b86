import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import * as imagesApi from "~/routes/api+/services+/$id.images._index";
import * as imageApi from "~/routes/api+/services+/$id.images.$image";
import * as oneApi from "~/routes/api+/services+/$id";
import * as listApi from "~/routes/api+/services+/_index";
import * as editPage from "~/routes/_account+/meus-servicos.$id";
import * as publicList from "~/routes/_public+/servicos._index";
import * as publicPage from "~/routes/_public+/servicos.$slug";
import { archiveService, createService, deleteService, publishService } from "~/services/catalog/services.server";
import { readPhoto } from "~/services/platform/uploads.server";
import { SERVICE_LIMITS } from "~/lib/service-schemas";
import { postForm } from "../operator/support";
import { PNG_1X1, validService } from "../support/fixtures";
import { call, jsonRequest, multipartRequest, signedInUser } from "../support/helpers";

// A service's images (docs/product.md, "Serviços prontos"): at most six, checked by content and
// kept in the photos' store as portfolio images are, ordered by their owner; the first is the
// catalogue card's picture and the shared link's. The API and the page without JavaScript, both engines.

const OLD = "2026-01-01T00:00:00.000Z";

let owner: UserRow;
let token: string;
let otherToken: string;
let merchantToken: string;

beforeAll(async () => {
  ({ user: owner, token } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ token: otherToken } = await signedInUser({ account_type: "freelancer", created_at: OLD }));
  ({ token: merchantToken } = await signedInUser({ account_type: "merchant" }));
});

const png = () => new Blob([PNG_1X1], { type: "image/png" });
const add = (id: string, image: Blob | string = png(), t = token) =>
  call(imagesApi.action, multipartRequest(`/api/services/${id}/images`, t, { image }), { id });
const move = (id: string, image: string, position: unknown, t = token) =>
  call(
    imageApi.action,
    jsonRequest(`/api/services/${id}/images/${image}`, { position }, { method: "PATCH", token: t }),
    { id, image },
  );
const remove = (id: string, image: string, t = token) =>
  call(imageApi.action, jsonRequest(`/api/services/${id}/images/${image}`, undefined, { method: "DELETE", token: t }), {
    id,
    image,
  });
const stored = (url: string) => readPhoto(url.replace("/uploads/", ""));

describe("the images' API", () => {
  it("adds (201) at the end, reads them with the service, moves and removes them (files included)", async () => {
    const s = await createService(owner, validService);
    const first = await add(s.id);
    expect(first.status).toBe(201);
    expect(first.body.message).toBe("Imagem adicionada.");
    expect(first.body.data).toHaveLength(1);
    expect((await stored(first.body.data[0].url))?.contentType).toBe("image/png");
    await add(s.id);
    const three = (await add(s.id)).body.data as { id: string; url: string; position: number }[];
    expect(three.map((i) => i.position)).toEqual([0, 1, 2]);

    // The third becomes the first; the others keep their order.
    const moved = await move(s.id, three[2]!.id, 0);
    expect(moved.status).toBe(200);
    expect(moved.body.data.map((i: { id: string }) => i.id)).toEqual([three[2]!.id, three[0]!.id, three[1]!.id]);
    const read = await call(oneApi.loader, jsonRequest(`/api/services/${s.id}`, undefined, { token }), { id: s.id });
    expect(read.body.data.images.map((i: { id: string }) => i.id)).toEqual(
      moved.body.data.map((i: { id: string }) => i.id),
    );
    expect(read.body.data.cover_url).toBe(three[2]!.url);

    // Removing one moves the later ones up, and its file leaves the store.
    const removed = await remove(s.id, three[0]!.id);
    expect(removed.status).toBe(200);
    expect(removed.body.data.map((i: { id: string; position: number }) => [i.id, i.position])).toEqual([
      [three[2]!.id, 0],
      [three[1]!.id, 1],
    ]);
    expect(await stored(three[0]!.url)).toBeNull();
    expect((await remove(s.id, three[0]!.id)).status).toBe(404);

    // A draft deleted takes its images' files with it.
    await deleteService(owner, s.id);
    expect(await stored(three[1]!.url)).toBeNull();
    expect(await db.selectFrom("service_images").select("id").where("service_id", "=", s.id).execute()).toEqual([]);
  });

  it("refuses a seventh image (409), a file that is not an image (422 on the field), none at all, a bad position", async () => {
    const s = await createService(owner, validService);
    for (let i = 0; i < SERVICE_LIMITS.images; i++) expect((await add(s.id)).status).toBe(201);
    const seventh = await add(s.id);
    expect(seventh.status).toBe(409);
    expect(seventh.body.message).toBe("O serviço já tem 6 imagens. Remova uma para adicionar outra.");
    const [kept] = await db
      .selectFrom("service_images")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("service_id", "=", s.id)
      .execute();
    expect(Number(kept!.n)).toBe(SERVICE_LIMITS.images);

    const other = await createService(owner, validService);
    const svg = await add(other.id, new Blob(["<svg xmlns='http://www.w3.org/2000/svg'/>"], { type: "image/png" }));
    expect(svg.status).toBe(422);
    expect(svg.body.errors.image).toBe("A foto deve ser uma imagem JPEG, PNG ou WebP.");
    const none = await add(other.id, "");
    expect(none.status).toBe(422);
    expect(none.body.errors.image).toBe("Escolha uma imagem.");
    const image = (await add(other.id)).body.data[0].id;
    for (const position of [-1, 6, "primeira", null]) {
      const bad = await move(other.id, image, position);
      expect(bad.status).toBe(422);
      expect(bad.body.errors.position).toBe("Posição de imagem inválida.");
    }
  });

  it("only the owner: another freelancer's service is 404, a merchant 403, a visitor 401; archived is 409", async () => {
    const s = await createService(owner, validService);
    const image = (await add(s.id)).body.data[0].id;
    expect((await add(s.id, png(), otherToken)).status).toBe(404);
    expect((await move(s.id, image, 0, otherToken)).status).toBe(404);
    expect((await remove(s.id, image, otherToken)).status).toBe(404);
    expect((await add(s.id, png(), merchantToken)).status).toBe(403);
    const visitor = await call(
      imagesApi.action,
      new Request(`http://localhost/api/services/${s.id}/images`, { method: "POST", body: new FormData() }),
      { id: s.id },
    );
    expect(visitor.status).toBe(401);
    expect((await add("nao-existe")).status).toBe(404);
    await archiveService(owner, s.id);
    expect((await add(s.id)).status).toBe(409);
    expect((await remove(s.id, image)).status).toBe(409);
  });

  it("two adds at once past the limit: one wins, the other is 409", async () => {
    const s = await createService(owner, validService);
    for (let i = 0; i < SERVICE_LIMITS.images - 1; i++) await add(s.id);
    const both = await Promise.all([add(s.id), add(s.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await db
      .selectFrom("service_images")
      .select("position")
      .where("service_id", "=", s.id)
      .orderBy("position")
      .execute();
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe("where they show", () => {
  it("the first is the card's picture in the list (API and page), the page's gallery, Open Graph and JSON-LD", async () => {
    const s = await createService(owner, { ...validService, title: "Serviço com galeria de imagens" });
    const images = [(await add(s.id)).body.data, (await add(s.id)).body.data][1] as { url: string }[];
    await publishService(owner, s.id);
    const listed = await call(listApi.loader, jsonRequest("/api/services?q=galeria"));
    expect(listed.body.data.find((x: { id: string }) => x.id === s.id).cover_url).toBe(images[0]!.url);
    const card = await call(publicList.loader, new Request("http://localhost/servicos?q=galeria"));
    expect(card.body.list.data.find((x: { id: string }) => x.id === s.id).cover_url).toBe(images[0]!.url);

    const path = `/servicos/${s.slug}-${s.id}`;
    const page = await call(publicPage.loader, new Request(`http://localhost${path}`), { slug: `${s.slug}-${s.id}` });
    expect(page.status).toBe(200);
    expect(page.body.service.images.map((i: { url: string }) => i.url)).toEqual(images.map((i) => i.url));
    expect(page.body.seo.image).toMatch(new RegExp(`${images[0]!.url}$`));
    expect(page.body.ld.image).toHaveLength(2);
    expect(page.body.ld.image[0]).toMatch(/^https?:\/\/.+\/uploads\//);
  });
});

describe("the page without JavaScript (/meus-servicos/:id)", () => {
  const here = (id: string) => `/meus-servicos/${id}?imagens`;
  it("adds with a multipart form, moves and removes with buttons; a refusal comes back on its field", async () => {
    const s = await createService(owner, validService);
    const added = await call(
      editPage.action,
      multipartRequest(here(s.id), token, { intent: "image_add", image: png() }),
      {
        id: s.id,
      },
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/meus-servicos/${s.id}#imagens`);
    await call(editPage.action, multipartRequest(here(s.id), token, { intent: "image_add", image: png() }), {
      id: s.id,
    });
    const loaded = await call(editPage.loader, jsonRequest(`/meus-servicos/${s.id}`, undefined, { token }), {
      id: s.id,
    });
    const [a, b] = loaded.body.images as { id: string }[];

    const moved = await postForm(
      editPage,
      here(s.id),
      token,
      { intent: "image_move", image: b!.id, position: "0" },
      { id: s.id },
    );
    expect(moved.status).toBe(302);
    const removed = await postForm(editPage, here(s.id), token, { intent: "image_remove", image: a!.id }, { id: s.id });
    expect(removed.status).toBe(302);
    const after = await call(editPage.loader, jsonRequest(`/meus-servicos/${s.id}`, undefined, { token }), {
      id: s.id,
    });
    expect(after.body.images.map((i: { id: string }) => i.id)).toEqual([b!.id]);

    const refused = await call(
      editPage.action,
      multipartRequest(here(s.id), token, { intent: "image_add", image: new Blob(["não é imagem"]) }),
      { id: s.id },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.values.intent).toBe("image_add");
    expect(refused.body.errors.image).toBe("A foto deve ser uma imagem JPEG, PNG ou WebP.");
    // Another freelancer's service is not found here either.
    const theirs = await call(
      editPage.action,
      multipartRequest(here(s.id), otherToken, { intent: "image_add", image: png() }),
      {
        id: s.id,
      },
    );
    expect(theirs.status).toBe(404);
  });
});
