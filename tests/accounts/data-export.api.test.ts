import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { loader as stateLoader, action as askAction } from "~/routes/api+/_account+/account.export._index";
import { loader as downloadLoader } from "~/routes/api+/_account+/account.export.download";
import { loader as pageDownload } from "~/routes/_account+/account.data-export.$id";
import { action as securityAction, loader as securityLoader } from "~/routes/_account+/account.security";
import { runDataExports } from "~/services/accounts/data-export.server";
import { createSession } from "~/services/accounts/sessions.server";
import { sessionCookie } from "~/web/session.server";
import { db } from "../../db";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";

// The copy of one's data through the API and the security page (docs/api.md, "Seus dados"),
// on both engines: ask (202, the pending one again), state, download (409 before, the ZIP, 410
// after 7 days), someone else's copy 404, signed out 401 / the sign-in page.

const ask = (token?: string) => call(askAction, jsonRequest("/api/account/export", {}, { token }));
const state = (token?: string) => call(stateLoader, jsonRequest("/api/account/export", undefined, { token }));
const download = async (token: string) =>
  downloadLoader({
    request: jsonRequest("/api/account/export/download", undefined, { token }),
    params: {},
    context: {},
  });

async function cookieOf(userId: string) {
  const { token } = await createSession(userId);
  return (await sessionCookie.serialize(token)).split(";")[0];
}
async function page(id: string, cookie?: string) {
  try {
    return await pageDownload({
      request: new Request(`${BASE}/account/data-export/${id}`, { headers: cookie ? { Cookie: cookie } : {} }),
      params: { id },
      context: {},
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the copy of one's data over the API", () => {
  it("asks, shows the state, and downloads the owner's ZIP until it expires", async () => {
    const { user, token } = await signedInUser();
    expect((await state(token)).body).toEqual({ export: null });
    expect((await ask()).status).toBe(401);
    const first = await ask(token);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      created: true,
      export: { status: "pending", download_url: null },
      message: "Pedido recebido. Avisaremos por e-mail quando a cópia dos seus dados estiver pronta.",
    });
    const again = await ask(token);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ created: false, export: { id: first.body.export.id } });

    const early = await download(token);
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(
      "A cópia dos seus dados ainda está sendo preparada. Avisaremos por e-mail quando estiver pronta.",
    );

    await runDataExports();
    const ready = await state(token);
    expect(ready.body.export).toMatchObject({
      status: "ready",
      download_url: `/account/data-export/${first.body.export.id}`,
    });
    const zip = await download(token);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("Content-Type")).toBe("application/zip");
    expect(zip.headers.get("Content-Disposition")).toMatch(/^attachment; filename="freela-meus-dados-/);
    expect(zip.headers.get("Cache-Control")).toBe("private, no-store");
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(JSON.parse(new TextDecoder().decode(files["profile.json"])).email).toBe(user.email);

    // Seven days later.
    await db
      .updateTable("data_exports")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", user.id)
      .execute();
    const gone = await download(token);
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toMatch(/^Este link expirou/);
    expect((await state(token)).body.export.status).toBe("expired");
  });

  it("answers 404 to nothing asked for and to someone else's copy on the download page", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const none = await download(other.token);
    expect(none.status).toBe(404);
    expect((await none.json()).message).toBe("Cópia dos dados não encontrada.");

    const { body } = await ask(owner.token);
    await runDataExports();
    const id = body.export.id as string;
    const mine = await page(id, await cookieOf(owner.user.id));
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Content-Type")).toBe("application/zip");
    expect((await page(id, await cookieOf(other.user.id))).status).toBe(404);
    expect((await page("nao-e-um-id", await cookieOf(owner.user.id))).status).toBe(404);
    // Signed out: the sign-in page, then back to the link.
    const out = await page(id);
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toContain("/login");

    await db
      .updateTable("data_exports")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    const expired = await page(id, await cookieOf(owner.user.id));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toMatch(/^Este link expirou/);
  });

  it("is asked for from the security page without JavaScript, and shows its state there", async () => {
    const { user } = await signedInUser();
    const cookie = await cookieOf(user.id);
    const post = await securityAction({
      request: new Request(`${BASE}/account/security`, {
        method: "POST",
        body: new URLSearchParams({ intent: "data_export" }),
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      }),
      params: {},
      context: {},
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/account/security#data");
    const pageData = async () =>
      (await (
        await securityLoader({
          request: new Request(`${BASE}/account/security`, { headers: { Cookie: cookie } }),
          params: {},
          context: {},
        })
      ).json()) as { dataExport: { status: string } | null };
    expect((await pageData()).dataExport?.status).toBe("pending");
    await runDataExports();
    expect((await pageData()).dataExport?.status).toBe("ready");
    // Two more copies today, then the form says why not, on its own section.
    const askOnPage = () =>
      securityAction({
        request: new Request(`${BASE}/account/security`, {
          method: "POST",
          body: new URLSearchParams({ intent: "data_export" }),
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
        }),
        params: {},
        context: {},
      });
    for (let i = 0; i < 2; i++) {
      expect((await askOnPage()).status).toBe(302);
      await runDataExports();
    }
    const refused = await askOnPage();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      message: expect.stringMatching(/^Você já pediu várias cópias dos seus dados hoje/),
      values: { intent: "data_export" },
    });
  });
});
