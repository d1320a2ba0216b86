import { describe, expect, it } from "vitest";
import * as root from "~/root";
import * as messagesPage from "~/routes/applications+/$id_.messages";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import { get, toastOf } from "../operator/support";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, signedInUser } from "../support/helpers";

// The conversation page's form as a browser without JavaScript posts it (the form's own fields,
// multipart, for its files), on both engines: a message without text refused on its field, one
// with a file sent (redirect and toast), the unread count the top bar shows on the next page,
// and the answer shown when the page is read again. The browser story (tests/e2e/messages.spec.ts)
// runs with JavaScript, live.

function send(path: string, token: string, body: string, files: File[] = []) {
  const form = new FormData();
  form.append("body", body);
  for (const file of files) form.append("files", file);
  return new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
}

describe("the conversation page without JavaScript", () => {
  it("refuses an empty message on its field, sends one with a file, counts it unread until opened", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    const f = await signedInUser({ account_type: "freelancer" });
    const app = await createApplication(db, {
      opportunity: await createOpportunity(db, { merchant_id: m.user.id }),
      freelancer_id: f.user.id,
    });
    const path = `/applications/${app.id}/messages`;
    const params = { id: app.id };
    const unread = async (token: string, at: string) => (await get(root, at, token)).body.messages.total;
    expect(await unread(m.token, "/dashboard")).toBe(0);

    const empty = await call(messagesPage.action, send(path, f.token, ""), params);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body).toBe("Escreva a mensagem: este campo é obrigatório.");
    const sent = await call(
      messagesPage.action,
      send(path, f.token, "Olá! Segue um exemplo de cardápio que fiz.", [
        new File([PNG_1X1], "exemplo.png", { type: "image/png" }),
      ]),
      params,
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`${path}#latest`);
    expect(await toastOf(sent)).toBe("Mensagem enviada.");
    const thread = (await get(messagesPage, path, f.token, params)).body.conversation.data;
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({
      body: "Olá! Segue um exemplo de cardápio que fiz.",
      files: [{ name: "exemplo.png" }],
    });

    // The merchant's next page counts it in the top bar; opening the conversation reads it.
    expect(await unread(m.token, "/dashboard")).toBe(1);
    expect(await unread(m.token, path)).toBe(0);
    expect((await get(messagesPage, path, m.token, params)).status).toBe(200);
    expect(await unread(m.token, "/dashboard")).toBe(0);

    const answer = await call(
      messagesPage.action,
      send(path, m.token, "Gostei! Pode fazer um com fundo claro?"),
      params,
    );
    expect(answer.status).toBe(302);
    expect(await toastOf(answer)).toBe("Mensagem enviada.");
    // The freelancer's page read again (a reload) shows the answer.
    const again = (await get(messagesPage, path, f.token, params)).body.conversation.data;
    expect(again.map((message: { body: string }) => message.body)).toEqual([
      "Olá! Segue um exemplo de cardápio que fiz.",
      "Gostei! Pode fazer um com fundo claro?",
    ]);
  });
});
