import { afterEach, describe, expect, it, vi } from "vitest";
import { createSession, findSession } from "~/services/accounts/sessions.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { statementsOf } from "../support/statements";

// The session lookup every signed-in request makes is compiled once and bound to each token and
// the time of the request: one statement, nothing built by Kysely, and the same rule as before
// (expired sessions, suspended and banned users have none).

afterEach(() => vi.restoreAllMocks());

describe("the session lookup", () => {
  it("is one statement, not built again per request, bound to each token", async () => {
    const [a, b] = [await createUser(db), await createUser(db)];
    const [ta, tb] = [(await createSession(a.id)).token, (await createSession(b.id)).token];
    const built = vi.spyOn(db, "selectFrom");
    expect(await statementsOf(() => findSession(ta))).toBe(1);
    expect((await findSession(ta))?.user.id).toBe(a.id);
    expect((await findSession(tb))?.user.id).toBe(b.id);
    expect(await findSession("not-a-token")).toBeNull();
    expect(built).not.toHaveBeenCalled();
  });

  it("binds the time of each request: expiry and suspensions hold", async () => {
    const user = await createUser(db);
    const { token } = await createSession(user.id);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable("users").set({ suspended_until: soon }).where("id", "=", user.id).execute();
    expect(await findSession(token)).toBeNull();
    await db.updateTable("users").set({ suspended_until: past }).where("id", "=", user.id).execute();
    expect((await findSession(token))?.user.id).toBe(user.id);
    await db.updateTable("sessions").set({ expires_at: past }).where("user_id", "=", user.id).execute();
    expect(await findSession(token)).toBeNull();
  });
});
