import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { ENGINES } from "./engines";
import { apiUser, freePort, migrate, serversPerTest, waitUntilRefused } from "./server";

const start = serversPerTest();

const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");

function profileForm(fullName: string, bio: string) {
  return new URLSearchParams({ full_name: fullName, bio, skills: "" }).toString();
}

describe.each(ENGINES)("on $name", (engine) => {
  it("a server killed mid-load keeps every acknowledged write and an intact database after SIGKILL and restart", async () => {
    const port = await freePort();
    const { env, base, dbPath } = await engine.env(port);
    migrate(env);
    let server = await start(env, base);

    const users: Awaited<ReturnType<typeof apiUser>>[] = [];
    for (let i = 0; i < 3; i++) users.push(await apiUser(base, `carga${i}@example.com`));

    const KILL_AFTER_ACKS = 80;
    // Each profile worker stays under the 120 writes/minute limit on its own.
    const MAX_PER_WORKER = 100;
    const tally = { acked: 0, inFlight: 0, inFlightAtKill: -1, refusals: [] as number[] };
    const ack = () => {
      tally.acked += 1;
      if (tally.acked === KILL_AFTER_ACKS) {
        tally.inFlightAtKill = tally.inFlight;
        server.child.kill("SIGKILL");
      }
    };

    /**
     * One request counted while in flight. Null when it got no answer (the kill) or was
     * refused (the status is kept): the worker stops there.
     */
    const send = async (path: string, init: RequestInit) => {
      tally.inFlight += 1;
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, { method: "POST", ...init });
      } catch {
        return null;
      } finally {
        tally.inFlight -= 1;
      }
      if (res.status === 200) return res;
      tally.refusals.push(res.status);
      return null;
    };

    // Profile updates, one at a time per user: an acknowledged bio "seq-N" means the stored one
    // must be N or a later write that was in flight at the kill.
    const updates = users.map(async (user) => {
      let lastAcked = 0;
      let lastSent = 0;
      for (let seq = 1; seq <= MAX_PER_WORKER; seq++) {
        lastSent = seq;
        const res = await send("/api/profile", {
          headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/x-www-form-urlencoded" },
          body: profileForm("Usuária De Teste", `seq-${seq}`),
        });
        if (!res) break;
        lastAcked = seq;
        ack();
      }
      return { user, lastAcked, lastSent };
    });

    // New sessions (inserts): every token handed out must still open the profile afterwards.
    const logins = [0, 1].map(async (w) => {
      const tokens: string[] = [];
      const user = users[w];
      for (let i = 0; i < MAX_PER_WORKER; i++) {
        const res = await send("/api/login", {
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: user.email, password: user.password }),
        });
        if (!res) break;
        let body: { access_token: string };
        try {
          body = (await res.json()) as { access_token: string };
        } catch {
          break; // the body was cut by the kill; the token never reached the client
        }
        tokens.push(body.access_token);
        ack();
      }
      return tokens;
    });

    const [profileResults, tokenLists] = await Promise.all([Promise.all(updates), Promise.all(logins)]);
    const killed = await server.exited;

    expect(tally.refusals).toEqual([]);
    expect(killed.signal).toBe("SIGKILL");
    // The kill really happened with writes on the wire (and, on SQLite, left an unfinished journal behind).
    expect(tally.inFlightAtKill).toBeGreaterThan(0);
    if (engine.name === "SQLite") expect(existsSync(`${dbPath}-wal`)).toBe(true);

    server = await start(env, base);
    const tokens = tokenLists.flat();
    expect(tokens.length).toBeGreaterThan(0);

    expect(await engine.intact(env)).toBe(true);
    const sessions = new Set((await engine.rows<{ id: string }>(env, "select id from sessions")).map((r) => r.id));
    for (const token of tokens) expect(sessions.has(sha256(token))).toBe(true);

    for (const { user, lastAcked, lastSent } of profileResults) {
      expect(lastAcked).toBeGreaterThan(0);
      const res = await fetch(`${base}/api/profile`, { headers: { Authorization: `Bearer ${user.token}` } });
      expect(res.status).toBe(200);
      const { user: profile } = (await res.json()) as { user: { bio: string } };
      const seq = Number(profile.bio.replace("seq-", ""));
      expect(seq).toBeGreaterThanOrEqual(lastAcked);
      expect(seq).toBeLessThanOrEqual(lastSent);
    }
    // Every acknowledged session token still opens the profile through the API.
    for (const token of tokens.slice(-5)) {
      const res = await fetch(`${base}/api/profile`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    }

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("SIGTERM lets a request in flight finish, then exits 0 with the database closed cleanly", async () => {
    const port = await freePort();
    const { env, base, dbPath } = await engine.env(port);
    migrate(env);
    const server = await start(env, base);
    const user = await apiUser(base, "sigterm@example.com");

    const body = profileForm("Nome Durante O Desligamento", "enviado durante o SIGTERM");
    const req = httpRequest(`${base}/api/profile`, {
      agent: false,
      method: "POST",
      headers: {
        Authorization: `Bearer ${user.token}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": Buffer.byteLength(body),
        // The server's "100 Continue" proves it has taken the request before the signal is sent.
        Expect: "100-continue",
      },
    });
    const response = new Promise<{ status: number; text: string }>((done, fail) => {
      req.once("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => done({ status: res.statusCode ?? 0, text }));
      });
      req.once("error", fail);
    });
    await new Promise<void>((done) => req.once("continue", () => done()));

    server.child.kill("SIGTERM");
    // No new connections once the signal is handled; the one in flight is still open.
    await waitUntilRefused(port);
    req.end(body);

    const answer = await response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).user.full_name).toBe("Nome Durante O Desligamento");
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // Closed cleanly (on SQLite the WAL was folded into the file and removed), and the write is there.
    if (engine.name === "SQLite") expect(existsSync(`${dbPath}-wal`)).toBe(false);
    expect(await engine.intact(env)).toBe(true);
    expect(await engine.rows(env, "select full_name, bio from users where email = 'sigterm@example.com'")).toEqual([
      { full_name: "Nome Durante O Desligamento", bio: "enviado durante o SIGTERM" },
    ]);
  });

  it("SIGTERM with a client that never finishes its request stops at the shutdown deadline, with the database closed", async () => {
    const port = await freePort();
    const setup = await engine.env(port);
    const env = { ...setup.env, SHUTDOWN_GRACE_MS: "300" };
    migrate(env);
    const server = await start(env, setup.base);
    const user = await apiUser(setup.base, "lento@example.com");

    const req = httpRequest(`${setup.base}/api/profile`, {
      agent: false,
      method: "POST",
      headers: {
        Authorization: `Bearer ${user.token}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": 1000,
        Expect: "100-continue",
      },
    });
    req.on("error", () => undefined);
    await new Promise<void>((done) => req.once("continue", () => done()));
    req.write("full_name=Nunca+Termina");

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.log()).toMatch(/still busy 300 ms after SIGTERM/);
    req.destroy();
    if (engine.name === "SQLite") expect(existsSync(`${setup.dbPath}-wal`)).toBe(false);
    expect(await engine.intact(env)).toBe(true);
  });
});
