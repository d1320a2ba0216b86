import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { answerOrder, answerOrderFile, getOrderFile, placeOrder } from "~/services/catalog/orders.server";
import { createService, publishService } from "~/services/catalog/services.server";
import { getContract } from "~/services/contracts/contracts.server";
import { quotaBytes } from "~/services/platform/storage.server";
import { readAttachment } from "~/services/platform/uploads.server";
import * as contractPage from "~/routes/contracts+/$id";
import * as fileApi from "~/routes/api+/contracts+/$id.order.files.$file";
import * as filesApi from "~/routes/api+/contracts+/$id.order.files._index";
import * as filePage from "~/routes/contracts+/$id_.order-files.$file";
import { PNG_1X1, validService } from "../support/fixtures";
import { call, jsonRequest, multipartRequest, signedInUser } from "../support/helpers";
import { notificationsOf, outcome, refusal } from "../support/market";
import { deliver } from "../payments/support";
import { unzipSync } from "fflate";
import { readDataExport, requestDataExport, runDataExports } from "~/services/accounts/data-export.server";

// A question of kind file answered with an upload (docs/product.md, "Contratar um serviço"): the
// file checked and kept as a contract's files, for the two sides only, replaced by a new one,
// kept by the text answers, refused after the first delivery; the page's form and the API.

const OLD = "2026-01-01T00:00:00.000Z";
const FILE_QUESTION = { text: "Envie o logotipo atual da marca", kind: "file", required: false };
const png = (name = "logo-atual.png") => new File([PNG_1X1], name, { type: "image/png" });

async function order() {
  const seller = await signedInUser({ account_type: "freelancer", created_at: OLD });
  const draft = await createService(seller.user, {
    ...validService,
    questions: [...validService.questions, FILE_QUESTION],
  });
  await publishService(seller.user, draft.id);
  const buyer = await signedInUser({ account_type: "merchant" });
  const { id } = await placeOrder(buyer.user, draft.id, {
    package_index: 0,
    expected_total_cents: 15_000,
    answers: ["Doce Lar", "Moderno"],
  });
  return { seller, buyer, id };
}

const storedOf = async (id: string) => {
  const row = await db.selectFrom("service_orders").select("answers").where("id", "=", id).executeTakeFirstOrThrow();
  return (JSON.parse(row.answers!) as { file?: { stored_name: string } }[])[2]!.file!.stored_name;
};

describe("a file answering an order's question", () => {
  it("is kept for the two sides only, replaced by a new one, kept by the text answers; the freelancer told", async () => {
    const { seller, buyer, id } = await order();
    const answered = await answerOrderFile(buyer.user, id, { question: 2 }, png());
    const file = answered.answers![2]!.file!;
    expect(answered.answers![2]).toMatchObject({
      question: FILE_QUESTION.text,
      kind: "file",
      answer: "logo-atual.png",
      file: {
        content_type: "image/png",
        size_bytes: PNG_1X1.byteLength,
        path: `/contracts/${id}/order-files/${file.id}`,
      },
    });
    expect(JSON.stringify(answered)).not.toContain("stored_name");
    for (const side of [buyer.user, seller.user]) {
      expect((await getOrderFile(side, id, file.id)).body.equals(PNG_1X1)).toBe(true);
    }
    const stranger = await signedInUser({ account_type: "merchant" });
    expect(await outcome(getOrderFile(stranger.user, id, file.id))).toBe(404);
    expect(await outcome(getOrderFile(buyer.user, id, "00000000-0000-4000-8000-000000000000"))).toBe(404);
    const told = (await notificationsOf(seller.user)).filter((n) => n.kind === "service_answered");
    expect(told.map((n) => n.application_id)).toEqual([id]);

    // The text answers corrected later keep the file.
    const texts = await answerOrder(buyer.user, id, { answers: ["Doce Lar Confeitaria", "Clássico"] });
    expect(texts.answers![2]!.file?.id).toBe(file.id);

    // A new file replaces it, and the first leaves the store.
    const first = await storedOf(id);
    const again = await answerOrderFile(buyer.user, id, { question: 2 }, png("versao-2.png"));
    expect(again.answers![2]).toMatchObject({ answer: "versao-2.png" });
    expect(again.answers![0]!.answer).toBe("Doce Lar Confeitaria");
    expect(await readAttachment(first)).toBeNull();
    expect(await outcome(getOrderFile(buyer.user, id, file.id))).toBe(404);
  });

  it("gives the replaced file's bytes back to the buyer's quota, even with the quota full", async () => {
    const { buyer, id } = await order();
    const used = async () =>
      Number(
        (await db.selectFrom("users").select("storage_bytes").where("id", "=", buyer.user.id).executeTakeFirstOrThrow())
          .storage_bytes,
      );
    const before = await used();
    await answerOrderFile(buyer.user, id, { question: 2 }, png());
    expect(await used()).toBe(before + PNG_1X1.byteLength);
    // A larger file in its place counts its own size only.
    const larger = new File([Buffer.concat([PNG_1X1, Buffer.alloc(500)])], "maior.png", { type: "image/png" });
    await answerOrderFile(buyer.user, id, { question: 2 }, larger);
    expect(await used()).toBe(before + larger.size);
    // At the quota, a file of the same size still takes the place of the one it replaces.
    await db.updateTable("users").set({ storage_bytes: quotaBytes() }).where("id", "=", buyer.user.id).execute();
    const same = new File([Buffer.concat([PNG_1X1, Buffer.alloc(500)])], "mesmo.png", { type: "image/png" });
    expect((await answerOrderFile(buyer.user, id, { question: 2 }, same)).answers![2]).toMatchObject({
      answer: "mesmo.png",
    });
    expect(await used()).toBe(quotaBytes());
    // One byte more is refused, and nothing moves: the file in place and the bytes counted stay.
    const over = new File([Buffer.concat([PNG_1X1, Buffer.alloc(501)])], "grande.png", { type: "image/png" });
    expect(await refusal(answerOrderFile(buyer.user, id, { question: 2 }, over))).toMatchObject({ status: 413 });
    expect(await used()).toBe(quotaBytes());
    expect((await getContract(buyer.user, id)).order!.answers![2]!.answer).toBe("mesmo.png");
  });

  it("is refused on its field: not a file question, no file, not a file we take, not the buyer, after the delivery", async () => {
    const { seller, buyer, id } = await order();
    expect(await refusal(answerOrderFile(buyer.user, id, { question: 0 }, png()))).toMatchObject({
      status: 422,
      fields: { question: "services:order_file_question_invalid" },
    });
    expect(await refusal(answerOrderFile(buyer.user, id, { question: "x" }, png()))).toMatchObject({ status: 422 });
    expect(await refusal(answerOrderFile(buyer.user, id, { question: 2 }, undefined))).toMatchObject({
      status: 422,
      fields: { files: "services:order_file_required" },
    });
    expect(
      await refusal(answerOrderFile(buyer.user, id, { question: 2 }, new File(["não é nada"], "a.png"))),
    ).toMatchObject({ status: 422, fields: { files: "file_invalid_type" } });
    expect(await outcome(answerOrderFile(seller.user, id, { question: 2 }, png()))).toBe(404);
    await deliver(seller.user, id);
    expect(await refusal(answerOrderFile(buyer.user, id, { question: 2 }, png()))).toMatchObject({
      status: 409,
      key: "services:order_answers_closed",
    });
    const row = await db.selectFrom("service_orders").select("answers").where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.answers!)[2].file).toBeUndefined();
  });

  it("goes by the contract page's multipart form (no JavaScript) and by the API", async () => {
    const { seller, buyer, id } = await order();
    const sent = await call(
      contractPage.action,
      multipartRequest(`/contracts/${id}`, buyer.token, { intent: "order_file", question: "2", files: png() }),
      { id },
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/contracts/${id}#order`);
    const refused = await call(
      contractPage.action,
      multipartRequest(`/contracts/${id}`, buyer.token, { intent: "order_file", question: "2" }),
      { id },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.files).toBe("Escolha o arquivo que responde a esta pergunta.");
    const page = await call(contractPage.loader, jsonRequest(`/contracts/${id}`, undefined, buyer), { id });
    const file = page.body.contract.order.answers[2].file;
    expect(file.path).toMatch(`/contracts/${id}/order-files/`);
    const download = await call(filePage.loader, jsonRequest(file.path, undefined, seller), { id, file: file.id });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("image/png");

    const viaApi = await call(
      filesApi.action,
      multipartRequest(`/api/contracts/${id}/order/files`, buyer.token, { question: "2", files: png("api.png") }),
      { id },
    );
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.message).toBe("Arquivo enviado.");
    const apiFile = viaApi.body.data.order.answers[2].file;
    expect(viaApi.body.data.order.answers[2].answer).toBe("api.png");
    const got = await call(
      fileApi.loader,
      jsonRequest(`/api/contracts/${id}/order/files/${apiFile.id}`, undefined, seller),
      { id, file: apiFile.id },
    );
    expect(got.status).toBe(200);
    const stranger = await signedInUser({ account_type: "freelancer" });
    const hidden = await call(
      fileApi.loader,
      jsonRequest(`/api/contracts/${id}/order/files/${apiFile.id}`, undefined, stranger),
      { id, file: apiFile.id },
    );
    expect(hidden.status).toBe(404);
    const wrong = await call(
      filesApi.action,
      multipartRequest(`/api/contracts/${id}/order/files`, buyer.token, { question: "9", files: png() }),
      { id },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.question).toBeTruthy();
    expect((await getContract(buyer.user, id)).order!.answers![2]!.answer).toBe("api.png");
  });

  it("is in the buyer's copy of the data, under files/orders/; the freelancer's copy names it", async () => {
    const { seller, buyer, id } = await order();
    const answered = await answerOrderFile(buyer.user, id, { question: 2 }, png());
    const fileId = answered.answers![2]!.file!.id;
    const copyOf = async (user: typeof buyer.user) => {
      const { export: asked } = await requestDataExport(user);
      await runDataExports();
      const { body } = await readDataExport(user, asked.id);
      return unzipSync(new Uint8Array(await new Response(body).arrayBuffer()));
    };
    const mine = await copyOf(buyer.user);
    const path = `files/orders/${id}/${fileId}-logo-atual.png`;
    expect(Buffer.from(mine[path]!).equals(PNG_1X1)).toBe(true);
    const orders = JSON.parse(new TextDecoder().decode(mine["service_orders.json"]));
    expect(orders[0].answers[2]).toMatchObject({ answer: "logo-atual.png", file: { id: fileId, path } });
    expect(JSON.stringify(orders)).not.toContain("stored_name");
    const theirs = await copyOf(seller.user);
    expect(Object.keys(theirs).some((name) => name.startsWith("files/orders/"))).toBe(false);
    const sold = JSON.parse(new TextDecoder().decode(theirs["service_orders.json"]));
    expect(sold[0].answers[2].file).toMatchObject({ id: fileId, content_type: "image/png" });
  });
});
