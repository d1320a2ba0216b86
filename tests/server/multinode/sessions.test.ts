// Ending a session on one server ends it on every server: two app servers (npm start: launcher
// and one worker each) share one database — PostgreSQL, as behind a load balancer, and one
// SQLite file on one machine (WAL lets two processes share it). A session listed and ended
// through one server stops working on the other at the next request; so do "all others", and
// every session of an account deleted through one of them.
import { describe, expect, it } from "vitest";
import { apiUser, fresh } from "../crash/server";
import { twoServersFor } from "./two-servers";

const twoServers = twoServersFor("sessions");

/** Signs in again through `base`; returns the new session's token. */
async function signIn(base: string, email: string, password: string) {
  const res = await fresh(base, "POST", "/api/login", { body: { email, password } });
  expect(res.status).toBe(200);
  return res.json.access_token as string;
}

type SessionJson = { id: string; current: boolean };

describe.each(["postgres", "sqlite"] as const)("sessions on two servers (%s)", (engine) => {
  it("a session ended through one server is dead on both; so are 'all others'", async () => {
    const [a, b] = (await twoServers(engine)).bases;
    const ana = await apiUser(a, `ana.${engine}@example.com`);
    const onB = await signIn(b, ana.email, ana.password);
    const third = await signIn(a, ana.email, ana.password);

    // Listed the same through either server.
    const listed = await fresh(b, "GET", "/api/sessions", { token: onB });
    expect(listed.status).toBe(200);
    const sessions = listed.json.data as SessionJson[];
    expect(sessions).toHaveLength(3);
    expect(sessions[0].current).toBe(true);
    const fromA = await fresh(a, "GET", "/api/sessions", { token: ana.token });
    const anaId = (fromA.json.data as SessionJson[])[0].id;

    // Ended through B, the session made on A stops working on A and on B.
    for (const base of [a, b])
      expect((await fresh(base, "GET", "/api/profile", { token: ana.token })).status).toBe(200);
    const ended = await fresh(b, "DELETE", `/api/sessions/${anaId}`, { token: onB });
    expect(ended.status).toBe(200);
    for (const base of [a, b])
      expect((await fresh(base, "GET", "/api/profile", { token: ana.token })).status).toBe(401);
    expect((await fresh(a, "DELETE", `/api/sessions/${anaId}`, { token: third })).status).toBe(404);

    // "All others" through A ends B's session on both servers and keeps A's.
    const others = await fresh(a, "DELETE", "/api/sessions/others", { token: third });
    expect(others.status).toBe(200);
    expect(others.json.ended).toBe(1);
    for (const base of [a, b]) {
      expect((await fresh(base, "GET", "/api/profile", { token: onB })).status).toBe(401);
      expect((await fresh(base, "GET", "/api/profile", { token: third })).status).toBe(200);
    }

    // Deleting the account through A ends its sessions on both servers, B's included, and the
    // address no longer signs in on either.
    const again = await signIn(b, ana.email, ana.password);
    const deleted = await fresh(a, "DELETE", "/api/account", { token: third, body: { password: ana.password } });
    expect(deleted.status).toBe(200);
    for (const base of [a, b]) {
      for (const token of [third, again]) {
        expect((await fresh(base, "GET", "/api/profile", { token })).status).toBe(401);
      }
      const login = await fresh(base, "POST", "/api/login", { body: { email: ana.email, password: ana.password } });
      expect(login.status).toBe(401);
    }
  }, 120_000);
});
