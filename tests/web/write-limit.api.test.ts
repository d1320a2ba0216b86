import { describe, expect, it } from "vitest";
import { WRITES_PER_MINUTE } from "~/services/platform/rate-limit.server";
import { action as createAction } from "~/routes/api+/opportunities+/_index";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { validOpportunity } from "../support/market";

describe("marketplace writes per user", () => {
  it("answer 429 with Retry-After past the per-minute limit, and store nothing more", async () => {
    const { token } = await signedInUser({ account_type: "merchant" });
    const statuses: number[] = [];
    for (let i = 0; i <= WRITES_PER_MINUTE; i++) {
      const res = await call(createAction, jsonRequest("/api/opportunities", validOpportunity, { token }));
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
        expect(res.body.message).toMatch(/Aguarde/);
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(WRITES_PER_MINUTE);
    expect(statuses.at(-1)).toBe(429);
    // Another user is not affected.
    const other = await signedInUser({ account_type: "merchant" });
    const res = await call(createAction, jsonRequest("/api/opportunities", validOpportunity, { token: other.token }));
    expect(res.status).toBe(201);
  });
});
