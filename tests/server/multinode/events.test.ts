// Live updates across processes (docs/architecture.md, "Live updates"): an event written through
// one process reaches a stream of GET /api/events held by another. On PostgreSQL between two app
// servers on one database (LISTEN/NOTIFY); on SQLite between the two workers of one `npm start`
// (the launcher relays). The safety check is set to a minute here, so only the wake-up between
// processes can deliver in time. Also: a reconnect with Last-Event-ID on the other server replays
// what was missed and nothing twice, and a stream ends when its session is ended elsewhere.
import { afterAll, describe, expect, it } from "vitest";
import { readSse } from "../../support/sse";
import { apiUser, fresh, freePort, migrate, requireBuild, serverEnv, startServer, type Server } from "../crash/server";
import { twoServersFor } from "./two-servers";
import { validApplication, validOpportunity } from "../../support/fixtures";

const twoServers = twoServersFor("events");
const running: Server[] = [];
const streams: ReturnType<typeof readSse>[] = [];
afterAll(async () => {
  for (const stream of streams) await stream.cancel();
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

const LIVE = { EVENTS_SAFETY_MS: "60000", EVENTS_HEARTBEAT_MS: "500" };

/** PostgreSQL: two servers (a launcher and one worker each) on one database. */
async function onPostgres() {
  const { bases, servers } = await twoServers("postgres", LIVE);
  return { bases, server: servers[1] };
}

/** SQLite: one `npm start` with two workers; consecutive connections alternate between them. */
async function onSqlite() {
  requireBuild();
  const port = await freePort();
  const { env, base } = serverEnv(port);
  Object.assign(env, LIVE, { WEB_CONCURRENCY: "2", CONTRACT_SCHEDULE_SECONDS: "0", OUTBOX_SECONDS: "0" });
  migrate(env);
  const server = await startServer(env, base, { cluster: true });
  running.push(server);
  const end = Date.now() + 30_000;
  while ([...server.log().matchAll(/worker \d+ serving/g)].length < 2 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { bases: [base, base] as [string, string], server };
}

/** A merchant and a freelancer with an application between them, made through `base`. */
async function conversation(base: string, tag: string) {
  const merchant = await apiUser(base, `marina.${tag}@example.com`, "merchant");
  const freelancer = await apiUser(base, `julia.${tag}@example.com`, "freelancer");
  const opp = await fresh(base, "POST", "/api/opportunities", {
    token: merchant.token,
    body: validOpportunity,
  });
  expect(opp.status).toBe(201);
  const uuid = (opp.json.data as { uuid: string }).uuid;
  const app = await fresh(base, "POST", `/api/opportunities/${uuid}/applications`, {
    token: freelancer.token,
    body: validApplication,
  });
  expect(app.status).toBe(201);
  return { merchant, freelancer, id: (app.json.data as { id: string }).id };
}

/** A stream of GET /api/events on a connection of its own. */
async function open(base: string, token: string, lastEventId?: string) {
  const response = await fetch(`${base}/api/events`, {
    headers: { Authorization: `Bearer ${token}`, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
  });
  expect(response.status).toBe(200);
  const stream = readSse(response);
  streams.push(stream);
  await stream.until(() => stream.state.retry !== null, "the stream's start");
  return stream;
}

const say = (base: string, token: string, id: string, body: string) =>
  fresh(base, "POST", `/api/applications/${id}/messages`, { token, body: { body } });

describe.each([
  ["postgres", onPostgres],
  ["sqlite", onSqlite],
] as const)("live updates between processes (%s)", (engine, start) => {
  it("a message written through one process reaches streams held by the other, and a reconnect there replays what was missed", async () => {
    const {
      bases: [a, b],
    } = await start();
    const { merchant, freelancer, id } = await conversation(a, engine);
    // Four streams on four connections: on SQLite the launcher gives them to both workers in turn.
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await open(b, merchant.token));
    const sent = await say(a, freelancer.token, id, "Olá! Posso começar amanhã.");
    expect(sent.status).toBe(201);
    for (const stream of held) {
      await stream.until(() => stream.events.length === 1, "the message on every stream", 3_000);
      expect(stream.data()).toEqual([{ kind: "message", ref: id }]);
    }
    const seen = held[0]!.events[0]!.id!;
    for (const stream of held) await stream.cancel();

    // Away: two messages, through the first process; back through the second with Last-Event-ID.
    expect((await say(a, freelancer.token, id, "dois")).status).toBe(201);
    expect((await say(a, merchant.token, id, "três")).status).toBe(201);
    const back = await open(b, merchant.token, seen);
    await back.until(() => back.events.length === 2, "the two missed messages", 3_000);
    expect((await say(a, freelancer.token, id, "quatro")).status).toBe(201);
    await back.until(() => back.events.length === 3, "the next one, live", 3_000);
    // One more, live: anything sent twice before it would have arrived by then.
    expect((await say(a, merchant.token, id, "cinco")).status).toBe(201);
    await back.until(() => back.events.length >= 4, "the one after, live", 3_000);
    const ids = back.events.map((e) => Number(e.id));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((n) => n > Number(seen))).toBe(true);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    await back.cancel();
  });

  it("a stream ends when its session is ended through the other process; without a session, 401", async () => {
    const {
      bases: [a, b],
    } = await start();
    const user = await apiUser(a, `sai.${engine}@example.com`);
    const stream = await open(b, user.token);
    const out = await fresh(a, "POST", "/api/logout", { token: user.token });
    expect(out.status).toBeLessThan(300);
    await stream.until(() => stream.state.ended, "the end of the stream", 5_000);
    const refused = await fresh(b, "GET", "/api/events", { token: user.token });
    expect(refused.status).toBe(401);
    expect((await fresh(b, "GET", "/api/events")).status).toBe(401);
  });

  it("a stopping server ends its open streams at once and exits cleanly, instead of waiting out the grace", async () => {
    const {
      bases: [a, b],
      server,
    } = await start();
    const user = await apiUser(a, `para.${engine}@example.com`);
    const held = [await open(b, user.token), await open(b, user.token)];
    const stopping = Date.now();
    server.child.kill("SIGTERM");
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    // The grace for requests in flight is 25 s: a stream holding the stop would take that long.
    expect(Date.now() - stopping).toBeLessThan(10_000);
    for (const stream of held) await stream.until(() => stream.state.ended, "the end of the stream", 1_000);
  });
});
