// Copies of users' data built on two servers at once: two app servers (npm start: launcher and
// two workers each, so four export jobs) share one database — PostgreSQL, and one SQLite file
// on one machine — and each job claims waiting copies every second. Every copy asked for is
// built once: one ZIP in the file store and one "ready" e-mail per copy, none left behind by a
// job that lost the claim, and each downloads through either server.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiUser, fresh } from "../crash/server";
import { twoServersFor } from "./two-servers";

/** Two servers on one database, each running the export job every second. */
const twoServers = twoServersFor("exports");

describe.each(["postgres", "sqlite"] as const)("data exports on two servers (%s)", (engine) => {
  it("builds every copy once, whichever job claims it, and serves it from either server", async () => {
    const { bases, count, uploads } = await twoServers(engine, { WEB_CONCURRENCY: "2", OUTBOX_SECONDS: "1" });
    const users: Awaited<ReturnType<typeof apiUser>>[] = [];
    for (let i = 0; i < 6; i++) users.push(await apiUser(bases[i % 2], `copia${i}.${engine}@example.com`));
    // Asked through both servers at once (and twice each: the second answers the pending one).
    const asked = await Promise.all(
      users.flatMap((u, i) => [
        fresh(bases[i % 2], "POST", "/api/account/export", { token: u.token }),
        fresh(bases[(i + 1) % 2], "POST", "/api/account/export", { token: u.token }),
      ]),
    );
    expect(asked.map((r) => r.status)).toEqual(Array(12).fill(202));
    // Each user's two asks make one copy, or two when a loaded server answered the second only
    // after a job had already built the first (a ready copy no longer waits): timing, not a rule.
    const created = asked.filter((r) => r.json.created === true).length;
    for (let i = 0; i < users.length; i++)
      expect(asked[2 * i].json.created === true || asked[2 * i + 1].json.created === true).toBe(true);
    expect(await count("SELECT count(*) AS n FROM data_exports")).toBe(created);

    const ready = async () => {
      const states = await Promise.all(
        users.map((u, i) => fresh(bases[(i + 1) % 2], "GET", "/api/account/export", { token: u.token })),
      );
      return states.filter((s) => (s.json.export as { status: string } | null)?.status === "ready").length;
    };
    await expect.poll(ready, { timeout: 60_000, interval: 500 }).toBe(6);
    await expect
      .poll(() => count("SELECT count(*) AS n FROM data_exports WHERE status = 'ready'"), { timeout: 30_000 })
      .toBe(created);

    // Never two waiting copies of one user: a user's second copy was asked only after the first was ready.
    expect(
      await count(`SELECT count(*) AS n FROM data_exports a JOIN data_exports b
        ON b.user_id = a.user_id AND b.id <> a.id AND b.created_at >= a.created_at AND b.created_at < a.ready_at`),
    ).toBe(0);
    expect(await count("SELECT count(*) AS n FROM outbox WHERE kind = 'data_export_ready'")).toBe(created);
    // One ZIP per copy in the file store: a job that lost its claim left nothing behind.
    const zips =
      engine === "postgres"
        ? await count("SELECT count(*) AS n FROM photos WHERE name LIKE 'x\\_%'")
        : readdirSync(uploads).filter((n) => n.startsWith("x_")).length;
    expect(zips).toBe(created);

    for (const u of users) {
      for (const base of bases) {
        const res = await fetch(`${base}/api/account/export/download`, {
          headers: { Authorization: `Bearer ${u.token}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/zip");
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    }
  }, 180_000);
});
