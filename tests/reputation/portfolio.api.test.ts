import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { action as addAction, loader as listAction } from "~/routes/api+/_profiles+/portfolio._index";
import { action as itemAction } from "~/routes/api+/_profiles+/portfolio.$id";
import { readPhoto } from "~/services/platform/uploads.server";
import { PNG_1X1 } from "../support/fixtures";
import { call, jsonRequest, multipartRequest, signedInUser } from "../support/helpers";

const multipart = multipartRequest;

const item = { title: "Loja virtual da Padaria", description: "Catálogo, carrinho e pagamento por Pix." };

describe("portfolio API", () => {
  it("adds, edits (partially) and removes an item with an image in the photo store", async () => {
    const { token } = await signedInUser({ account_type: "freelancer" });
    const added = await call(
      addAction,
      multipart("/api/portfolio", token, { ...item, link: "https://padaria.example.com", image: new Blob([PNG_1X1]) }),
    );
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ ...item, link: "https://padaria.example.com" });
    const image = added.body.data.image_url.replace("/uploads/", "");
    expect((await readPhoto(image))?.contentType).toBe("image/png");

    const id = added.body.data.id;
    const edited = await call(
      itemAction,
      multipart(`/api/portfolio/${id}`, token, { title: "Loja da Padaria", link: "" }, "PATCH"),
      { id },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: "Loja da Padaria", description: item.description, link: null });
    expect(edited.body.data.image_url).toBe(added.body.data.image_url);

    const noImage = await call(itemAction, multipart(`/api/portfolio/${id}`, token, { remove_image: "1" }, "PATCH"), {
      id,
    });
    expect(noImage.body.data.image_url).toBeNull();
    expect(await readPhoto(image)).toBeNull();

    const removed = await call(
      itemAction,
      jsonRequest(`/api/portfolio/${id}`, undefined, { method: "DELETE", token }),
      { id },
    );
    expect(removed.status).toBe(200);
    const list = await call(listAction, jsonRequest("/api/portfolio", undefined, { token }));
    expect(list.body.data).toEqual([]);
  });

  it("refuses links that are not http(s), bad images, merchants and other people's items", async () => {
    const { token } = await signedInUser({ account_type: "freelancer" });
    for (const link of ["javascript:alert(1)", "data:text/html,x", "ftp://x.example.com", "nada"]) {
      const res = await call(addAction, multipart("/api/portfolio", token, { ...item, link }));
      expect(res.status).toBe(422);
      expect(res.body.errors.link).toBe("Informe um endereço que comece com http:// ou https://.");
    }
    const svg = await call(addAction, multipart("/api/portfolio", token, { ...item, image: new Blob(["<svg/>"]) }));
    expect(svg.status).toBe(422);
    expect(svg.body.errors.image).toBeTruthy();
    const empty = await call(addAction, multipart("/api/portfolio", token, {}));
    expect(Object.keys(empty.body.errors).sort()).toEqual(["description", "title"]);

    const merchant = await signedInUser({ account_type: "merchant" });
    expect((await call(addAction, multipart("/api/portfolio", merchant.token, item))).status).toBe(403);

    const mine = await call(addAction, multipart("/api/portfolio", token, item));
    const other = await signedInUser({ account_type: "freelancer" });
    const id = mine.body.data.id;
    const res = await call(itemAction, multipart(`/api/portfolio/${id}`, other.token, { title: "Roubado" }, "PATCH"), {
      id,
    });
    expect(res.status).toBe(404);
    const del = await call(
      itemAction,
      jsonRequest(`/api/portfolio/${id}`, undefined, { method: "DELETE", token: other.token }),
      { id },
    );
    expect(del.status).toBe(404);
  });

  it("holds at most 20 items, even when adds race", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const results = await Promise.all(
      Array.from({ length: 24 }, () => call(addAction, multipart("/api/portfolio", token, item))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    expect(refused[0].body.message).toContain("20 itens");
    const { n } = await db
      .selectFrom("portfolio_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(20);
  });
});
