// Hostile input against the real production server: every JSON endpoint of docs/product.md §7 and
// every page form, fed generated bad input (wrong types, bounds, odd Unicode, injections, bad
// ids, wrong content types, malformed and oversized bodies). Nothing may answer 5xx, leak
// internals, or store what it refused; accepted odd text must come back byte-identical.
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validApplication, validOpportunity } from "../../support/fixtures";
import {
  freePort,
  inspect,
  migrate,
  removeTempDirs,
  serverEnv,
  startServer,
  stopServer,
  type Server,
} from "../crash/server";
import { PNG_1X1 } from "../../support/fixtures";
import { ODD, padded } from "./values";
import { startPostgres, type Postgres } from "../../support/postgres";
import { KYC_ENV, refusedCases } from "./cases";
import {
  base,
  call,
  fit,
  login,
  makePool,
  ok,
  Pool,
  rawGet,
  runAll,
  seededRecords,
  setBase,
  snapshot,
  unique,
  type Store,
  type Actor,
  type World,
} from "./harness";

// The same cases on both engines: the SQLite default and PostgreSQL (a throwaway server), each
// behind the production build.
describe.each(["sqlite", "postgres"] as const)("hostile input against the production server on %s", (engine) => {
  let server: Server;
  let store: Store;
  let postgres: Postgres | undefined;
  let world: World;
  let pool: Pool;
  const started = Date.now();

  beforeAll(async () => {
    const port = await freePort();
    const setup = serverEnv(port);
    setup.env.SEED_DEMO = "1";
    // The contracts' schedule would mark the seed's late contracts while the cases run.
    setup.env.CONTRACT_SCHEDULE_SECONDS = "0";
    // Little room for files: the storage quota is one of the refusals.
    setup.env.STORAGE_QUOTA_MB = "1";
    // The automatic identity provider on, so its webhook is there to be fed bad input.
    Object.assign(setup.env, KYC_ENV);
    // The reset e-mail of the Host case leaves at the next drain of the outbox: every second.
    setup.env.OUTBOX_SECONDS = "1";
    if (engine === "postgres") {
      postgres = await startPostgres();
      await postgres.createDatabase("freela");
      const url = postgres.url("freela");
      setup.env.DATABASE_URL = url;
      store = { engine, url };
    } else {
      store = { engine, dbPath: setup.dbPath };
    }
    setBase(setup.base);
    migrate(setup.env);
    server = await startServer(setup.env, base);

    const [ana, julia, carlos, logout, operator] = await Promise.all([
      login("ana@freela.dev"),
      login("julia@freela.dev"),
      login("carlos@freela.dev"),
      login("pedro@freela.dev"),
      login("operador@freela.dev"),
    ]);
    // Count the writes the cases give each role (a dry run), then make pools large enough that
    // no user passes 90 writes: the limit (120 a minute per user) must never be what answers.
    const fake: Actor = { token: "t", id: "i", opp: "o", app: "a", offer: "f", other: "x" };
    const dry = new Pool({ merchants: [fake], freelancers: [fake] } as World);
    const seeded = new Proxy({}, { get: () => ({ id: "x", opp: "x", firstOffer: "x" }) }) as World["seeded"];
    refusedCases(
      {
        ana: "a",
        julia: "j",
        operator: "o",
        logoutToken: "l",
        merchants: [fake],
        freelancers: [fake],
        seeded,
      } as World,
      dry,
    );
    const size = Math.max(2, Math.ceil(Math.max(dry.used.merchant, dry.used.freelancer) / 90));
    world = {
      ana: ana.token,
      julia: julia.token,
      juliaId: julia.id,
      operator: operator.token,
      logoutToken: logout.token,
      seeded: await seededRecords(ana.token, ana.id, julia.token, julia.id, carlos.token),
      ...(await makePool(size)),
    };
    pool = new Pool(world);
  });

  afterAll(async () => {
    if (server) await stopServer(server);
    await postgres?.destroy();
    removeTempDirs();
  });

  it("refuses every hostile input with the right 4xx, shows nothing internal, and stores nothing", async () => {
    const before = await snapshot(store);
    const groups = refusedCases(world, pool);
    const cases = Object.values(groups).flat();
    const t0 = Date.now();
    const problems = await runAll(cases);
    const after = await snapshot(store);
    const counts = Object.entries(groups)
      .map(([name, list]) => `${name} ${list.length}`)
      .join(", ");
    console.info(
      `hostile (${engine}): ${cases.length} cases (${counts}) in ${((Date.now() - t0) / 1000).toFixed(1)} s; pools of ${world.merchants.length}`,
    );
    if (process.env.HOSTILE_REPORT) writeFileSync(`${process.env.HOSTILE_REPORT}.${engine}`, problems.join("\n"));
    expect(problems.slice(0, 40), `${problems.length} problems`).toEqual([]);
    expect(after).toEqual(before);
    // The sessions used for the refused logouts are still alive.
    expect((await call("GET", "/api/profile", world.logoutToken)).status).toBe(200);
    // Thousands of requests: a guard against a hung server, not a speed check (that is the bench's).
  }, 600_000);

  it("stores odd but valid text byte-identical, and shows it escaped", async () => {
    const problems: string[] = [];
    const same = (what: string, got: unknown, sent: unknown) => {
      if (JSON.stringify(got) !== JSON.stringify(sent))
        problems.push(`${what}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`);
    };
    const entries = Object.entries(ODD);
    for (const [name, odd] of entries) {
      // One-line fields (names, titles, city, skills) refuse line breaks, Unicode's separators
      // included (docs/product.md): they get the text on one line.
      const line = odd.replace(/[\r\n\u2028\u2029]/g, " ");
      // Opportunity fields through the API.
      const m = pool.actor("merchant");
      const patch = {
        title: fit(`Vaga ${line}`, 120),
        description: padded(odd, 20),
        location_type: "hybrid",
        city: fit(line, 80),
        skills: [fit(line, 30)],
      };
      const patched = await call("PATCH", `/api/opportunities/${m.opp}`, m.token, patch);
      if (patched.status !== 200) problems.push(`${name}: PATCH → ${patched.status} ${JSON.stringify(patched.body)}`);
      const got = (await ok("GET", `/api/opportunities/${m.opp}`, world.julia)).data;
      for (const key of Object.keys(patch) as (keyof typeof patch)[])
        same(`${name} opportunity ${key}`, got[key], patch[key]);
      const page = await fetch(`${base}/opportunities/${m.opp}`, {
        headers: { Authorization: `Bearer ${world.julia}` },
      });
      const html = await page.text();
      if (page.status !== 200) problems.push(`${name}: opportunity page → ${page.status}`);
      if (html.includes("<script>alert(1)</script>") || html.includes("<img src=x"))
        problems.push(`${name}: page shows markup unescaped`);

      // Profile fields through the API (multipart) and through the settings page (url-encoded).
      const f = pool.actor("freelancer");
      const profile = {
        full_name: fit(`Nome ${line}`, 120),
        display_name: fit(`Ap ${line}`, 60),
        bio: odd,
        skills: [fit(line, 30), "Extra"],
      };
      const form = new FormData();
      for (const [key, value] of Object.entries(profile)) for (const v of [value].flat()) form.append(key, v);
      const res = await fetch(`${base}/api/profile`, {
        method: "POST",
        headers: { Authorization: `Bearer ${f.token}` },
        body: form,
      });
      if (res.status !== 200) problems.push(`${name}: profile → ${res.status} ${await res.text()}`);
      else await res.body?.cancel();
      const user = (await ok("GET", "/api/profile", f.token)).user;
      for (const key of Object.keys(profile) as (keyof typeof profile)[])
        same(`${name} profile ${key}`, user[key], profile[key]);

      const settings = await fetch(`${base}/pages/profile-setting`, {
        method: "POST",
        redirect: "manual",
        headers: { Authorization: `Bearer ${f.token}`, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams([
          ["full_name", profile.full_name],
          ["bio", `${odd} (página)`],
          ["skills", profile.skills[0]!],
          ["skills", "Outra"],
        ]),
      });
      if (settings.status !== 302) problems.push(`${name}: settings page → ${settings.status}`);
      same(`${name} settings bio`, (await ok("GET", "/api/profile", f.token)).user.bio, `${odd} (página)`);

      // A cover letter, an offer message and a registration.
      const other = world.merchants[(world.merchants.indexOf(m) + 1) % world.merchants.length]!;
      const applied = await call("POST", `/api/opportunities/${other.opp}/applications`, f.token, {
        ...validApplication,
        cover_letter: padded(odd, 20),
      });
      if (applied.status === 201) same(`${name} cover letter`, applied.body.data.cover_letter, padded(odd, 20));
      else if (applied.status !== 409)
        problems.push(`${name}: apply → ${applied.status} ${JSON.stringify(applied.body)}`);

      const app = (await ok("GET", `/api/applications/${m.app}`, m.token)).data;
      const turn = app.awaiting === "merchant" ? m.token : world.freelancers[world.merchants.indexOf(m)]!.token;
      if (app.status === "pending" || app.status === "countered") {
        const offered = await call("POST", `/api/applications/${m.app}/offers`, turn, {
          price_cents: 123_456,
          delivery_days: 9,
          message: odd,
        });
        if (offered.status !== 201)
          problems.push(`${name}: counter → ${offered.status} ${JSON.stringify(offered.body)}`);
        const offers = (await ok("GET", `/api/applications/${m.app}`, m.token)).data.offers;
        same(`${name} offer message`, offers[offers.length - 1].message, odd);
      }

      const registered = await call("POST", "/api/register", null, {
        full_name: fit(`Pessoa ${line}`, 120),
        email: unique("odd"),
        password: "senha-segura-1",
        account_type: "freelancer",
      });
      if (registered.status !== 201) problems.push(`${name}: register → ${registered.status}`);
      else same(`${name} registered name`, registered.body.data.user.full_name, fit(`Pessoa ${line}`, 120));
    }
    expect(problems).toEqual([]);
  });

  it("ignores fields nobody may set (docs/product.md §7: unknown fields are ignored)", async () => {
    const m = pool.actor("merchant");
    const other = world.merchants.find((x) => x !== m)!;
    const smuggled = JSON.parse(
      `{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"id":1,"uuid":"00000000-0000-4000-8000-000000000000","merchant_id":"${other.id}","status":"filled","applications_count":99,"accepted_count":20,"currency":"USD","created_at":"2000-01-01T00:00:00.000Z"}`,
    );
    const created = await call("POST", "/api/opportunities", m.token, { ...validOpportunity, ...smuggled });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      status: "open",
      applications_count: 0,
      accepted_count: 0,
      currency: "BRL",
      merchant: { id: m.id },
    });
    expect(created.body.data.uuid).not.toBe(smuggled.uuid);
    expect(created.body.data.created_at).not.toBe(smuggled.created_at);
    const patched = await call("PATCH", `/api/opportunities/${created.body.data.uuid}`, m.token, {
      ...smuggled,
      title: "Título trocado válido",
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      title: "Título trocado válido",
      status: "open",
      applications_count: 0,
      merchant: { id: m.id },
    });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();

    const registered = await call("POST", "/api/register", null, {
      full_name: "Pessoa Comum",
      email: unique("comum"),
      password: "senha-segura-1",
      account_type: "freelancer",
      id: other.id,
      password_hash: "$2a$04$invalido",
      photo_path: "../../etc/passwd",
      role: "merchant",
    });
    expect(registered.status).toBe(201);
    expect(registered.body.data.user).toMatchObject({
      account_type: "freelancer",
      role: "freelancer",
      photo_url: null,
    });
    expect(registered.body.data.user.id).not.toBe(other.id);
    expect(registered.body.data.user).not.toHaveProperty("password_hash");
  });

  it("keeps a photo under its own name whatever the upload calls it", async () => {
    const f = pool.actor("freelancer");
    const form = new FormData();
    form.append("full_name", "Nome Com Foto");
    form.append("photo", new Blob([PNG_1X1], { type: "image/png" }), "../../../etc/passwd.png");
    const res = await fetch(`${base}/api/profile`, {
      method: "POST",
      headers: { Authorization: `Bearer ${f.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: { photo_url: string } };
    expect(user.photo_url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const photo = await fetch(base + user.photo_url);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer()).equals(PNG_1X1)).toBe(true);
    // Paths fetch would tidy up are sent as written. A bare ".." is the home page to the router,
    // the visitor's home (its ways to browse); nothing outside the app is ever served.
    for (const path of [
      "/uploads/%2e%2e",
      "/uploads/%2e%2e/%2e%2e/etc/passwd",
      "/uploads/../../etc/passwd",
      "/uploads/..\\..\\etc\\passwd",
    ]) {
      const res = await rawGet(path);
      expect([200, 404], path).toContain(res.status);
      if (res.status === 200) expect(res.body, path).toContain("Ver vagas abertas");
      expect(res.body, path).not.toMatch(/root:/);
    }
  });

  it("builds the reset link from APP_URL only, whatever Host or X-Forwarded-Host say", async () => {
    const port = Number(new URL(base).port);
    for (const headers of [
      { Host: "evil.example" },
      { Host: `127.0.0.1:${port}`, "X-Forwarded-Host": "evil.example" },
    ]) {
      const before = server.log().length;
      const status = await new Promise<number>((done, fail) => {
        const body = "email=julia%40freela.dev";
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/forgot-password",
            method: "POST",
            headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": body.length },
          },
          (res) => {
            res.resume();
            res.on("end", () => done(res.statusCode ?? 0));
          },
        );
        req.on("error", fail);
        req.end(body);
      });
      expect(status).toBe(200);
      let sent = "";
      // The e-mail leaves through the outbox, drained every OUTBOX_SECONDS (1 s here).
      for (let i = 0; i < 400 && !/reset-password\?token=/.test(sent); i++) {
        await new Promise((r) => setTimeout(r, 50));
        sent = server.log().slice(before);
      }
      expect(sent).toContain(`${base}/reset-password?token=`);
      expect(sent).not.toContain("evil.example");
    }
  });

  it("keeps a keep-alive connection usable after answering without reading the body", async () => {
    const port = Number(new URL(base).port);
    const bodies: [string, string, string][] = [
      // Anonymous: 401 before the body is read.
      ["POST", "/api/opportunities", `Content-Type: application/json\r\nContent-Length: 300000\r\n`],
      // 415 and 405 before reading; a page's 302 to the login page.
      ["POST", "/api/login", `Content-Type: text/plain\r\nContent-Length: 300000\r\n`],
      ["PUT", "/api/login", `Content-Type: application/json\r\nContent-Length: 300000\r\n`],
      [
        "POST",
        "/opportunities/create",
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 300000\r\n`,
      ],
    ];
    for (const [method, path, headers] of bodies) {
      const answers = await new Promise<string[]>((done, fail) => {
        const socket = connect(port, "127.0.0.1");
        let got = "";
        socket.on("data", (chunk) => {
          got += chunk.toString("latin1");
          const statuses = got.match(/HTTP\/1\.1 \d+/g) ?? [];
          if (statuses.length === 1 && !got.includes("\u0001")) {
            got += "\u0001";
            // The next request on the same connection, once the first is answered.
            socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
          }
          if (statuses.length === 2 && /"status":"ok"/.test(got)) {
            socket.end();
            done(statuses);
          }
        });
        socket.on("error", (error) => fail(new Error(`${method} ${path}: ${error.message}; got ${got.slice(0, 200)}`)));
        socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
        socket.write("x".repeat(300_000));
      });
      expect(answers[1], `${method} ${path}`).toBe("HTTP/1.1 200");
    }
  });

  it("takes real file names (RFC 7578) for messages, deliveries, photos and portfolio", async () => {
    const names = ["Relatório; versão final.png", "a=b.png", 'diga "oi".png', "日本語 ✓.png"];
    const f = pool.actor("freelancer");
    for (const name of names) {
      const form = new FormData();
      form.append("body", "Arquivo com nome de verdade");
      form.append("files", new Blob([PNG_1X1], { type: "image/png" }), name);
      const res = await fetch(`${base}/api/applications/${f.app}/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${f.token}` },
        body: form,
      });
      const body = (await res.json()) as { data: { files: { name: string }[] } };
      expect(res.status, name).toBe(201);
      expect(body.data.files[0]!.name, name).toBe(name.replace(/"/g, ""));
    }
    // filename* (RFC 5987), as some clients send it.
    const raw = Buffer.concat([
      Buffer.from(
        `--xx\r\nContent-Disposition: form-data; name="body"\r\n\r\nOi\r\n--xx\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''Relat%C3%B3rio%3B%20final.png\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG_1X1,
      Buffer.from("\r\n--xx--\r\n"),
    ]);
    const star = await fetch(`${base}/api/applications/${f.app}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${f.token}`, "Content-Type": "multipart/form-data; boundary=xx" },
      body: raw,
    });
    expect(star.status).toBe(201);
    expect(((await star.json()) as { data: { files: { name: string }[] } }).data.files[0]!.name).toBe(
      "Relatório; final.png",
    );
    // A delivery, a photo and a portfolio image with such a name.
    const delivery = new FormData();
    delivery.append("message", "Entrega com nome de verdade.");
    delivery.append("files", new Blob([PNG_1X1], { type: "image/png" }), names[0]);
    const delivered = await fetch(`${base}/api/contracts/${world.seeded.accepted}/deliveries`, {
      method: "POST",
      headers: { Authorization: `Bearer ${world.julia}` },
      body: delivery,
    });
    expect(delivered.status, await delivered.clone().text()).toBe(201);
    for (const [path, field, extra] of [
      ["/api/profile", "photo", [["full_name", "Nome Com Foto"]]],
      [
        "/api/portfolio",
        "image",
        [
          ["title", "Projeto válido"],
          ["description", "Descrição válida do projeto."],
        ],
      ],
    ] as const) {
      const form = new FormData();
      for (const [k, v] of extra) form.append(k, v);
      form.append(field, new Blob([PNG_1X1], { type: "image/png" }), names[1]);
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${pool.actor("freelancer").token}` },
        body: form,
      });
      expect([200, 201], `${path}: ${await res.clone().text()}`).toContain(res.status);
    }
  });

  it("shrugs off uploads cut short", async () => {
    // The body promised is never sent in full: the client hangs up mid-body.
    for (const [path, type] of [
      ["/api/login", "application/json"],
      ["/login", "application/x-www-form-urlencoded"],
      ["/api/profile", "multipart/form-data; boundary=xx"],
    ]) {
      await new Promise<void>((done) => {
        const socket = connect(Number(new URL(base).port), "127.0.0.1", () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.julia}\r\nContent-Type: ${type}\r\nContent-Length: 100000\r\n\r\n{"email":`,
          );
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on("close", () => done());
        socket.on("error", () => done());
      });
    }
    expect((await call("GET", "/healthz", null)).status).toBe(200);
  });

  it("is healthy afterwards: /healthz answers and the database checks out", async () => {
    const health = await call("GET", "/healthz", null);
    expect(health).toEqual({ status: 200, body: { status: "ok" } });
    if (store.engine === "sqlite") {
      const checks = inspect(store.dbPath, (db) => ({
        integrity: db.pragma("integrity_check", { simple: true }),
        foreignKeys: (db.pragma("foreign_key_check") as unknown[]).length,
        fts: (() => {
          db.prepare("INSERT INTO opportunities_fts(opportunities_fts) VALUES ('integrity-check')").run();
          return "ok";
        })(),
      }));
      expect(checks).toEqual({ integrity: "ok", foreignKeys: 0, fts: "ok" });
    }
    if (process.env.HOSTILE_REPORT) writeFileSync(`${process.env.HOSTILE_REPORT}.${engine}.log`, server.log());
    // Refusals are answers, not failures: the log shows no unexpected error (Express's own notes
    // on malformed path encoding and Remix's on methods without an action aside).
    const unexpected = server
      .log()
      .split(/\n(?=\S)/)
      .filter(
        (entry) =>
          /\b(\w*Error|error)\b/.test(entry) &&
          !/^(URIError: Failed to decode param|ErrorResponseImpl \{\s+status: 405)/.test(entry),
      );
    expect(unexpected).toEqual([]);
    console.info(`hostile (${engine}): whole file ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
