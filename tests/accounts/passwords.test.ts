import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/services/accounts/passwords.server";

describe("password hashing in worker threads", () => {
  it("hashes with bcrypt at the configured cost and checks both ways", async () => {
    const hash = await hashPassword("senha-forte-123");
    expect(hash).toMatch(/^\$2[aby]\$04\$/); // BCRYPT_COST=4 under test
    expect(bcrypt.compareSync("senha-forte-123", hash)).toBe(true);
    expect(await verifyPassword("senha-forte-123", hash)).toBe(true);
    expect(await verifyPassword("senha-errada-123", hash)).toBe(false);
  });

  it("checks hashes made elsewhere (seeds, older accounts)", async () => {
    const hash = bcrypt.hashSync("freela123", 4);
    expect(await verifyPassword("freela123", hash)).toBe(true);
  });

  it("runs many checks at once", async () => {
    const hash = await hashPassword("concorrente-1");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => verifyPassword(`concorrente-${i % 2}`, hash)),
    );
    expect(results).toEqual([false, true, false, true, false, true, false, true]);
  });
});
