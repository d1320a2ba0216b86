import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import * as fileRoute from "~/routes/api+/applications+/$id.messages.files.$file";
import * as messagesRoute from "~/routes/api+/applications+/$id.messages";
import * as unreadRoute from "~/routes/api+/_account+/messages.unread";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

function multipart(path: string, token: string, body: string, files: File[]) {
  const form = new FormData();
  form.append("body", body);
  for (const f of files) form.append("files", f);
  return new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
}

describe("messages by the API", () => {
  it("send with files, read (which marks read), unread counts, files for the two sides only", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    const f = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: m.user.id });
    const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id });
    const id = { id: app.id };
    const path = `/api/applications/${app.id}/messages`;

    const sent = await call(
      messagesRoute.action,
      multipart(path, f.token, "Segue meu portfólio.", [new File([PNG_1X1], "portfolio.png")]),
      id,
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      seq: 1,
      author: "freelancer",
      body: "Segue meu portfólio.",
      files: [{ name: "portfolio.png" }],
    });
    const json = await call(
      messagesRoute.action,
      jsonRequest(path, { body: "E mais uma coisa." }, { token: f.token }),
      id,
    );
    expect(json.status).toBe(201);

    expect(
      (await call(unreadRoute.loader, jsonRequest("/api/messages/unread", undefined, { token: m.token }))).body,
    ).toEqual({
      total: 2,
      by_application: { [app.id]: 2 },
    });
    const read = await call(messagesRoute.loader, jsonRequest(path, undefined, { token: m.token }), id);
    expect(read.body).toMatchObject({ open: true, unread_count: 2 });
    expect(read.body.data).toHaveLength(2);
    expect(
      (await call(unreadRoute.loader, jsonRequest("/api/messages/unread", undefined, { token: m.token }))).body.total,
    ).toBe(0);

    const file = sent.body.data.files[0];
    const download = await call(fileRoute.loader, jsonRequest(file.url, undefined, { token: m.token }), {
      ...id,
      file: file.id,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("image/png");
    const stranger = await signedInUser({ account_type: "freelancer" });
    expect(
      (
        await call(fileRoute.loader, jsonRequest(file.url, undefined, { token: stranger.token }), {
          ...id,
          file: file.id,
        })
      ).status,
    ).toBe(404);
    expect((await call(messagesRoute.loader, jsonRequest(path, undefined, { token: stranger.token }), id)).status).toBe(
      404,
    );
    expect(
      (await call(messagesRoute.action, jsonRequest(path, { body: "Oi" }, { token: stranger.token }), id)).status,
    ).toBe(404);

    const empty = await call(messagesRoute.action, jsonRequest(path, { body: "" }, { token: m.token }), id);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body).toBe("Escreva a mensagem: este campo é obrigatório.");
    const tooBig = await call(
      messagesRoute.action,
      multipart(path, m.token, "Grande", [new File([new Uint8Array(10 * 1024 * 1024 + 1)], "g.zip")]),
      id,
    );
    expect(tooBig.status).toBe(413);
    const plain = await call(
      messagesRoute.action,
      jsonRequest(path, "body=oi", { token: m.token, headers: { "Content-Type": "text/plain" } }),
      id,
    );
    expect(plain.status).toBe(415);
  });
});
