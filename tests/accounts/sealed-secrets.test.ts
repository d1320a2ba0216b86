import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { resetSealingKeys, seal, unseal } from "~/services/accounts/sealed-secrets.server";
import { resealTwoFactorSecrets, totpCode } from "~/services/accounts/two-factor.server";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";

// Two-factor secrets kept sealed (docs/product.md §1, docs/operations.md "Chaves"), on both
// engines: AES-GCM bound to the account, a key from SESSION_SECRET or SECRETS_KEY, the re-seal
// pass `npm run migrate` runs (rows of an older version kept in clear, rows under the other key),
// and signing in with a code from every kind of row.

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const original = config.SECRETS_KEY;
afterEach(() => {
  config.SECRETS_KEY = original;
  resetSealingKeys();
});

async function withTwoFactor(stored: (userId: string) => string) {
  const email = `selado${Date.now()}${Math.random().toString(36).slice(2, 8)}@example.com`;
  const user = await createUser(db, { email, password: "segredo123" });
  const at = new Date().toISOString();
  await db
    .insertInto("two_factor")
    .values({ user_id: user.id, secret: stored(user.id), confirmed_at: at, last_step: 0, created_at: at })
    .execute();
  return { user, email };
}
const storedOf = async (userId: string) =>
  (await db.selectFrom("two_factor").select("secret").where("user_id", "=", userId).executeTakeFirstOrThrow()).secret;

async function signsInWithCode(email: string) {
  const first = await call(loginAction, jsonRequest("/api/login", { email, password: "segredo123" }));
  expect(first.status).toBe(202);
  const second = await call(
    loginAction,
    jsonRequest("/api/login", { challenge: first.body.challenge, code: totpCode(SECRET) }),
  );
  return second.status;
}

describe("sealed two-factor secrets", () => {
  it("open only for the account they were sealed for, and differ each time", () => {
    const a = seal(SECRET, "user-a");
    expect(a).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain(SECRET);
    expect(seal(SECRET, "user-a")).not.toBe(a);
    expect(unseal(a, "user-a")).toBe(SECRET);
    expect(() => unseal(a, "user-b")).toThrow();
    const tampered = a.slice(0, -2) + (a.endsWith("A") ? "BB" : "AA");
    expect(() => unseal(tampered, "user-a")).toThrow();
  });

  it("seals the rows of an older version kept in clear; the app's codes keep signing in", async () => {
    const clear = await withTwoFactor(() => SECRET);
    const result = await resealTwoFactorSecrets();
    expect(result.resealed).toBeGreaterThanOrEqual(1);
    expect(result.unreadable).toBe(0);
    const stored = await storedOf(clear.user.id);
    expect(stored).not.toContain(SECRET);
    expect(unseal(stored, clear.user.id)).toBe(SECRET);
    expect(await signsInWithCode(clear.email)).toBe(200);
    // A second pass finds nothing left to do.
    expect(await resealTwoFactorSecrets()).toEqual({ resealed: 0, unreadable: 0 });
  });

  it("moves the rows to SECRETS_KEY once it is set, after which SESSION_SECRET is no longer needed", async () => {
    const before = await withTwoFactor((id) => seal(SECRET, id));
    const underSession = await storedOf(before.user.id);

    config.SECRETS_KEY = "s".repeat(40);
    resetSealingKeys();
    // Still readable before the pass (the session-derived key is known), and signs in.
    expect(await signsInWithCode(before.email)).toBe(200);
    expect((await resealTwoFactorSecrets()).resealed).toBeGreaterThanOrEqual(1);
    const underKey = await storedOf(before.user.id);
    expect(underKey.split(".")[1]).not.toBe(underSession.split(".")[1]);

    // SESSION_SECRET changes: what SECRETS_KEY sealed still opens; what only the old session key
    // sealed does not, and the pass reports it instead of failing.
    const session = config.SESSION_SECRET;
    config.SESSION_SECRET = "n".repeat(64);
    resetSealingKeys();
    try {
      expect(unseal(underKey, before.user.id)).toBe(SECRET);
      expect(() => unseal(underSession, before.user.id)).toThrow();
      // SECRETS_KEY itself replaced without a pass in between: no configured key opens those
      // rows; the pass counts them and leaves them as they are.
      config.SECRETS_KEY = "t".repeat(40);
      resetSealingKeys();
      const stuck = await resealTwoFactorSecrets();
      expect(stuck.unreadable).toBeGreaterThanOrEqual(1);
      expect(await storedOf(before.user.id)).toBe(underKey);
    } finally {
      config.SESSION_SECRET = session;
    }
  });
});
