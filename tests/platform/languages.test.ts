import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { formatMoney } from "~/lib/format";
import * as registerPage from "~/routes/_auth+/register";
import { loader as publicOpportunity } from "~/routes/_public+/vagas.$slug";
import { legalPage } from "~/services/accounts/terms.server";
import { getPublicOpportunity } from "~/services/discovery/public.server";
import { fixedT } from "~/services/platform/i18n.server";
import { i18nServer, localeCookie } from "~/web/i18n.server";
import { BASE, call, mailsTo } from "../support/helpers";

// Which language a page is in (docs/product.md, "Idiomas"): ?lng=, the picked one (cookie), the
// browser's first language Freela has, Portuguese otherwise; and what follows from it for a
// Spanish-speaking visitor: the account's e-mails, the public pages' markup, money in reais.

const page = (headers: Record<string, string>, path = "/vagas") => new Request(BASE + path, { headers });

describe("the language of a request", () => {
  it.each([
    ["es-AR,es;q=0.9", "es"],
    ["es-419", "es"],
    ["es", "es"],
    ["en-US,en;q=0.9,pt;q=0.8", "en"],
    ["pt-PT", "pt-BR"],
    ["fr-FR, de;q=0.5", "pt-BR"],
    ["fr-FR, es;q=0.5, pt-BR;q=0.7", "pt-BR"],
    ["fr-FR, en;q=0.3, es;q=0.6", "es"],
    ["*", "pt-BR"],
    ["", "pt-BR"],
    // Hostile headers answer Portuguese, not an error.
    [`${"x-".repeat(3000)}es;q=zz`, "pt-BR"],
    ["es;q=0, \u00bf\u00a1, <script>", "pt-BR"],
    ["en;q=0.2, *;q=0.9", "en"],
  ])("Accept-Language %j reads %s", async (header, lng) => {
    expect(await i18nServer.getLocale(page(header ? { "Accept-Language": header } : {}))).toBe(lng);
  });

  it("the picked language (cookie) and ?lng= come before the browser's", async () => {
    const cookie = (await localeCookie.serialize("pt-BR")).split(";")[0]!;
    expect(await i18nServer.getLocale(page({ "Accept-Language": "es", Cookie: cookie }))).toBe("pt-BR");
    expect(await i18nServer.getLocale(page({ "Accept-Language": "es", Cookie: cookie }, "/vagas?lng=en"))).toBe("en");
  });
});

describe("a visitor whose browser reads Spanish", () => {
  it("signs up with Spanish kept for the e-mails, and the confirmation comes in Spanish", async () => {
    const email = `hablante.${Date.now().toString(36)}@example.com`;
    const res = await call(
      registerPage.action,
      new Request(`${BASE}/register`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "es-MX,es;q=0.9" },
        body: new URLSearchParams({
          account_type: "freelancer",
          full_name: "Lucía Hablante",
          email,
          password: "contrasena-1",
        }).toString(),
      }),
    );
    expect(res.status).toBe(302);
    const user = await db.selectFrom("users").select("locale").where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.locale).toBe("es");
    const [mail] = await mailsTo(email);
    const es = fixedT("es", "account");
    expect(mail.subject).toBe(es("email.email_verification.subject"));
    expect(mail.subject).not.toBe(fixedT("pt-BR", "account")("email.email_verification.subject"));
    expect(mail.text).toContain(es("email.greeting", { name: "Lucía Hablante" }));
  });

  it("a browser asking for no language Freela has keeps no language for the e-mails", async () => {
    const email = `sem.idioma.${Date.now().toString(36)}@example.com`;
    await call(
      registerPage.action,
      new Request(`${BASE}/register`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "fr-FR" },
        body: new URLSearchParams({ account_type: "merchant", full_name: "Élodie", email, password: "senha-segura-1" }),
      }),
    );
    const user = await db.selectFrom("users").select("locale").where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.locale).toBeNull();
  });

  it("reads a public opportunity marked as Spanish for Latin America, its budget in reais as Spanish writes them", async () => {
    const o = await createOpportunity(db, { budget_min_cents: 150_000, budget_max_cents: 250_000 });
    const path = (await getPublicOpportunity(o.uuid)).open!.path;
    const slug = path.split("/").pop()!;
    const res = await call(publicOpportunity, page({ "Accept-Language": "es-CO" }, path), { slug });
    expect(res.status).toBe(200);
    expect(res.body.seo.locale).toBe("es_LA");
    expect(res.body.seo.description).toMatch(/^1500,00\sR\$ – 2500,00\sR\$ · /);
    expect(res.headers.get("Vary")).toContain("Accept-Language");
  });
});

describe("texts in Spanish", () => {
  it("money stays in reais, written as each language writes it", () => {
    expect(formatMoney(150_050, "pt-BR")).toBe("R$\u00a01.500,50");
    expect(formatMoney(150_050, "en")).toBe("R$1,500.50");
    expect(formatMoney(150_050, "es")).toBe("1500,50\u00a0R$");
    expect(formatMoney(12_345_678, "es")).toBe("123.456,78\u00a0R$");
  });

  it("the terms and the privacy policy have a Spanish text that says the Portuguese one prevails", () => {
    for (const document of ["terms", "privacy"] as const) {
      const es = legalPage(document, "es");
      const pt = legalPage(document, "pt-BR");
      expect(es.title).not.toBe(pt.title);
      expect(es.html).toMatch(/traducci[oó]n/i);
      expect(es.html).toMatch(/portugu[eé]s/i);
      expect(es.version).toBe(pt.version);
    }
  });
});
