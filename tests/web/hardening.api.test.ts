import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { action as profileUpdate, loader as profileLoader } from "~/routes/api+/_account+/profile";
import { action as apiLogin } from "~/routes/api+/_auth+/login";
import { action as apiRegister } from "~/routes/api+/_auth+/register";
import { action as apiLogout } from "~/routes/api+/_auth+/logout";
import { action as loginPage } from "~/routes/_auth+/login";
import { action as languagePage } from "~/routes/language";
import { action as settingsPage } from "~/routes/_account+/pages.profile-setting";
import { api } from "~/web/api.server";
import { apiRoute } from "~/web/api-route.server";
import { WRITES_PER_MINUTE, consumeWrite, limiters } from "~/services/platform/rate-limit.server";
import { createSession, findSessionUser } from "~/services/accounts/sessions.server";
import { sessionCookie } from "~/web/session.server";
import { action as opportunitiesApi } from "~/routes/api+/opportunities+/_index";
import { action as savedSearchesApi } from "~/routes/api+/_account+/saved-searches._index";
import { milestoneInputSchema, payoutAccountSchema } from "~/lib/payments-schemas";
import { renamePasskey } from "~/services/accounts/passkeys.server";
import { createOperator } from "~/services/operator/operators.server";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { validOpportunity } from "../support/fixtures";

const EVIL = "https://evil.example";

async function cookieFor(userId: string) {
  const { token } = await createSession(userId);
  return { token, cookie: await sessionCookie.serialize(token) };
}

function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(BASE + path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("cross-site writes", () => {
  it("a page form posted from another site is refused with 403 and changes nothing", async () => {
    const user = await createUser(db, { full_name: "Nome Original" });
    const { cookie } = await cookieFor(user.id);
    const res = await call(
      settingsPage,
      formPost(
        "/pages/profile-setting",
        { full_name: "Nome Trocado", bio: "", skills: "" },
        { Cookie: cookie, Origin: EVIL },
      ),
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^Requisição recusada/);
    const row = await db.selectFrom("users").select("full_name").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.full_name).toBe("Nome Original");
  });

  it("the same form from this site goes through", async () => {
    const user = await createUser(db);
    const { cookie } = await cookieFor(user.id);
    const res = await call(
      settingsPage,
      formPost(
        "/pages/profile-setting",
        { full_name: "Nome Novo", bio: "", skills: "" },
        { Cookie: cookie, Origin: BASE },
      ),
    );
    expect(res.status).toBe(302);
    const row = await db.selectFrom("users").select("full_name").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.full_name).toBe("Nome Novo");
  });

  it("visitor forms (login, language) refuse another site's post", async () => {
    const user = await createUser(db);
    const login = await call(
      loginPage,
      formPost("/login", { email: user.email, password: user.password }, { Origin: EVIL }),
    );
    expect(login.status).toBe(403);
    const lang = await call(languagePage, formPost("/language", { lng: "en" }, { "Sec-Fetch-Site": "cross-site" }));
    expect(lang.status).toBe(403);
    expect(lang.headers.get("Set-Cookie")).toBeNull();
  });

  it("API writes with the browser's cookie from another site are refused", async () => {
    const user = await createUser(db);
    const { token, cookie } = await cookieFor(user.id);
    const form = new FormData();
    form.set("full_name", "Invasor");
    const res = await call(
      profileUpdate,
      new Request(`${BASE}/api/profile`, { method: "POST", body: form, headers: { Cookie: cookie, Origin: EVIL } }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.stringMatching(/^Requisição recusada/) });
    const logout = await call(apiLogout, jsonRequest("/api/logout", {}, { headers: { Cookie: cookie, Origin: EVIL } }));
    expect(logout.status).toBe(403);
    expect(await findSessionUser(token)).not.toBeNull();
    const register = await call(
      apiRegister,
      jsonRequest(
        "/api/register",
        { full_name: "Cross Site", email: "cross@example.com", password: "segredo123", account_type: "freelancer" },
        { headers: { Origin: EVIL } },
      ),
    );
    expect(register.status).toBe(403);
    expect(register.body.success).toBe(false);
    const login = await call(
      apiLogin,
      jsonRequest("/api/login", { email: user.email, password: user.password }, { headers: { Origin: EVIL } }),
    );
    expect(login.status).toBe(403);
  });

  it("a Bearer client without cookies may write from anywhere", async () => {
    const { token } = await signedInUser();
    const form = new FormData();
    form.set("full_name", "Cliente Da Api");
    const res = await call(
      profileUpdate,
      new Request(`${BASE}/api/profile`, {
        method: "POST",
        body: form,
        headers: { Authorization: `Bearer ${token}`, Origin: "https://app.parceiro.example" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.user.full_name).toBe("Cliente Da Api");
  });
});

describe("page login", () => {
  it("issues a new session and ends the one the browser carried", async () => {
    const user = await createUser(db);
    const { token: old, cookie } = await cookieFor(user.id);
    const res = await call(
      loginPage,
      formPost("/login", { email: user.email, password: user.password }, { Cookie: cookie, Origin: BASE }),
    );
    expect(res.status).toBe(302);
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    const fresh = await sessionCookie.parse(
      setCookie.split(/,(?=\s*freela_session=)/).find((c) => c.includes("freela_session=")) ?? "",
    );
    expect(typeof fresh).toBe("string");
    expect(fresh).not.toBe(old);
    expect(await findSessionUser(fresh)).not.toBeNull();
    expect(await findSessionUser(old)).toBeNull();
  });
});

describe("write rate limit", () => {
  it("allows the per-minute budget and refuses the next write with a 429", async () => {
    const id = `limit-${Date.now()}`;
    for (let i = 0; i < WRITES_PER_MINUTE; i++) await consumeWrite(id);
    await expect(consumeWrite(id)).rejects.toMatchObject({ status: 429, key: "write_rate_limited" });
    // Another user's budget is untouched.
    await expect(consumeWrite(`${id}-other`)).resolves.toBeUndefined();
  });

  it("profile updates past the limit answer 429 with Retry-After and change nothing", async () => {
    const { user, token } = await signedInUser({ full_name: "Antes Do Limite" });
    await limiters.writeByUser.penalty(user.id, WRITES_PER_MINUTE);
    const form = new FormData();
    form.set("full_name", "Depois Do Limite");
    const res = await call(
      profileUpdate,
      new Request(`${BASE}/api/profile`, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body.message).toBe(
      `Muitas alterações em pouco tempo. Aguarde ${retryAfter} segundo(s) e tente novamente.`,
    );
    const row = await db.selectFrom("users").select("full_name").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.full_name).toBe("Antes Do Limite");
  });

  it("the settings page shows the limit as a form message with Retry-After", async () => {
    const user = await createUser(db);
    const { cookie } = await cookieFor(user.id);
    await limiters.writeByUser.penalty(user.id, WRITES_PER_MINUTE);
    const res = await call(
      settingsPage,
      formPost("/pages/profile-setting", { full_name: "Nome Qualquer", bio: "", skills: "" }, { Cookie: cookie }),
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/^Muitas alterações em pouco tempo/);
    expect(res.body.values.full_name).toBe("Nome Qualquer");
  });
});

describe("API answers", () => {
  it("carry nosniff, a locked-down CSP and no-store, refusals included", async () => {
    const { token } = await signedInUser();
    const ok = await call(profileLoader, jsonRequest("/api/profile", undefined, { token }));
    const refused = await call(profileLoader, jsonRequest("/api/profile"));
    const registered = await call(apiRegister, jsonRequest("/api/register", {}));
    for (const res of [ok, refused, registered]) {
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
    expect([ok.status, refused.status, registered.status]).toEqual([200, 401, 422]);
  });
});

describe("unexpected errors in the API", () => {
  it("answer a generic message without the error's text, SQL or paths", async () => {
    const handler = api(async () => {
      throw new Error("SqliteError: no such table: users (SELECT * FROM users) at /work/main/db/index.ts:12");
    });
    const original = console.error;
    console.error = () => undefined;
    try {
      const res = await call(handler, jsonRequest("/api/anything"));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: "Erro interno. Tente novamente." });
    } finally {
      console.error = original;
    }
  });
});

describe("odd ids in the path", () => {
  // PostgreSQL refuses a NUL character in text outright; no id may reach it as an error.
  const ODD = ["\u0000", "a\u0000b", "\ud800", "x".repeat(5000), "'; DROP TABLE users; --", "%00", "../../etc/passwd"];

  it.each(ODD.map((id) => [JSON.stringify(id).slice(0, 30), id]))(
    "%s is a 404 everywhere, never a 500",
    async (_label, id) => {
      const merchant = await signedInUser({ account_type: "merchant" });
      const freelancer = await signedInUser({ account_type: "freelancer" });
      const routes = await Promise.all([
        import("~/routes/api+/opportunities+/$uuid"),
        import("~/routes/api+/opportunities+/$uuid.applications"),
        import("~/routes/api+/opportunities+/$uuid.close"),
        import("~/routes/api+/opportunities+/$uuid.reopen"),
        import("~/routes/api+/applications+/$id"),
        import("~/routes/api+/applications+/$id.offers"),
        import("~/routes/api+/applications+/$id.accept"),
        import("~/routes/api+/applications+/$id.reject"),
        import("~/routes/api+/applications+/$id.withdraw"),
      ]);
      const params = { uuid: id, id };
      const body = {
        offer_id: "x",
        price_cents: 1000,
        delivery_days: 3,
        cover_letter: "Carta de apresentação válida.",
      };
      for (const who of [merchant, freelancer]) {
        for (const route of routes) {
          const handlers = [
            "loader" in route && route.loader !== route.action
              ? call(route.loader as never, jsonRequest("/x", undefined, { token: who.token }), params)
              : null,
            "action" in route
              ? call(route.action as never, jsonRequest("/x", body, { token: who.token }), params)
              : null,
          ];
          for (const res of await Promise.all(handlers.filter(Boolean))) {
            expect(res!.status, JSON.stringify(res!.body)).toBeLessThan(500);
          }
        }
      }
    },
  );

  it("odd notification ids are refused or ignored, never a 500", async () => {
    const user = await signedInUser();
    const read = await import("~/routes/api+/_account+/notifications.read");
    for (const ids of [["\u0000"], ["a\u0000b", "\ud800"], ["x".repeat(5000)]]) {
      const res = await call(read.action, jsonRequest("/api/notifications/read", { ids }, { token: user.token }));
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    }
  });
});

describe("a NUL character anywhere a client may type", () => {
  it("is refused or harmless on login, register and search, never a 500", async () => {
    const user = await signedInUser();
    const search = await import("~/routes/api+/opportunities+/_index");
    const answers = await Promise.all([
      call(apiLogin, jsonRequest("/api/login", { email: "a\u0000@example.com", password: "senha-segura-1" })),
      call(apiLogin, jsonRequest("/api/login", { email: user.user.email, password: "senha\u0000segura" })),
      call(
        apiRegister,
        jsonRequest("/api/register", {
          full_name: "Nome\u0000Completo",
          email: "nul\u0000@example.com",
          password: "senha-segura-1",
          account_type: "freelancer",
        }),
      ),
      call(
        search.loader,
        jsonRequest("/api/opportunities?q=site%00padaria&category=%00", undefined, { token: user.token }),
      ),
    ]);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  });
});

describe("POST-only endpoints (apiRoute)", () => {
  it("answer any other method with the 405, its body and API headers, without running the handler", async () => {
    let ran = 0;
    const { action } = apiRoute({
      POST: {
        auth: "public",
        handle: async () => {
          ran++;
          return new Response(null, { status: 204 });
        },
      },
    });
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await call(action, new Request(`${BASE}/api/x`, { method }));
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ message: expect.any(String) });
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
    expect(ran).toBe(0);
    expect((await call(action, new Request(`${BASE}/api/x`, { method: "POST" }))).status).toBe(204);
    expect(ran).toBe(1);
  });

  it("a real route answers a PUT with 405, and a cross-site PUT with 403 as before", async () => {
    const user = await signedInUser();
    const close = await import("~/routes/api+/opportunities+/$uuid.close");
    const put = (headers: Record<string, string>) =>
      new Request(`${BASE}/api/opportunities/x/close`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${user.token}`, ...headers },
      });
    expect((await call(close.action, put({}), { uuid: "x" })).status).toBe(405);
    expect((await call(close.action, put({ Cookie: "a=b", Origin: EVIL }), { uuid: "x" })).status).toBe(403);
  });
});

/** The profile's form (POST /api/profile takes a form, with or without a photo). */
const profileForm = (token: string, fields: Record<string, string>) =>
  formPost("/api/profile", fields, { Authorization: `Bearer ${token}` });

describe("line breaks in one-line fields", () => {
  // A name or a title goes into other people's e-mails (subjects included) as it is: with line
  // breaks it could write a fake notice of its own there.
  const FORGED = "Ana\n\nAVISO DO FREELA: evil.example";
  const BREAKS = [FORGED, "Ana\rSilva", "Ana\u2028Silva", "Ana\u2029Silva"];
  const MESSAGE = "Este campo tem uma linha só: tire as quebras de linha.";

  it("are refused with a Portuguese message by the API: registration, profile, opportunity, saved search", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    for (const value of BREAKS) {
      const register = await call(
        apiRegister,
        jsonRequest("/api/register", {
          full_name: value,
          display_name: value,
          email: `quebra${Math.random()}@example.com`,
          password: "segredo12345",
          account_type: "freelancer",
        }),
      );
      expect([register.status, register.body.errors?.full_name, register.body.errors?.display_name]).toEqual([
        422,
        MESSAGE,
        MESSAGE,
      ]);
      for (const field of ["full_name", "display_name", "city"]) {
        const res = await call(profileUpdate, profileForm(freelancer.token, { [field]: value }));
        expect([field, res.status, res.body.errors?.[field]]).toEqual([field, 422, MESSAGE]);
      }
      const opportunity = await call(
        opportunitiesApi,
        jsonRequest("/api/opportunities", { ...validOpportunity, title: value }, { token: merchant.token }),
      );
      expect([opportunity.status, opportunity.body.errors?.title]).toEqual([422, MESSAGE]);
      const search = await call(
        savedSearchesApi,
        jsonRequest("/api/saved-searches", { name: value, frequency: "daily" }, { token: freelancer.token }),
      );
      expect([search.status, search.body.errors?.name]).toEqual([422, MESSAGE]);
    }
    const row = await db
      .selectFrom("users")
      .select(["full_name", "display_name", "city"])
      .where("id", "=", freelancer.user.id)
      .executeTakeFirstOrThrow();
    expect(Object.values(row).join("")).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(
      await db.selectFrom("opportunities").select("id").where("merchant_id", "=", merchant.user.id).execute(),
    ).toEqual([]);
    // A field of many lines still takes them.
    const described = await call(
      opportunitiesApi,
      jsonRequest(
        "/api/opportunities",
        { ...validOpportunity, description: "Primeira linha do trabalho.\nSegunda linha, com detalhes." },
        { token: merchant.token },
      ),
    );
    expect(described.status).toBe(201);
  });

  it("are refused in milestones, the payout holder, passkey names, operators and skills", async () => {
    const key = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
      r.success ? null : r.error!.issues[0]!.message;
    expect(key(milestoneInputSchema.safeParse({ title: FORGED, amount_cents: 10_000, days: 5 }))).toBe(
      "text_line_break",
    );
    expect(
      payoutAccountSchema
        .safeParse({ key_type: "email", pix_key: "a@example.com", holder_name: FORGED })
        .error?.issues.map((i) => i.message),
    ).toContain("text_line_break");
    const user = await createUser(db);
    await expect(renamePasskey(user, "x", { name: FORGED })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { name: "text_line_break" },
    });
    await expect(createOperator({ email: "op-quebra@example.com", name: FORGED })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { name: "text_line_break" },
    });
    const skills = await call(profileUpdate, profileForm((await signedInUser()).token, { skills: "React\nAVISO" }));
    expect(skills.status).toBe(422);
  });
});
