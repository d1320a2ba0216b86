import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import * as messagesRoute from "~/routes/api+/applications+/$id.messages";
import * as messagesPage from "~/routes/applications+/$id_.messages";
import { ContactNotice } from "~/components/messaging/contact-notice";
import { CONTACT_MASK } from "~/services/messaging/contact-detector.server";
import { PENDING_FILES_HOURS } from "~/services/messaging/pending-files.server";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { readAttachment } from "~/services/platform/uploads.server";
import { get } from "../operator/support";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

// A message with files that gets the contact notice (docs/product.md, "Contatos antes do
// pagamento") keeps its files: held as the sender's pending files, carried by their ids in the
// notice (a hidden field of the form, `pending_files` in the API) and attached on confirming;
// only the sender's own ids are taken, and the pruning deletes those never sent.

const PHONE = "Me chama no zap (11) 98765-4321";
const png = (name: string) => new File([PNG_1X1], name, { type: "image/png" });

/** The form as a browser posts it (multipart, for its file input), with its own fields. */
function form(path: string, token: string, fields: Record<string, string>, files: File[] = []) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) body.append("files", file);
  return new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body });
}

async function conversation() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  const app = await createApplication(db, {
    opportunity: await createOpportunity(db, { merchant_id: m.user.id }),
    freelancer_id: f.user.id,
  });
  return { m, f, app, path: `/applications/${app.id}/messages`, params: { id: app.id } };
}

const storageOf = async (user: Pick<UserRow, "id">) =>
  Number(
    (await db.selectFrom("users").select("storage_bytes").where("id", "=", user.id).executeTakeFirstOrThrow())
      .storage_bytes,
  );
const pendingOf = (user: Pick<UserRow, "id">) =>
  db.selectFrom("pending_files").selectAll().where("user_id", "=", user.id).execute();

describe("files of a message held by the contact notice", () => {
  it("the page without JavaScript: the notice keeps the files by their ids, confirming sends them", async () => {
    const { m, f, path, params } = await conversation();
    const refused = await call(
      messagesPage.action,
      form(path, f.token, { body: PHONE }, [png("orcamento.png"), png("cardapio.png")]),
      params,
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "contact_detected", values: { body: PHONE } });
    const held = refused.body.pending_files as { id: string; name: string }[];
    expect(held.map((x) => x.name)).toEqual(["orcamento.png", "cardapio.png"]);
    // Counted in the quota while held.
    expect(await storageOf(f.user)).toBe(2 * PNG_1X1.length);

    // The notice's form carries them in a hidden field.
    const html = renderToString(createElement(ContactNotice, { refusal: refused.body }));
    const ids = held.map((x) => x.id).join(",");
    expect(html).toContain(`name="pending_files" value="${ids}"`);

    // "Enviar mesmo assim": the form's fields again (the file input empty, as a browser sends it).
    const sent = await call(
      messagesPage.action,
      form(path, f.token, { body: PHONE, pending_files: ids, confirm_contact: "1" }, [new File([], "")]),
      params,
    );
    expect(sent.status).toBe(302);
    const thread = (await get(messagesPage, path, m.token, params)).body.conversation.data;
    expect(thread).toHaveLength(1);
    expect(thread[0].body).toBe(CONTACT_MASK);
    expect(thread[0].files.map((x: { name: string }) => x.name).sort()).toEqual(["cardapio.png", "orcamento.png"]);
    expect(await pendingOf(f.user)).toEqual([]);
    // Counted once.
    expect(await storageOf(f.user)).toBe(2 * PNG_1X1.length);

    // Taken once: the same ids again are refused on the files field, nothing sent.
    const again = await call(
      messagesPage.action,
      form(path, f.token, { body: PHONE, pending_files: ids, confirm_contact: "1" }),
      params,
    );
    expect(again.status).toBe(422);
    expect(again.body.errors.files).toBe("Os arquivos guardados não estão mais disponíveis: anexe-os de novo.");
  });

  it("editing the text after the notice keeps the files held, with the ones added since", async () => {
    const { m, f, path, params } = await conversation();
    const first = await call(messagesPage.action, form(path, f.token, { body: PHONE }, [png("a.png")]), params);
    const ids = first.body.pending_files.map((x: { id: string }) => x.id).join(",");
    const second = await call(
      messagesPage.action,
      form(path, f.token, { body: `${PHONE} ou fixo`, pending_files: ids }, [png("b.png")]),
      params,
    );
    expect(second.status).toBe(422);
    expect(second.body.pending_files.map((x: { name: string }) => x.name)).toEqual(["a.png", "b.png"]);
    const all = second.body.pending_files.map((x: { id: string }) => x.id).join(",");
    const sent = await call(
      messagesPage.action,
      form(path, f.token, { body: "Sem contato agora, segue o material.", pending_files: all }),
      params,
    );
    expect(sent.status).toBe(302);
    const thread = (await get(messagesPage, path, m.token, params)).body.conversation.data;
    expect(thread[0].files).toHaveLength(2);
  });

  it("only the sender's own ids are taken; anything else is a 422 on the files", async () => {
    const { m, f, app, path, params } = await conversation();
    const held = await call(messagesPage.action, form(path, f.token, { body: PHONE }, [png("a.png")]), params);
    const id = held.body.pending_files[0].id as string;
    // The other side of the same conversation cannot send the freelancer's file.
    const theirs = await call(
      messagesPage.action,
      form(path, m.token, { body: "Recebi, obrigado.", pending_files: id }),
      params,
    );
    expect(theirs.status).toBe(422);
    expect(theirs.body.errors.files).toMatch(/não estão mais disponíveis/);
    // Nor in another conversation of the sender.
    const other = await conversation();
    await db.updateTable("applications").set({ freelancer_id: f.user.id }).where("id", "=", other.app.id).execute();
    const elsewhere = await call(
      messagesPage.action,
      form(other.path, f.token, { body: "Segue o arquivo.", pending_files: id }),
      other.params,
    );
    expect(elsewhere.status).toBe(422);
    for (const bad of ["x", `${id},nope`, Array(7).fill(id).join(",")]) {
      const answer = await call(messagesPage.action, form(path, f.token, { body: "Oi!", pending_files: bad }), params);
      expect(answer.status).toBe(422);
    }
    const api = `/api/applications/${app.id}/messages`;
    for (const pending_files of [42, { id }, [id, 1], [null], true]) {
      const answer = await call(
        messagesRoute.action,
        jsonRequest(api, { body: "Oi!", pending_files }, { token: f.token }),
        params,
      );
      expect(answer.status).toBe(422);
    }
    // Still held, for its owner.
    expect((await pendingOf(f.user)).map((x) => x.id)).toEqual([id]);
    expect((await get(messagesPage, path, m.token, params)).body.conversation.data).toEqual([]);
  });

  it("by the API: the notice lists the files held, JSON with their ids and confirm_contact sends them", async () => {
    const { m, f, app, params } = await conversation();
    const api = `/api/applications/${app.id}/messages`;
    const body = new FormData();
    body.append("body", PHONE);
    body.append("files", png("planta.png"));
    const refused = await call(
      messagesRoute.action,
      new Request(BASE + api, { method: "POST", headers: { Authorization: `Bearer ${f.token}` }, body }),
      params,
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "contact_detected",
      pending_files: [{ name: "planta.png", size_bytes: PNG_1X1.length }],
    });
    const ids = refused.body.pending_files.map((x: { id: string }) => x.id);
    const sent = await call(
      messagesRoute.action,
      jsonRequest(api, { body: PHONE, confirm_contact: true, pending_files: ids }, { token: f.token }),
      params,
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data.files.map((x: { name: string }) => x.name)).toEqual(["planta.png"]);
    const read = await call(messagesRoute.loader, jsonRequest(api, undefined, { token: m.token }), params);
    expect(read.body.data[0]).toMatchObject({ body: CONTACT_MASK, files: [{ name: "planta.png" }] });
  });

  it("the pruning deletes the files never sent and gives their bytes back", async () => {
    const { f, path, params } = await conversation();
    await call(messagesPage.action, form(path, f.token, { body: PHONE }, [png("a.png")]), params);
    const [held] = await pendingOf(f.user);
    expect(await readAttachment(held!.stored_name)).not.toBeNull();
    await pruneExpired(new Date());
    expect(await pendingOf(f.user)).toHaveLength(1);
    const later = new Date(Date.now() + PENDING_FILES_HOURS * 3_600_000 + 60_000);
    expect((await pruneExpired(later)).pendingFiles).toBeGreaterThanOrEqual(1);
    expect((await pruneExpired(later)).pendingFiles).toBe(0);
    expect(await pendingOf(f.user)).toEqual([]);
    expect(await readAttachment(held!.stored_name)).toBeNull();
    expect(await storageOf(f.user)).toBe(0);
  });
});
