import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import * as reportPage from "~/routes/_account+/report";
import { signedInUser } from "../support/helpers";
import { get, postForm } from "./support";

// The report form names what is reported: the opportunity's title, the profile's person.

describe("the report form", () => {
  it("names the opportunity and the profile reported, and keeps what was typed on a refusal (no JavaScript)", async () => {
    const merchant = await signedInUser({ account_type: "merchant", full_name: "Marta Lojista" });
    const reporter = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: merchant.user.id, title: "Loja virtual de cerâmica" });

    const path = `/report?type=opportunity&id=${opp.uuid}&back=/opportunities`;
    const page = await get(reportPage, path, reporter.token);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ type: "opportunity", subject: "Loja virtual de cerâmica" });
    const profile = await get(reportPage, `/report?type=profile&id=${merchant.user.id}`, reporter.token);
    expect(profile.body.subject).toBe("Marta Lojista");
    // One's own profile is not named (it cannot be reported).
    const own = await get(reportPage, `/report?type=profile&id=${merchant.user.id}`, merchant.token);
    expect(own.body.subject).toBeNull();

    const refused = await postForm(reportPage, path, reporter.token, { details: "Pede pagamento por fora." });
    expect(refused.status).toBe(422);
    expect(refused.body.values).toMatchObject({ details: "Pede pagamento por fora." });
    expect(refused.body.errors.reason).toBeTruthy();
  });
});
