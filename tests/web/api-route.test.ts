// The API route declaration (app/web/api-route.server.ts): the order of its checks decides the
// status a bad request gets, so each step is held here: session (401), role (403), body (415,
// 400, 413), path ids (404 with the route's message), then the handler; undeclared methods 405.
import { describe, expect, it } from "vitest";
import { apiRoute } from "~/web/api-route.server";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

const ID = "3f0c9a2e-1b4d-4c6e-8f00-123456789abc";

function echoRoute() {
  const seen: unknown[] = [];
  const route = apiRoute({
    GET: { ids: { id: "profile_not_found" }, handle: async ({ params, query }) => ({ id: params.id, query }) },
    POST: {
      may: "opportunity.create",
      body: "json",
      ids: { id: "not_found" },
      status: 201,
      message: "opportunity_created",
      handle: async ({ user, params, body }) => {
        seen.push(body);
        return { data: { by: user.id, id: params.id } };
      },
    },
  });
  return { ...route, seen };
}

describe("apiRoute", () => {
  it("reads, checks and answers in order: 401, 403, body, 404, then the handler with status and message", async () => {
    const { action, seen } = echoRoute();
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const post = (token: string | undefined, body: unknown, id = ID) =>
      call(action, jsonRequest(`/api/x/${id}`, body, { token }), { id });

    expect((await post(undefined, "{")).status).toBe(401);
    // The role is refused before the body is read: a malformed body changes nothing.
    const wrongRole = await post(freelancer.token, "{");
    expect(wrongRole).toMatchObject({ status: 403, body: { message: expect.any(String) } });
    expect((await post(merchant.token, "{")).status).toBe(400);
    // The id is checked after the body, with the route's message.
    const badId = await post(merchant.token, { a: 1 }, "x%00");
    expect(badId.status).toBe(404);
    expect(badId.body.message).toBe((await post(merchant.token, { a: 1 }, "nada")).body.message);

    const ok = await post(merchant.token, { a: 1 });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ data: { by: merchant.user.id, id: ID }, message: expect.any(String) });
    expect(Object.keys(ok.body)).toEqual(["data", "message"]);
    expect(ok.headers.get("Cache-Control")).toBe("no-store");
    expect(seen).toEqual([{ a: 1 }]);
  });

  it("checks ids in GET paths too, with the declared message, and hands the query over", async () => {
    const { loader } = echoRoute();
    const { token } = await signedInUser();
    for (const id of ["", "x", "3F0C9A2E-1B4D-4C6E-8F00-123456789ABC", `${ID}0`, "ü", "\u0000"]) {
      const res = await call(loader, jsonRequest(`/api/x/${encodeURIComponent(id)}`, undefined, { token }), { id });
      expect(res.status, id).toBe(404);
      expect(res.body.message).toMatch(/perfil/i);
    }
    const res = await call(loader, jsonRequest(`/api/x/${ID}?page=2`, undefined, { token }), { id: ID });
    expect(res).toMatchObject({ status: 200, body: { id: ID, query: { page: "2" } } });
  });

  it("answers 405 for undeclared methods; a route without writes answers them without the origin check", async () => {
    const { action } = echoRoute();
    const { token } = await signedInUser({ account_type: "merchant" });
    const put = await call(action, jsonRequest(`/api/x/${ID}`, {}, { token, method: "PUT" }), { id: ID });
    expect(put.status).toBe(405);
    const readOnly = apiRoute({ GET: { handle: async () => ({}) } });
    const crossSite = new Request(`${BASE}/api/y`, {
      method: "POST",
      headers: { Origin: "https://evil.example", Cookie: "a=b" },
    });
    expect((await call(readOnly.action, crossSite)).status).toBe(405);
    expect((await call(readOnly.loader, jsonRequest("/api/y", undefined, { token }))).status).toBe(200);
    expect((await call(apiRoute({ POST: { handle: async () => ({}) } }).loader, jsonRequest("/api/y"))).status).toBe(
      405,
    );
  });

  it("wraps answers with success true or false when declared, refusals included", async () => {
    const { action } = apiRoute({
      POST: {
        auth: "public",
        body: "json",
        success: true,
        message: "register_success",
        handle: async () => ({ data: 1 }),
      },
    });
    const ok = await call(action, jsonRequest("/api/r", {}));
    expect(Object.keys(ok.body)).toEqual(["success", "data", "message"]);
    expect(ok.body.success).toBe(true);
    const refused = await call(action, jsonRequest("/api/r", "[1]"));
    expect(refused).toMatchObject({ status: 400, body: { success: false, message: expect.any(String) } });
    const get = await call(action, jsonRequest("/api/r", {}, { method: "PATCH" }));
    expect(get.status).toBe(405);
    expect(get.body.success).toBeUndefined();
  });
});
