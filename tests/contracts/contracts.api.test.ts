import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import * as acceptRoute from "~/routes/api+/applications+/$id.accept";
import * as applicationRoute from "~/routes/api+/applications+/$id";
import * as approveRoute from "~/routes/api+/contracts+/$id.approve";
import * as cancelRoute from "~/routes/api+/contracts+/$id.cancel";
import * as acceptCancelRoute from "~/routes/api+/contracts+/$id.cancellation-requests.accept";
import * as requestCancelRoute from "~/routes/api+/contracts+/$id.cancellation-requests";
import * as changesRoute from "~/routes/api+/contracts+/$id.change-requests";
import * as deliveriesRoute from "~/routes/api+/contracts+/$id.deliveries";
import * as fileRoute from "~/routes/api+/contracts+/$id.files.$file";
import * as contractRoute from "~/routes/api+/contracts+/$id";
import * as listRoute from "~/routes/api+/contracts+/_index";
import * as dashboardRoute from "~/routes/api+/_account+/dashboard";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

type Who = { token: string };
const get = (route: { loader: any }, path: string, who?: Who, params: Record<string, string> = {}) =>
  call(route.loader, jsonRequest(path, undefined, { token: who?.token }), params);
const send = (
  route: { action: any },
  path: string,
  who: Who | undefined,
  body: unknown,
  params: Record<string, string> = {},
) => call(route.action, jsonRequest(path, body, { token: who?.token, method: "POST" }), params);

function multipart(path: string, who: Who, fields: Record<string, string>, files: File[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append("files", f);
  return new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${who.token}` }, body: form });
}

/** Hired through the API: the merchant accepts the freelancer's offer. */
async function hiredViaApi() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  const opp = await createOpportunity(db, { merchant_id: m.user.id });
  const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id, status: "pending" });
  const id = { id: app.id };
  const offer = (await get(applicationRoute, `/api/applications/${app.id}`, m, id)).body.data.offers[0];
  expect((await send(acceptRoute, `/api/applications/${app.id}/accept`, m, { offer_id: offer.id }, id)).status).toBe(
    200,
  );
  return { m, f, id, base: `/api/contracts/${app.id}`, price: app.price_cents };
}

describe("contracts by the API alone", () => {
  it("hire → deliver with files → ask for changes → deliver → approve", async () => {
    const { m, f, id, base, price } = await hiredViaApi();
    const first = await get(contractRoute, base, f, id);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: "in_progress",
      allowed_actions: ["deliver", "cancel", "open_dispute"],
    });

    const delivered = await call(
      deliveriesRoute.action,
      multipart(`${base}/deliveries`, f, { message: "Primeira versão pronta." }, [
        new File([PNG_1X1], "tela inicial.png"),
      ]),
      id,
    );
    expect(delivered.status).toBe(201);
    expect(delivered.body.data.status).toBe("delivered");
    const file = delivered.body.data.events.at(-1).files[0];
    expect(file).toMatchObject({
      name: "tela inicial.png",
      content_type: "image/png",
      url: `${base}/files/${file.id}`,
    });

    const download = await call(fileRoute.loader, jsonRequest(file.url, undefined, { token: m.token }), {
      ...id,
      file: file.id,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("image/png");
    expect(download.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(download.headers.get("Cache-Control")).toBe("private, no-store");
    expect(download.headers.get("Content-Disposition")).toContain("filename*=UTF-8''tela%20inicial.png");

    const changes = await send(changesRoute, `${base}/change-requests`, m, { message: "Aumentar o logotipo." }, id);
    expect(changes.status).toBe(201);
    expect(changes.body.data.status).toBe("in_progress");
    expect((await send(deliveriesRoute, `${base}/deliveries`, f, { message: "Logotipo maior." }, id)).status).toBe(201);
    const approved = await send(approveRoute, `${base}/approve`, m, undefined, id);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "completed", ended_by: "merchant", allowed_actions: [] });
    expect(approved.body.data.events.map((e: { kind: string }) => e.kind)).toEqual([
      "created",
      "delivered",
      "changes_requested",
      "delivered",
      "completed",
    ]);
    // The double click: the same approval again is a conflict, not a second completion.
    expect((await send(approveRoute, `${base}/approve`, m, undefined, id)).status).toBe(409);

    const list = await get(listRoute, "/api/contracts?status=completed", f);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([id.id]);
    const dashboard = await get(dashboardRoute, "/api/dashboard", f);
    expect(dashboard.body.data.figures).toMatchObject({
      contracts_in_progress: 0,
      contracts_awaiting_me: 0,
      contracts_completed_value_cents: price,
    });
  });

  it("answers 401, 403, 404, 409, 413, 415 and 422 where docs/product.md §7 says", async () => {
    const { m, f, id, base } = await hiredViaApi();
    const stranger = await signedInUser({ account_type: "merchant" });
    expect((await get(contractRoute, base, undefined, id)).status).toBe(401);
    expect((await get(contractRoute, base, stranger, id)).status).toBe(404);
    expect((await get(contractRoute, "/api/contracts/nope", m, { id: "nope" })).status).toBe(404);
    expect((await send(approveRoute, `${base}/approve`, f, undefined, id)).status).toBe(403);
    expect((await send(deliveriesRoute, `${base}/deliveries`, m, { message: "Eu entrego?" }, id)).status).toBe(403);
    expect((await send(approveRoute, `${base}/approve`, m, undefined, id)).status).toBe(409);
    expect(
      (await send(requestCancelRoute, `${base}/cancellation-requests`, m, { reason: "Sem entrega ainda." }, id)).status,
    ).toBe(409);

    const missing = await send(deliveriesRoute, `${base}/deliveries`, f, {}, id);
    expect(missing.status).toBe(422);
    expect(missing.body.errors.message).toBe("Descreva a entrega: este campo é obrigatório.");
    const wrongType = await call(
      deliveriesRoute.action,
      multipart(`${base}/deliveries`, f, { message: "Arquivo" }, [
        new File(["<script>alert(1)</script>"], "x.png", { type: "image/png" }),
      ]),
      id,
    );
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors.files).toMatch(/PDF/);
    const big = await call(
      deliveriesRoute.action,
      multipart(`${base}/deliveries`, f, { message: "Grande" }, [
        new File([Buffer.alloc(10 * 1024 * 1024 + 10)], "big.zip"),
      ]),
      id,
    );
    expect(big.status).toBe(413);
    const textPlain = await call(
      changesRoute.action,
      jsonRequest(`${base}/change-requests`, "message=oi", {
        token: m.token,
        headers: { "Content-Type": "text/plain" },
      }),
      id,
    );
    expect(textPlain.status).toBe(415);
    expect((await send(cancelRoute, `${base}/cancel`, m, { reason: "oi" }, id)).body.errors.reason).toBeTruthy();

    // A file of this contract is not reachable through another one, nor by a stranger.
    expect((await send(deliveriesRoute, `${base}/deliveries`, f, { message: "Sem arquivos." }, id)).status).toBe(201);
    expect(
      (await send(requestCancelRoute, `${base}/cancellation-requests`, m, { reason: "Desisti do projeto." }, id))
        .status,
    ).toBe(201);
    expect((await send(acceptCancelRoute, `${base}/cancellation-requests/accept`, m, undefined, id)).status).toBe(409);
    const accepted = await send(acceptCancelRoute, `${base}/cancellation-requests/accept`, f, undefined, id);
    expect(accepted.body.data).toMatchObject({
      status: "cancelled",
      ended_by: "merchant",
      end_reason: "Desisti do projeto.",
    });
  });
});
