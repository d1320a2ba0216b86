import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { createSession, hashToken, SESSIONS_MAX } from "~/services/accounts/sessions.server";
import { NOTICES_PER_DAY, SIGN_INS_PER_HOUR } from "~/services/platform/rate-limit.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";

// Sign-ins cannot be turned into a flood of "novo acesso" e-mails or of session rows, through
// POST /api/login on both engines: no notice to an address never confirmed, at most
// NOTICES_PER_DAY notices a day per account whatever the user agents, at most SIGN_INS_PER_HOUR
// sign-ins an hour per account (then 429 in Portuguese, also under a parallel burst), and at most
// SESSIONS_MAX sessions kept per account.

let n = 0;
const nextEmail = (what: string) => `${what}${++n}.${Date.now()}@example.com`;

const signIn = (email: string, agent: string) =>
  call(
    loginAction,
    jsonRequest("/api/login", { email, password: "senha-certa-1" }, { headers: { "User-Agent": agent } }),
  );

const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + i}.0 teste-${i}`;

const notices = async (userId: string) =>
  (
    await db
      .selectFrom("outbox")
      .select("id")
      .where("user_id", "=", userId)
      .where("kind", "=", "sign_in_notice")
      .execute()
  ).length;

const sessions = async (userId: string) =>
  (await db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute()).length;

describe("sign-in notices and sign-ins per account", () => {
  it("sends no notice to an address never confirmed", async () => {
    const user = await createUser(db, {
      email: nextEmail("nao-confirmado"),
      email_verified_at: null,
      password: "senha-certa-1",
    });
    for (let i = 0; i < 10; i++) expect((await signIn(user.email, agent(i))).status).toBe(200);
    expect(await notices(user.id)).toBe(0);
    // Confirmed later, a device new to the account is noticed again.
    await db
      .updateTable("users")
      .set({ email_verified_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    expect((await signIn(user.email, agent(99))).status).toBe(200);
    expect(await notices(user.id)).toBe(1);
  });

  it(`sends at most ${NOTICES_PER_DAY} notices a day, whatever the user agents`, async () => {
    const user = await createUser(db, { email: nextEmail("confirmado"), password: "senha-certa-1" });
    for (let i = 0; i < 20; i++) expect((await signIn(user.email, agent(i))).status).toBe(200);
    expect(await notices(user.id)).toBe(NOTICES_PER_DAY);
  });

  it(`opens at most ${SIGN_INS_PER_HOUR} sessions an hour, also under a parallel burst`, async () => {
    const user = await createUser(db, { email: nextEmail("rajada"), password: "senha-certa-1" });
    // In parallel waves of five: more at once meet the attempt limit first (at most five
    // passwords judged at a time, attempt-limits.api.test.ts).
    const answers = [];
    for (let wave = 0; wave < 9; wave++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 5 }, (_, i) => signIn(user.email, agent(wave * 5 + i))))),
      );
    }
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBe(SIGN_INS_PER_HOUR);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status).toBe(429);
      expect(a.body.message).toMatch(
        /^Muitos acessos a esta conta em pouco tempo\. Tente novamente em \d+ minuto\(s\)\.$/,
      );
      expect(Number(a.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    expect(await sessions(user.id)).toBe(SIGN_INS_PER_HOUR);
    expect(await notices(user.id)).toBeLessThanOrEqual(NOTICES_PER_DAY);
  });

  it(`keeps at most ${SESSIONS_MAX} sessions per account: a sign-in ends the least recently used`, async () => {
    const user = await createUser(db, { email: nextEmail("muitas"), password: "senha-certa-1" });
    const oldest = await createSession(user.id);
    await db
      .updateTable("sessions")
      .set({ last_used_at: "2020-01-01T00:00:00.000Z" })
      .where("user_id", "=", user.id)
      .execute();
    for (let i = 1; i < SESSIONS_MAX; i++) await createSession(user.id);
    expect(await sessions(user.id)).toBe(SESSIONS_MAX);
    const res = await signIn(user.email, agent(1));
    expect(res.status).toBe(200);
    expect(await sessions(user.id)).toBe(SESSIONS_MAX);
    const ids = (await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).map(
      (r) => r.id,
    );
    expect(ids).not.toContain(hashToken(oldest.token));
    expect(ids).toContain(hashToken(res.body.access_token));
  });
});
