import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { allowedOpportunityActions, getOpportunity, listOpportunities } from "~/services/opportunities.server";
import { freelancer, merchant } from "../market";

describe("allowed_actions of an opportunity", () => {
  it("follows its status and counts, for its owner", async () => {
    const owner = await merchant();
    const cases = [
      [{ status: "open", applications_count: 0 }, ["edit", "close", "delete"]],
      [{ status: "open", applications_count: 2 }, ["edit", "close"]],
      [{ status: "closed", applications_count: 0 }, ["reopen", "delete"]],
      [{ status: "closed", applications_count: 1, accepted_count: 0 }, ["reopen"]],
      // No free vacancy left: it cannot be opened again.
      [{ status: "closed", applications_count: 1, accepted_count: 1, vacancies: 1 }, []],
      [{ status: "filled", applications_count: 1, accepted_count: 1, vacancies: 1 }, []],
    ] as const;
    for (const [state, expected] of cases) {
      const row = await createOpportunity(db, { merchant_id: owner.id, ...state });
      expect((await getOpportunity(owner, row.uuid)).allowed_actions, JSON.stringify(state)).toEqual(expected);
    }
  });

  it("is empty for anyone else, in the detail and in lists", async () => {
    const owner = await merchant();
    const other = await merchant();
    const worker = await freelancer();
    const row = await createOpportunity(db, { merchant_id: owner.id });
    expect((await getOpportunity(worker, row.uuid)).allowed_actions).toEqual([]);
    const listed = (await listOpportunities(worker, {})).data.find((o) => o.uuid === row.uuid);
    expect(listed?.allowed_actions).toEqual([]);
    expect(allowedOpportunityActions(other, row)).toEqual([]);
    expect(allowedOpportunityActions({ id: owner.id, account_type: "freelancer" }, row)).toEqual([]);
    expect(allowedOpportunityActions(owner, row)).toEqual(["edit", "close", "delete"]);
  });
});
