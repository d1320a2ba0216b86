// The public pages as a visitor and a crawler get them from the production build, on both
// engines: the rendered HTML of a seeded opportunity with applicants holds none of their data nor
// the merchant's e-mail, preview tags and JSON-LD are there, the canonical address comes from
// APP_URL whatever the Host, a visitor's answer is cacheable and sets no cookie, hidden things
// are not found, closed ones are gone (410), and the sitemap parses and lists what is shown.
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import Database from "better-sqlite3";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { createHmac } from "node:crypto";
import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type Postgres } from "../../support/postgres";
import { freePort, migrate, removeTempDirs, serverEnv, startServer, stopServer, type Server } from "../crash/server";
import { base, login, ok, setBase } from "../hostile/harness";

const APP_URL = "https://freela.example.com.br";
const parser = new XMLParser({ isArray: (name) => name === "url" || name === "sitemap" });

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A GET with any headers (a forged Host included), without following redirects. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

/** The JSON-LD blocks of a page, parsed. */
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
const metaOf = (html: string, attr: "property" | "name", key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"`).exec(html)?.[1];

describe.each(["sqlite", "postgres"] as const)("public pages on the production server (%s)", (engine) => {
  let server: Server;
  let postgres: Postgres | undefined;
  let exec: (sql: string, params: unknown[]) => Promise<void>;
  let ana: { token: string; id: string };
  let operator: { token: string; id: string };
  let julia: { token: string; id: string };
  /** Ana's open opportunity with applicants, its public path, and what its applications say. */
  let opp: { uuid: string; title: string };
  let path: string;
  let applications: string[];
  let sessionSecret: string;

  beforeAll(async () => {
    const port = await freePort();
    const setup = serverEnv(port);
    setup.env.SEED_DEMO = "1";
    setup.env.CONTRACT_SCHEDULE_SECONDS = "0";
    setup.env.APP_URL = APP_URL;
    sessionSecret = setup.env.SESSION_SECRET!;
    if (engine === "postgres") {
      postgres = await startPostgres();
      await postgres.createDatabase("freela");
      setup.env.DATABASE_URL = postgres.url("freela");
      exec = async (sql, params) => {
        const client = new pg.Client({ connectionString: postgres!.url("freela") });
        await client.connect();
        try {
          let n = 0;
          await client.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          );
        } finally {
          await client.end();
        }
      };
    } else {
      exec = async (sql, params) => {
        const database = new Database(setup.dbPath);
        try {
          database.prepare(sql).run(...params);
        } finally {
          database.close();
        }
      };
    }
    setBase(setup.base);
    migrate(setup.env);
    server = await startServer(setup.env, base);
    [ana, operator, julia] = await Promise.all([
      login("ana@freela.dev"),
      login("operador@freela.dev"),
      login("julia@freela.dev"),
    ]);
    const mine = (await ok("GET", "/api/opportunities?status=open&per_page=50", ana.token)).data as {
      uuid: string;
      title: string;
      applications_count: number;
    }[];
    const withApplicants = mine.find((o) => o.applications_count > 0)!;
    expect(withApplicants).toBeDefined();
    opp = withApplicants;
    const list = await ok("GET", `/api/opportunities/${opp.uuid}/applications`, ana.token);
    // What the applications say and who sent them: letters, ids, names.
    type Application = { id: string; cover_letter: string; freelancer: { id: string; full_name: string } };
    applications = (list.data as Application[]).flatMap((a) => [
      a.id,
      a.cover_letter.slice(0, 40),
      a.freelancer.id,
      a.freelancer.full_name,
    ]);
    expect(applications.length).toBeGreaterThan(0);
    const found = await ok("GET", `/api/public/opportunities/${opp.uuid}`, null);
    path = found.data.path;
  });

  afterAll(async () => {
    if (server) await stopServer(server);
    await postgres?.destroy();
    removeTempDirs();
  });

  it("a visitor reads an open opportunity: cacheable, no cookie, preview tags, JSON-LD, canonical from APP_URL, nothing private", async () => {
    const page = await get(path, { Host: "evil.example", "X-Forwarded-Host": "evil.example" });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("public, max-age=60");
    expect(page.headers["set-cookie"]).toBeUndefined();
    const html = page.body;
    expect(html).toContain(`<link rel="canonical" href="${APP_URL}${path}"/>`);
    expect(html).not.toContain("evil.example");
    expect(metaOf(html, "property", "og:title")).toBe(opp.title.replace(/&/g, "&amp;"));
    expect(metaOf(html, "property", "og:url")).toBe(`${APP_URL}${path}`);
    expect(metaOf(html, "property", "og:image")).toBe(`${APP_URL}/og-image.png`);
    expect(metaOf(html, "property", "og:description")).toMatch(/R\$/);
    expect(metaOf(html, "name", "twitter:card")).toBe("summary_large_image");
    expect(metaOf(html, "name", "twitter:title")).toBeDefined();
    const [ld] = jsonLd(html);
    expect(ld).toMatchObject({ "@type": "JobPosting", title: opp.title, url: `${APP_URL}${path}` });
    // It takes applications until closed or filled, on no known date; a pay rate only per hour.
    expect(ld).not.toHaveProperty("validThrough");
    const seeded = (await ok("GET", `/api/public/opportunities/${opp.uuid}`, null)).data;
    if (seeded.budget_type === "hourly") expect(ld.baseSalary.value.unitText).toBe("HOUR");
    else expect(ld).not.toHaveProperty("baseSalary");
    expect(html).toContain(`/login?redirectFrom=${encodeURIComponent(path)}`);
    expect(html).toContain("Entre para se candidatar");
    for (const secret of ["ana@freela.dev", ana.id, ...applications]) expect(html).not.toContain(secret);
    // The JSON twin says the same, no more.
    const twin = await ok("GET", `/api/public/opportunities/${opp.uuid}`, null);
    for (const secret of ["ana@freela.dev", ana.id, ...applications])
      expect(JSON.stringify(twin)).not.toContain(secret);
  });

  it("signed in: the same page, private and not stored, with the way to apply in the account", async () => {
    const page = await get(path, { Authorization: `Bearer ${julia.token}` });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.body).toContain(`href="/opportunities/${opp.uuid}#apply"`);
  });

  it("a wrong slug is sent to the canonical address (301); an id that is none is not found", async () => {
    const moved = await get(`/vagas/outro-nome-${opp.uuid}?utm=1`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${path}?utm=1`);
    expect((await get(`/vagas/${opp.uuid}`)).headers.location).toBe(path);
    for (const bad of ["/vagas/nada", "/vagas/x-123", `/vagas/x-${crypto.randomUUID()}`, "/perfil/x-%00"]) {
      const answer = await get(bad);
      expect(answer.status, bad).toBe(404);
    }
  });

  it("old profile links (the id alone, an outdated slug) answer 301 to the slugged address, relative, whatever the Host", async () => {
    const slugged = (await ok("GET", `/api/public/profiles/${julia.id}`, null)).data.path as string;
    expect(slugged).toMatch(new RegExp(`^/perfil/[a-z0-9-]+-${julia.id}$`));
    const forged = { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
    for (const [old, to] of [
      [`/perfil/${julia.id}`, slugged],
      [`/perfil/nome-antigo-${julia.id}`, slugged],
      [`/perfil/nome-antigo-${julia.id}?utm_source=zap`, `${slugged}?utm_source=zap`],
    ] as const) {
      const moved = await get(old, forged);
      expect(moved.status, old).toBe(301);
      expect(moved.headers.location, old).toBe(to);
    }
    const signedIn = await get(`/perfil/${julia.id}`, { Authorization: `Bearer ${ana.token}` });
    expect(signedIn.status).toBe(301);
    expect(signedIn.headers.location).toBe(slugged);
    const landed = await get(slugged, forged);
    expect(landed.status).toBe(200);
    expect(landed.body).toContain(`<link rel="canonical" href="${APP_URL}${slugged}"/>`);
    expect(landed.body).not.toContain("evil.example");
  });

  it("closed: 410 with a page that says so; hidden or held by an operator: 404", async () => {
    const created = await ok("POST", "/api/opportunities", ana.token, {
      title: "Vaga que vai fechar",
      description: "Uma vaga de teste que será encerrada logo depois de publicada.",
      category: "design",
      budget_type: "fixed",
      budget_min_cents: 10_000,
      budget_max_cents: 20_000,
      location_type: "remote",
      vacancies: 1,
    });
    const uuid = created.data.uuid as string;
    const url = (await ok("GET", `/api/public/opportunities/${uuid}`, null)).data.path as string;
    await ok("POST", `/api/opportunities/${uuid}/close`, ana.token);
    const gone = await get(url);
    expect(gone.status).toBe(410);
    expect(gone.body).toContain("Esta vaga foi encerrada");
    expect(gone.body).toContain('name="robots" content="noindex"');
    const twin = await get(`/api/public/opportunities/${uuid}`);
    expect(twin.status).toBe(410);
    expect(JSON.parse(twin.body).message).toBe("Esta vaga foi encerrada.");

    await ok("POST", `/api/opportunities/${uuid}/reopen`, ana.token);
    expect((await get(url)).status).toBe(200);
    await exec("UPDATE opportunities SET hidden_at = ?, hidden_reason = ? WHERE uuid = ?", [
      new Date().toISOString(),
      "spam",
      uuid,
    ]);
    expect((await get(url)).status).toBe(404);
    expect((await get(`/api/public/opportunities/${uuid}`)).status).toBe(404);
    await exec("UPDATE opportunities SET hidden_at = NULL, held_at = ? WHERE uuid = ?", [
      new Date().toISOString(),
      uuid,
    ]);
    expect((await get(url)).status).toBe(404);
    const sitemap = (await get("/sitemap/opportunities-1.xml")).body;
    expect(sitemap).not.toContain(uuid);
  });

  it("a profile: public without the e-mail; hidden by its owner in the settings form, 404 and out of the sitemap", async () => {
    const twin = await ok("GET", `/api/public/profiles/${julia.id}`, null);
    const profilePath = twin.data.path as string;
    const page = await get(profilePath);
    expect(page.status).toBe(200);
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.body).not.toContain("julia@freela.dev");
    expect(jsonLd(page.body)[0]).toMatchObject({ "@type": "Person", url: `${APP_URL}${profilePath}` });
    expect(page.body).toContain("Entre para convidar");
    expect((await get("/sitemap/profiles-1.xml")).body).toContain(`${APP_URL}${profilePath}`);

    const hide = await fetch(`${base}/pages/profile-setting`, {
      method: "POST",
      redirect: "manual",
      headers: { Authorization: `Bearer ${julia.token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([["public_profile", "0"]]),
    });
    expect(hide.status).toBe(302);
    expect((await get(profilePath)).status).toBe(404);
    expect((await get(`/api/public/profiles/${julia.id}`)).status).toBe(404);
    expect((await get("/sitemap/profiles-1.xml")).body).not.toContain(julia.id);
    expect((await ok("GET", "/api/profile", julia.token)).user.public_profile).toBe(false);

    const show = new FormData();
    show.append("public_profile", "0");
    show.append("public_profile", "1");
    const back = await fetch(`${base}/api/profile`, {
      method: "POST",
      headers: { Authorization: `Bearer ${julia.token}` },
      body: show,
    });
    expect(back.status).toBe(200);
    expect((await get(profilePath)).status).toBe(200);
  });

  it("'Identidade verificada' in the HTML of a profile (and its JSON-LD), a proposal the merchant reads and an opportunity, only for a verified person", async () => {
    const BADGE = "Identidade verificada";
    const verified = async (userId: string, yes: boolean) => {
      await exec("DELETE FROM identities WHERE user_id = ?", [userId]);
      if (!yes) return;
      const at = new Date().toISOString();
      await exec(
        `INSERT INTO identities (user_id, kind, document, legal_name, birth_date, responsible_cpf, status, version,
           doc_type, front_file, back_file, selfie_file, files_bytes, submitted_at, decided_at, decided_by, reason,
           files_deleted_at, created_at, updated_at)
         VALUES (?, 'person', ?, 'Pessoa Verificada', '1990-05-17', NULL, 'verified', 1, 'rg', NULL, NULL, NULL, 0,
           ?, ?, NULL, NULL, NULL, ?, ?)`,
        [userId, generateCpf(), at, at, at, at],
      );
    };
    const profilePath = (await ok("GET", `/api/public/profiles/${julia.id}`, null)).data.path as string;
    const [proposal] = (await ok("GET", `/api/opportunities/${opp.uuid}/applications`, ana.token)).data as {
      id: string;
      freelancer: { id: string };
    }[];
    const html = async (at: string, token?: string) => {
      const page = await get(at, token ? { Authorization: `Bearer ${token}` } : {});
      expect(page.status).toBe(200);
      return page.body;
    };
    for (const yes of [true, false]) {
      await Promise.all([verified(julia.id, yes), verified(proposal!.freelancer.id, yes), verified(ana.id, yes)]);
      const profile = await html(profilePath);
      expect(profile.includes(BADGE)).toBe(yes);
      const [person] = jsonLd(profile);
      if (yes) expect(person.hasCredential).toMatchObject({ name: BADGE });
      else expect(person).not.toHaveProperty("hasCredential");
      expect((await html(`/applications/${proposal!.id}`, ana.token)).includes(BADGE)).toBe(yes);
      // The merchant's badge on the opportunity, for a visitor (its JobPosting says nothing of it).
      const opportunity = await html(path);
      expect(opportunity.includes(BADGE)).toBe(yes);
      expect(JSON.stringify(jsonLd(opportunity))).not.toContain(BADGE);
    }
  });

  it("the sitemap index and its pages parse as XML and list the open opportunities; robots.txt points at it", async () => {
    const index = await get("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.headers["content-type"]).toMatch(/^application\/xml/);
    expect(index.headers["set-cookie"]).toBeUndefined();
    expect(XMLValidator.validate(index.body)).toBe(true);
    const files = (parser.parse(index.body).sitemapindex.sitemap as { loc: string }[]).map((s) => s.loc);
    expect(files).toEqual([
      `${APP_URL}/sitemap/pages-1.xml`,
      `${APP_URL}/sitemap/opportunities-1.xml`,
      `${APP_URL}/sitemap/profiles-1.xml`,
      `${APP_URL}/sitemap/services-1.xml`,
    ]);
    // Every file listed has at least one address (the schema's minimum).
    for (const file of files) {
      const listed = parser.parse((await get(file.slice(APP_URL.length))).body).urlset.url as unknown[];
      expect(listed.length, file).toBeGreaterThan(0);
    }
    const page = await get("/sitemap/opportunities-1.xml");
    expect(XMLValidator.validate(page.body)).toBe(true);
    const locs = (parser.parse(page.body).urlset.url as { loc: string }[]).map((u) => u.loc);
    const open = await ok("GET", "/api/opportunities?per_page=50", julia.token);
    expect(open.meta.total).toBeLessThan(50);
    const uuids = (open.data as { uuid: string }[]).map((o) => o.uuid).sort();
    expect(locs.map((l) => l.slice(-36)).sort()).toEqual(uuids);
    expect(locs).toContain(`${APP_URL}${path}`);
    expect((await get("/sitemap/opportunities-2.xml")).status).toBe(404);
    expect((await get("/sitemap/nada.xml")).status).toBe(404);
    const robots = await get("/robots.txt", { Host: "evil.example" });
    expect(robots.body).toContain(`Sitemap: ${APP_URL}/sitemap.xml`);
  });

  it("the operator turns public pages off: 404 everywhere, a sitemap of the home page alone, robots disallow all; and on again", async () => {
    await ok("POST", "/api/admin/settings", operator.token, { public_pages: 0 });
    try {
      expect((await get(path)).status).toBe(404);
      expect((await get(`/api/public/opportunities/${opp.uuid}`)).status).toBe(404);
      expect((await get(`/api/public/profiles/${julia.id}`)).status).toBe(404);
      // No file lists anything: not an empty index (invalid), a urlset of the home page.
      const index = await get("/sitemap.xml");
      expect(XMLValidator.validate(index.body)).toBe(true);
      expect(index.body).not.toContain("<sitemap>");
      expect(parser.parse(index.body).urlset.url).toEqual([{ loc: `${APP_URL}/` }]);
      expect((await get("/sitemap/profiles-1.xml")).status).toBe(404);
      expect((await get("/sitemap/opportunities-1.xml")).status).toBe(404);
      expect((await get("/sitemap/pages-1.xml")).status).toBe(404);
      expect((await get("/robots.txt")).body).toBe("User-agent: *\nDisallow: /\n");
    } finally {
      await ok("POST", "/api/admin/settings", operator.token, { public_pages: 1 });
    }
    expect((await get(path)).status).toBe(200);
  });
  it("the pages of links with a personal token: no-store, a same-origin referrer policy and noindex on the HTML and its data; closed in robots.txt", async () => {
    const sign = (text: string) => createHmac("sha256", sessionSecret).update(text).digest("base64url");
    const search = await ok("POST", "/api/saved-searches", julia.token, { name: "Design", frequency: "daily" });
    // Each page and its route (a script asks for a page's data with ?_data=<route>).
    const pages: [string, string][] = [
      [
        `/unsubscribe/${julia.id}.message_received.${sign(`unsubscribe\n${julia.id}\nmessage_received`)}`,
        "routes/_account+/unsubscribe.$token",
      ],
      [`/unsubscribe/${julia.id}.message_received.forjado`, "routes/_account+/unsubscribe.$token"],
      [
        `/buscas-salvas/cancelar/${search.data.id}.${sign(`saved-search\n${search.data.id}`)}`,
        "routes/_account+/buscas-salvas.cancelar.$token",
      ],
      [`/buscas-salvas/cancelar/${search.data.id}.forjado`, "routes/_account+/buscas-salvas.cancelar.$token"],
      ["/reset-password?token=forjado", "routes/_auth+/reset-password"],
      ["/verify-email?token=forjado", "routes/_auth+/verify-email"],
      ["/sessions/end?token=forjado", "routes/_auth+/sessions.end"],
    ];
    for (const [page, route] of pages) {
      const data = `${page}${page.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route)}`;
      for (const [kind, address] of [
        ["document", page],
        ["data", data],
      ] as const) {
        const answer = await get(address);
        expect(answer.status, `${kind} ${page}`).toBeLessThan(500);
        expect(answer.headers["content-type"], `${kind} ${page}`).toMatch(
          kind === "document" ? /^text\/html/ : /^application\/json/,
        );
        expect(answer.headers["cache-control"], `${kind} ${page}`).toBe("no-store");
        expect(answer.headers["referrer-policy"], `${kind} ${page}`).toBe("same-origin");
        expect(answer.headers["x-robots-tag"], `${kind} ${page}`).toBe("noindex");
      }
    }
    // robots.txt closes them (all listed in tests/discovery/public.test.ts).
    const robots = (await get("/robots.txt")).body.split("\n");
    expect(robots).toEqual(expect.arrayContaining(["Disallow: /unsubscribe/", "Disallow: /buscas-salvas/cancelar/"]));
    // The other pages keep the site's policy.
    expect((await get(path)).headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});
