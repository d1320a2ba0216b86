import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { db, engine, migrateToLatest } from "../../db";
import { createUser } from "../../db/factories";
import { migrationProvider } from "../../migrations";
import { registerUser } from "~/services/accounts/accounts.server";
import { acceptTerms, legalPage, termsVersion } from "~/services/accounts/terms.server";
import * as acceptApi from "~/routes/api+/_account+/terms.accept";
import * as termsApi from "~/routes/api+/_account+/terms._index";
import * as acceptPage from "~/routes/_legal+/termos_.aceitar";
import * as termsPage from "~/routes/_legal+/termos";
import * as dashboardPage from "~/routes/_account+/dashboard";
import * as myApplicationsApi from "~/routes/api+/_account+/my-applications";
import { get, post, postForm } from "../operator/support";
import { signedInUser } from "../support/helpers";

const acceptances = (userId: string) =>
  db.selectFrom("terms_acceptances").selectAll().where("user_id", "=", userId).execute();

describe("terms of use and privacy policy", () => {
  it("are pages for anyone, in both languages, with the current version", async () => {
    const pt = legalPage("terms", "pt-BR");
    expect(pt.title).toBe("Termos de uso");
    expect(pt.version).toBe(termsVersion());
    expect(pt.html).toContain("<h2>");
    expect(pt.html).not.toContain("<h1>");
    expect(legalPage("privacy", "en").title).toBe("Privacy policy");
    const page = await get(termsPage, "/termos");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ title: "Termos de uso", version: termsVersion() });
    const api = await get(termsApi, "/api/terms");
    expect(api.body).toEqual({ data: { version: termsVersion(), terms_url: "/termos", privacy_url: "/privacidade" } });
  });

  it("are accepted by registering, with the version kept as a record", async () => {
    const user = await registerUser({
      email: `termos.${Date.now()}@example.com`,
      password: "senha-segura-123",
      full_name: "Teresa Termos",
      account_type: "freelancer",
    });
    expect(user.terms_version).toBe(termsVersion());
    const rows = await acceptances(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: termsVersion(), accepted_at: user.created_at });
  });

  it("ask an account on an older version to accept before any page or API call, then let it go on", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer", terms_version: "2020-01-01" });

    // Pages go to the terms, remembering where the user was going; the API answers 403.
    const page = await get(dashboardPage, "/dashboard?tab=x", token);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/termos/aceitar?redirectTo=${encodeURIComponent("/dashboard?tab=x")}`);
    const api = await get(myApplicationsApi, "/api/my-applications", token);
    expect(api.status).toBe(403);
    expect(api.body).toEqual({
      message:
        "Os Termos de uso e a Política de privacidade mudaram. Aceite a nova versão (POST /api/terms/accept) para continuar.",
      terms_version: termsVersion(),
    });
    const shown = await get(acceptPage, "/termos/aceitar?redirectTo=/dashboard", token);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ first: false, terms: { version: termsVersion() } });

    // The page's form needs the box ticked, and keeps the version read.
    const unticked = await postForm(acceptPage, "/termos/aceitar", token, { version: termsVersion() });
    expect(unticked.status).toBe(422);
    expect(unticked.body.errors).toEqual({ accept: "Marque que você leu e aceita os termos para continuar." });
    // A version other than the current one (the file changed while the page was open): 409.
    const stale = await postForm(acceptPage, "/termos/aceitar", token, { version: "2020-01-01", accept: "on" });
    expect(stale.status).toBe(409);
    expect(await acceptances(user.id)).toHaveLength(0);

    const accepted = await postForm(acceptPage, "/termos/aceitar", token, {
      version: termsVersion(),
      accept: "on",
      redirectTo: "/dashboard?tab=x",
    });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toBe("/dashboard?tab=x");
    expect(await acceptances(user.id)).toHaveLength(1);
    expect((await get(dashboardPage, "/dashboard", token)).status).toBe(200);
    expect((await get(myApplicationsApi, "/api/my-applications", token)).status).toBe(200);
    // Nothing more to accept: the page goes on, and the API records nothing twice.
    const again = await get(acceptPage, "/termos/aceitar?redirectTo=https://evil.example/x", token);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/dashboard");
    const twice = await post(acceptApi, "/api/terms/accept", token, { version: termsVersion() });
    expect(twice.status).toBe(200);
    expect(twice.body.data).toEqual({ version: termsVersion(), accepted_now: false });
    expect(await acceptances(user.id)).toHaveLength(1);
  });

  it("are accepted by the API with the version read; bad input is a 422, another version a 409", async () => {
    const { user, token } = await signedInUser({ account_type: "merchant", terms_version: null });
    for (const body of [{}, { version: "" }, { version: 12 }, { version: "x".repeat(41) }]) {
      const refused = await post(acceptApi, "/api/terms/accept", token, body);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ version: "Informe a versão dos termos que você leu." });
    }
    // Not a JSON object: the body reader's 400, as on every JSON endpoint.
    for (const body of [[], "x"]) expect((await post(acceptApi, "/api/terms/accept", token, body)).status).toBe(400);
    expect((await post(acceptApi, "/api/terms/accept", token, { version: "1999-01-01" })).status).toBe(409);
    expect((await post(acceptApi, "/api/terms/accept", undefined, { version: termsVersion() })).status).toBe(401);
    const ok = await post(acceptApi, "/api/terms/accept", token, { version: termsVersion() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      data: { version: termsVersion(), accepted_now: true },
      message: "Termos aceitos. Obrigado!",
    });
    const rows = await acceptances(user.id);
    expect(rows).toHaveLength(1);
    // Two acceptances at once: one record.
    const { user: other } = await signedInUser({ account_type: "merchant", terms_version: null });
    const both = await Promise.all([
      acceptTerms(other, { version: termsVersion() }, { ip: null }),
      acceptTerms(other, { version: termsVersion() }, { ip: null }),
    ]);
    expect(both.filter((r) => r.accepted_now)).toHaveLength(1);
    expect(await acceptances(other.id)).toHaveLength(1);
  });
});

describe("migration 038_terms", () => {
  it("leaves the accounts made before it without a version, so they are asked", async () => {
    const migrator = new Migrator({ db, provider: migrationProvider(engine) });
    expect((await migrator.migrateTo("030_two_factor")).error).toBeUndefined();
    const before = await createUser(db, { account_type: "freelancer", terms_version: null });
    await migrateToLatest();
    const row = await db
      .selectFrom("users")
      .select("terms_version")
      .where("id", "=", before.id)
      .executeTakeFirstOrThrow();
    expect(row.terms_version).toBeNull();
  });
});
