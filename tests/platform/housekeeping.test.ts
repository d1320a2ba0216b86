import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { createSession, findSessionUser } from "~/services/accounts/sessions.server";

describe("pruneExpired", () => {
  it("deletes only the sessions and rate-limit counters that have expired", async () => {
    const user = await createUser(db);
    const now = new Date();
    const past = new Date(now.getTime() - 1000).toISOString();
    // The expired one first (two sessions made in the same millisecond expire at the same instant).
    await createSession(user.id);
    await db.updateTable("sessions").set({ expires_at: past }).execute();
    const live = await createSession(user.id);

    const ms = now.getTime();
    await sql`DELETE FROM rate_limits`.execute(db);
    for (const [key, expire] of [
      ["gone", ms - 1],
      ["running", ms + 60_000],
      ["forever", null],
    ] as const) {
      await sql`INSERT INTO rate_limits (key, points, expire) VALUES (${key}, ${1}, ${expire})`.execute(db);
    }

    expect(await pruneExpired(now)).toEqual({
      sessions: 1,
      rateLimits: 1,
      dataExports: 0,
      events: 0,
      identityFiles: 0,
      verificationsResent: 0,
      pendingFiles: 0,
    });
    expect((await findSessionUser(live.token))?.id).toBe(user.id);
    expect(await db.selectFrom("sessions").select("expires_at").execute()).toEqual([{ expires_at: live.expiresAt }]);
    const keys = await sql<{ key: string }>`SELECT key FROM rate_limits ORDER BY key`.execute(db);
    expect(keys.rows.map((r) => r.key)).toEqual(["forever", "running"]);

    // Nothing left to do: a second process running it at the same time finds nothing.
    expect(await pruneExpired(now)).toEqual({
      sessions: 0,
      rateLimits: 0,
      dataExports: 0,
      events: 0,
      identityFiles: 0,
      verificationsResent: 0,
      pendingFiles: 0,
    });
  });
});
