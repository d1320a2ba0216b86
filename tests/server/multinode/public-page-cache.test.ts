// A visitor's public opportunity page is kept rendered in each server process (app/web/
// public-page-cache.server.ts): a second visit is answered from it (X-Page-Cache: hit) with a
// fresh nonce, and a change made through the other server — an edit, closing it — is seen at the
// next visit, as is the page of a signed-in user, never served from it. Two servers (npm start,
// one worker each) on one database, on both engines.
import { describe, expect, it } from "vitest";
import { apiUser, fresh } from "../crash/server";
import { validOpportunity } from "../../support/fixtures";
import { twoServersFor } from "./two-servers";

const twoServers = twoServersFor("public-cache");

async function visit(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers: { Accept: "text/html", ...headers }, redirect: "manual" });
  const body = await res.text();
  const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
  return { status: res.status, hit: res.headers.get("X-Page-Cache") === "hit", body, nonce, headers: res.headers };
}

describe.each(["postgres", "sqlite"] as const)("public opportunity pages kept rendered (%s)", (engine) => {
  it("a visitor's second visit is kept; a change through the other server is seen at once", async () => {
    const [a, b] = (await twoServers(engine)).bases;
    const merchant = await apiUser(b, `marina.cache.${engine}@example.com`, "merchant");
    const created = await fresh(b, "POST", "/api/opportunities", { token: merchant.token, body: validOpportunity });
    expect(created.status).toBe(201);
    const uuid = (created.json.data as { uuid: string }).uuid;
    const path = ((await fresh(a, "GET", `/api/public/opportunities/${uuid}`)).json.data as { path: string }).path;

    const first = await visit(a, path);
    expect(first.status).toBe(200);
    expect(first.hit).toBe(false);
    const second = await visit(a, path);
    expect(second.status).toBe(200);
    expect(second.hit).toBe(true);
    expect(second.headers.get("Cache-Control")).toBe("public, max-age=60");
    // The same page, with a nonce of its own in the HTML and in the policy.
    expect(second.nonce).toBeTruthy();
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.headers.get("Content-Security-Policy")).toContain(second.nonce);
    expect(second.body.replaceAll(second.nonce!, "N")).toBe(first.body.replaceAll(first.nonce!, "N"));
    // In English: a page of its own.
    const english = await visit(a, path, { Cookie: "lng=ImVuIg%3D%3D" });
    expect(english.hit).toBe(false);
    expect((await visit(a, path, { Cookie: "lng=ImVuIg%3D%3D" })).hit).toBe(true);
    expect((await visit(a, path)).body).not.toBe(english.body);

    // Signed in, or with any other cookie or a query: rendered, private.
    const signedIn = await visit(a, path, { Authorization: `Bearer ${merchant.token}` });
    expect(signedIn.hit).toBe(false);
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await visit(a, path, { Cookie: "other=1" })).hit).toBe(false);
    expect((await visit(a, `${path}?x=1`)).hit).toBe(false);

    // Edited through B: A shows the new text at once.
    const description = "Descrição nova: catálogo, encomendas e entrega na região.";
    const edited = await fresh(b, "PATCH", `/api/opportunities/${uuid}`, {
      token: merchant.token,
      body: { description },
    });
    expect(edited.status).toBe(200);
    const after = await visit(a, path);
    expect(after.hit).toBe(false);
    expect(after.body).toContain(description);
    expect((await visit(a, path)).hit).toBe(true);

    // Closed through B: gone (410) on A at once, never the open page kept before.
    expect((await fresh(b, "POST", `/api/opportunities/${uuid}/close`, { token: merchant.token })).status).toBe(200);
    const closed = await visit(a, path);
    expect(closed.status).toBe(410);
    expect(closed.hit).toBe(false);
    expect(closed.body).not.toContain(description);
  }, 120_000);
});
