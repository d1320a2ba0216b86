import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import { opportunityQuerySchema } from "~/lib/market-schemas";
import { parseInput } from "~/services/platform/errors.server";
import {
  allowedOpportunityActions,
  compiledListQueries,
  createOpportunity as publish,
  getOpportunity,
  listOpportunities,
} from "~/services/marketplace/opportunities.server";
import { validOpportunity } from "../support/fixtures";
import { brokenInvariants, freelancer, merchant } from "../support/market";

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

describe("list queries compiled once per role and query", () => {
  it("are shared by viewers of one role, each bound to its own viewer", async () => {
    const [ana, bia] = [await merchant(), await merchant()];
    const [carla, davi] = [await freelancer(), await freelancer()];
    const anas = await createOpportunity(db, { merchant_id: ana.id, title: "Da Ana" });
    const bias = await createOpportunity(db, { merchant_id: bia.id, title: "Da Bia" });
    await createApplication(db, { opportunity: anas, freelancer_id: carla.id });

    // The same query text for both merchants; each one's own opportunities only.
    const first = compiledListQueries(ana, parseInput(opportunityQuerySchema, {}));
    const second = compiledListQueries(bia, parseInput(opportunityQuerySchema, {}));
    expect(second.page.sql).toBe(first.page.sql);
    expect(first.page.parameters).toContain(ana.id);
    expect(second.page.parameters).toContain(bia.id);
    expect(second.page.parameters).not.toContain(ana.id);
    expect((await listOpportunities(ana, {})).data.map((o) => o.uuid)).toEqual([anas.uuid]);
    expect((await listOpportunities(bia, {})).data.map((o) => o.uuid)).toEqual([bias.uuid]);

    // Freelancers: the same list, each with their own application (or none).
    const mine = (viewer: typeof carla) =>
      listOpportunities(viewer, {}).then(
        (list) => list.data.find((o) => o.uuid === anas.uuid)?.my_application?.status ?? null,
      );
    expect(await mine(carla)).toBe("pending");
    expect(await mine(davi)).toBeNull();
    expect(await mine(carla)).toBe("pending");
    // Applied-to lists (the viewer's id inside a subquery) too.
    expect((await listOpportunities(carla, { mine: "1" })).data.map((o) => o.uuid)).toEqual([anas.uuid]);
    expect((await listOpportunities(davi, { mine: "1" })).data).toEqual([]);
  });
});

describe("opportunities published at once", () => {
  it("keep their ids in the order of their creation times (the newest-first lists rely on it)", async () => {
    const owners = await Promise.all(Array.from({ length: 4 }, () => merchant()));
    await Promise.all(owners.flatMap((owner) => [1, 2, 3].map(() => publish(owner, validOpportunity))));
    // (The tests above store counts without their rows: only this invariant is read here.)
    const broken = await brokenInvariants();
    expect(broken.filter((b) => b.problem === "id order is creation order")).toEqual([]);
  });
});
