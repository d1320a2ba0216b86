// Saved searches' digests on two servers at once: two app servers (npm start: launcher and two
// workers each, so four digest jobs, each running every second) share one database —
// PostgreSQL, and one SQLite file on one machine. Every new matching opportunity reaches each
// search's e-mails exactly once: a job that lost the race on the watermark queues nothing.
import { describe, expect, it } from "vitest";
import { validOpportunity } from "../../support/fixtures";
import { moreJobRuns } from "../../support/server";
import { apiUser, fresh } from "../crash/server";
import { twoServersFor } from "./two-servers";

const twoServers = twoServersFor("digests");

type Row = { user_id: string; payload: string };

describe.each(["postgres", "sqlite"] as const)("saved search digests on two servers (%s)", (engine) => {
  it("queue each new match once per search, whichever job runs it", async () => {
    // Each process runs the digest job every second; the e-mails stay in the outbox, counted there.
    const { bases, rows, servers } = await twoServers(engine, {
      WEB_CONCURRENCY: "2",
      OUTBOX_SECONDS: "0",
      SAVED_SEARCH_SECONDS: "1",
      JOBS_TRACE: "1",
    });
    const users: Awaited<ReturnType<typeof apiUser>>[] = [];
    for (let i = 0; i < 6; i++) users.push(await apiUser(bases[i % 2]!, `alerta${i}.${engine}@example.com`));
    for (const [i, u] of users.entries()) {
      const saved = await fresh(bases[i % 2]!, "POST", "/api/saved-searches", {
        token: u.token,
        body: { name: `Design ${i}`, frequency: "immediate", filters: { category: "design" } },
      });
      expect(saved.status).toBe(201);
    }
    const merchant = await apiUser(bases[0]!, `loja.${engine}@example.com`, "merchant");
    const published = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        fresh(bases[i % 2]!, "POST", "/api/opportunities", {
          token: merchant.token,
          body: { ...validOpportunity, title: `Identidade visual ${i}`, category: i === 3 ? "video" : "design" },
        }),
      ),
    );
    expect(published.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const design = published.slice(0, 3).map((r) => (r.json.data as { uuid: string }).uuid);

    const digests = () => rows<Row>("SELECT user_id, payload FROM outbox WHERE kind = 'saved_search_digest'");
    // Every search has all three design opportunities queued...
    const listed = async () => {
      const all = await digests();
      return users.filter(
        (u) => all.filter((r) => r.user_id === u.id).flatMap((r) => JSON.parse(r.payload).ids).length >= 3,
      ).length;
    };
    await expect.poll(listed, { timeout: 60_000, interval: 500 }).toBe(6);
    // ...and after a few more runs of all four jobs (two workers on each server), still once each.
    await moreJobRuns(servers, "saved-searches", 4);
    const ids = await rows<Row>(
      engine === "postgres"
        ? `SELECT id::text AS user_id, uuid AS payload FROM opportunities`
        : `SELECT CAST(id AS TEXT) AS user_id, uuid AS payload FROM opportunities`,
    );
    const uuidOf = new Map(ids.map((r) => [Number(r.user_id), r.payload]));
    const all = await digests();
    for (const u of users) {
      const mine = all.filter((r) => r.user_id === u.id).flatMap((r) => JSON.parse(r.payload).ids as number[]);
      expect(mine.map((id) => uuidOf.get(Number(id))).sort()).toEqual([...design].sort());
    }
  }, 180_000);
});
