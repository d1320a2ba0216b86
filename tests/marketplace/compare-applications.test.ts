import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { acceptOffer, getApplication, listOpportunityApplications } from "~/services/marketplace/applications.server";
import { AppError } from "~/services/platform/errors.server";
import * as candidatesPage from "~/routes/opportunities+/$uuid_.applications";
import { createSession } from "~/services/accounts/sessions.server";
import { get } from "../operator/support";
import { negotiation } from "../support/market";

// A merchant compares the candidates of one opportunity: each application with its cover letter,
// price, days, the freelancer's rating and completed contracts, in the order asked for.

/** A freelancer with one completed contract (hired through the service, then marked completed). */
async function freelancerWithCompletedContract() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  await db.updateTable("contracts").set({ status: "completed" }).where("id", "=", application.id).execute();
  return applicant;
}

async function candidates() {
  const owner = await createUser(db, { account_type: "merchant" });
  const opportunity = await createOpportunity(db, { merchant_id: owner.id, vacancies: 1 });
  const rated = await createUser(db, { account_type: "freelancer", rating_count: 2, rating_sum: 9 });
  const experienced = await freelancerWithCompletedContract();
  const newcomer = await createUser(db, { account_type: "freelancer" });
  const apply = (freelancer_id: string, price_cents: number, delivery_days: number, minutesAgo: number) =>
    createApplication(db, {
      opportunity,
      freelancer_id,
      created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      offers: [
        {
          author: "freelancer",
          price_cents,
          delivery_days,
          created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        },
      ],
    });
  await apply(rated.id, 300_000, 10, 3);
  await apply(experienced.id, 200_000, 30, 2);
  await apply(newcomer.id, 250_000, 5, 1);
  const names = { [rated.id]: "rated", [experienced.id]: "experienced", [newcomer.id]: "newcomer" };
  const order = async (sort?: string) =>
    (await listOpportunityApplications(owner, opportunity.uuid, sort ? { sort } : {})).data.map(
      (a) => names[a.freelancer.id],
    );
  return { owner, opportunity, order, experienced, names };
}

describe("an opportunity's applications, to compare", () => {
  it("come with the cover letter and the freelancer's rating and completed contracts", async () => {
    const { owner, opportunity, experienced } = await candidates();
    const { data } = await listOpportunityApplications(owner, opportunity.uuid, {});
    const mine = data.find((a) => a.freelancer.id === experienced.id)!;
    expect(mine.cover_letter.length).toBeGreaterThan(10);
    expect(mine.freelancer.completed_contracts).toBe(1);
    expect(data.map((a) => a.freelancer.completed_contracts).sort()).toEqual([0, 0, 1]);
  });

  it("sort by the newest, the lowest price, the shortest deadline, the best rating, the most contracts", async () => {
    const { order } = await candidates();
    expect(await order()).toEqual(["newcomer", "experienced", "rated"]);
    expect(await order("recent")).toEqual(["newcomer", "experienced", "rated"]);
    expect(await order("price")).toEqual(["experienced", "newcomer", "rated"]);
    expect(await order("days")).toEqual(["newcomer", "rated", "experienced"]);
    // Nobody rated yet comes after the rated; among equals, the newest first.
    expect(await order("rating")).toEqual(["rated", "newcomer", "experienced"]);
    expect(await order("contracts")).toEqual(["experienced", "newcomer", "rated"]);
  });

  it("refuse an unknown order with a 422 naming the field", async () => {
    const { owner, opportunity } = await candidates();
    const refused = await listOpportunityApplications(owner, opportunity.uuid, { sort: "cheapest" }).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 422, fieldErrors: { sort: "sort_invalid" } });
  });
});

describe("the candidates page's order form, as sent without JavaScript", () => {
  it("reads the order from the address its Ordenar button sends, and keeps it in the select", async () => {
    // The browser story (tests/e2e/marketplace.spec.ts) picks the order with JavaScript.
    const { owner, opportunity, names } = await candidates();
    const { token } = await createSession(owner.id);
    const page = async (query: string) => {
      const path = `/opportunities/${opportunity.uuid}/applications${query}`;
      const answer = await get(candidatesPage, path, token, { uuid: opportunity.uuid });
      expect(answer.status).toBe(200);
      return {
        order: answer.body.data.map((a: { freelancer: { id: string } }) => names[a.freelancer.id]),
        sort: answer.body.sort,
      };
    };
    expect(await page("")).toEqual({ order: ["newcomer", "experienced", "rated"], sort: "recent" });
    expect(await page("?sort=price")).toEqual({ order: ["experienced", "newcomer", "rated"], sort: "price" });
    expect(await page("?sort=days")).toEqual({ order: ["newcomer", "rated", "experienced"], sort: "days" });
  });
});
