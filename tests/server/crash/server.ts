// Runs the production build as a real process, the way `npm start` does, for tests that kill it.
import { request as httpRequest } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { PNG_1X1 } from "../../support/fixtures";
import {
  BUILD,
  freePort,
  LAUNCHER,
  ROOT,
  migrate,
  productionEnv,
  runScript,
  SERVER_SCRIPT,
  spawnServer,
  stopServer,
  type ServerProcess,
} from "../../support/server";

export { freePort, migrate, ROOT, runScript, stopServer };

export function requireBuild() {
  if (!existsSync(BUILD)) throw new Error("build/index.js is missing: run `npm run build` before these tests");
}

const tempDirs: string[] = [];

/** Removes the data folders made by serverEnv (call once the servers using them have stopped). */
export function removeTempDirs() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A temporary data folder and the environment of a production server using it. These suites are
 * about crashes, races and bad input, not about confirming e-mails (the hostile suite turns the
 * confirmation on for its own cases) nor the operator's second factor.
 */
export function serverEnv(port: number, dir = mkdtempSync(join(tmpdir(), "freela-server-"))) {
  tempDirs.push(dir);
  const env = productionEnv(port, dir);
  return { dir, env, dbPath: env.DATABASE_PATH!, base: `http://127.0.0.1:${port}` };
}

export type Server = ServerProcess;

/**
 * Starts one server process (scripts/server.js) on the build and waits until /healthz answers. With `cluster`, it starts
 * the way `npm start` does: the launcher (scripts/serve.ts) and its WEB_CONCURRENCY workers.
 */
export async function startServer(env: NodeJS.ProcessEnv, base: string, { cluster = false } = {}): Promise<Server> {
  requireBuild();
  return spawnServer({
    env,
    base,
    script: cluster ? [LAUNCHER, BUILD] : [SERVER_SCRIPT, BUILD],
    nodeArgs: cluster ? ["--import", "tsx"] : [],
  });
}

/**
 * For a test file whose tests start servers: returns the function that starts one. The build
 * must exist; each test's servers are killed when it ends, the data folders when the file ends.
 */
export function serversPerTest() {
  const running: Server[] = [];
  beforeAll(() => requireBuild());
  afterEach(() => {
    for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  });
  afterAll(() => removeTempDirs());
  return async (...args: Parameters<typeof startServer>) => {
    const server = await startServer(...args);
    running.push(server);
    return server;
  };
}

/** Resolves once the port refuses new connections (the server stopped listening). */
export async function waitUntilRefused(port: number) {
  for (;;) {
    const refused = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        done(false);
      });
      socket.once("error", () => done(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Registers an account and signs it in through the public API; returns its bearer token. */
export async function apiUser(base: string, email: string, account_type = "freelancer") {
  const password = "senha-segura-1";
  const reg = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ full_name: "Usuária De Teste", email, password, account_type }),
  });
  if (reg.status !== 201) throw new Error(`register ${reg.status}: ${await reg.text()}`);
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login ${login.status}: ${await login.text()}`);
  const body = (await login.json()) as { access_token: string; user: { id: string } };
  return { email, password, token: body.access_token, id: body.user.id };
}

/** Opens the database file directly (another connection, as an operator's tool would). */
export function inspect<T>(dbPath: string, read: (db: SQLite.Database) => T): T {
  const db = new SQLite(dbPath, { fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * One request on a connection of its own: the launcher hands each new connection to the next
 * worker in turn, so consecutive calls alternate between its processes.
 */
export function fresh(
  base: string,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; json: Record<string, unknown> }>((done, fail) => {
    const req = httpRequest(`${base}${path}`, {
      agent: false,
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(payload ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } : {}),
      },
    });
    req.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
    });
    req.once("error", fail);
    req.end(payload);
  });
}

/** Sends a new profile photo through the API; returns its URL. */
export async function uploadPhoto(base: string, token: string) {
  const form = new FormData();
  form.set("full_name", "Usuária De Teste");
  form.set("photo", new Blob([PNG_1X1], { type: "image/png" }), "foto.png");
  const res = await fetch(`${base}/api/profile`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { photo_url: string } }).user.photo_url;
}
