import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { action as passwordAction } from "~/routes/api+/_account+/password";
import { action as accountAction } from "~/routes/api+/_account+/account";
import { action as emailAction } from "~/routes/api+/_account+/email";
import { action as setupAction } from "~/routes/api+/_account+/two-factor.setup";
import { confirmTwoFactor, startTwoFactor, totpCode } from "~/services/accounts/two-factor.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// The account's attempt limit (5 wrong passwords or codes per 15 minutes) under bursts of
// parallel requests, through the API handlers on both engines: the attempt is taken before the
// password or code is judged, so at most five of a burst are judged and the rest answer 429 in
// Portuguese, and the right answer after that is refused too.

const BURST = 24;
const LIMIT = 5;
const TOO_MANY = /^Muitas tentativas\. Tente novamente em \d+ minuto\(s\)\.$/;

type Answer = Awaited<ReturnType<typeof call>>;

/** At most LIMIT answers judged (anything but 429), every other one a 429 in Portuguese. */
function expectLimited(answers: Answer[], judgedStatus: number) {
  const judged = answers.filter((a) => a.status !== 429);
  expect(judged.length).toBeLessThanOrEqual(LIMIT);
  expect(judged.length).toBeGreaterThan(0);
  for (const a of judged) expect(a.status).toBe(judgedStatus);
  for (const a of answers.filter((a) => a.status === 429)) {
    expect(a.body.message).toMatch(TOO_MANY);
    expect(Number(a.headers.get("Retry-After"))).toBeGreaterThan(0);
  }
}

let n = 0;
const nextEmail = (what: string) => `${what}${++n}.${Date.now()}@example.com`;

describe("a burst of parallel attempts is judged at most five times", () => {
  it("POST /api/login: 23 wrong passwords and the right one last, then the right one alone", async () => {
    const email = nextEmail("rajada");
    await createUser(db, { email, password: "senha-certa-1" });
    const bodies = Array.from({ length: BURST }, (_, i) =>
      i === BURST - 1 ? { email, password: "senha-certa-1" } : { email, password: `errada-${i}-xx` },
    );
    const answers = await Promise.all(bodies.map((b) => call(loginAction, jsonRequest("/api/login", b))));
    const judged = answers.filter((a) => a.status !== 429);
    expect(judged.length).toBeLessThanOrEqual(LIMIT);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(BURST - LIMIT);
    for (const a of answers.filter((a) => a.status === 429)) expect(a.body.message).toMatch(TOO_MANY);
    // Whichever were judged, the limit now holds: the right password is refused as well.
    const right = await call(loginAction, jsonRequest("/api/login", { email, password: "senha-certa-1" }));
    if (judged.every((a) => a.status === 401)) {
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(TOO_MANY);
    }
  });

  it("POST /api/login: a right password does not count, the wrong ones do", async () => {
    const email = nextEmail("certa");
    await createUser(db, { email, password: "senha-certa-1" });
    for (let i = 0; i < 10; i++) {
      const ok = await call(loginAction, jsonRequest("/api/login", { email, password: "senha-certa-1" }));
      expect(ok.status).toBe(200);
    }
    const wrong = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        call(loginAction, jsonRequest("/api/login", { email, password: `errada-${i}-xx` })),
      ),
    );
    expectLimited(wrong, 401);
    expect(wrong.filter((a) => a.status === 401)).toHaveLength(LIMIT);
    const right = await call(loginAction, jsonRequest("/api/login", { email, password: "senha-certa-1" }));
    expect(right.status).toBe(429);
  });

  it("the current password of a password change, an e-mail change, a deletion and two-factor set-up", async () => {
    const cases = [
      {
        action: passwordAction,
        path: "/api/password",
        method: "POST",
        body: (i: number) => ({ password: `errada-${i}-xx`, new_password: "outra-senha-123" }),
      },
      {
        action: emailAction,
        path: "/api/email",
        method: "POST",
        body: (i: number) => ({ password: `errada-${i}-xx`, email: nextEmail("novo") }),
      },
      {
        action: accountAction,
        path: "/api/account",
        method: "DELETE",
        body: (i: number) => ({ password: `errada-${i}-xx` }),
      },
      {
        action: setupAction,
        path: "/api/two-factor/setup",
        method: "POST",
        body: (i: number) => ({ password: `e-${i}` }),
      },
    ];
    for (const c of cases) {
      const { user, token } = await signedInUser({ email: nextEmail("troca"), password: "senha-certa-1" });
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          call(c.action, jsonRequest(c.path, c.body(i), { method: c.method, token })),
        ),
      );
      expectLimited(answers, 422);
      // The right password is not judged either, until the window ends.
      const right = await call(
        c.action,
        jsonRequest(c.path, { ...c.body(99), password: "senha-certa-1" }, { method: c.method, token }),
      );
      expect(right.status, c.path).toBe(429);
      const still = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirst();
      expect(still?.password_hash).toBe(user.password_hash);
    }
  });

  it("the code step of a two-factor sign-in", async () => {
    const email = nextEmail("codigo");
    const user = await createUser(db, { email, password: "senha-certa-1" });
    const { secret } = await startTwoFactor(user, { password: "senha-certa-1" });
    await confirmTwoFactor(user, { code: totpCode(secret) }, null);
    const first = await call(loginAction, jsonRequest("/api/login", { email, password: "senha-certa-1" }));
    expect(first.status).toBe(202);
    const { challenge } = first.body;
    const right = totpCode(secret, Date.now() + 30_000);
    const wrong = (i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0");
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        call(loginAction, jsonRequest("/api/login", { challenge, code: wrong(i) })),
      ),
    );
    expectLimited(answers, 422);
    const late = await call(loginAction, jsonRequest("/api/login", { challenge, code: right }));
    expect(late.status).toBe(429);
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });
});
