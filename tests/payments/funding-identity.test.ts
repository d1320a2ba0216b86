import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { db } from "../../db";
import { createApplication, createOpportunity, createVerifiedIdentity } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { escrow } from "./support";

// IDENTITY_REQUIRED_ABOVE_CENTS (docs/product.md, "Identidade"): what a merchant without an
// identity may fund in 30 days counts the charges paid and those still waiting to be paid, in
// the transaction that records the next one, so neither a sequence of unpaid charges nor a burst
// of them passes the threshold.

const THRESHOLD = 700_000; // R$ 7.000,00: three hires of R$ 2.000,00 fit, a fourth does not.
const defaultThreshold = config.IDENTITY_REQUIRED_ABOVE_CENTS;

beforeAll(() => escrow(1_000));
afterEach(() => {
  config.IDENTITY_REQUIRED_ABOVE_CENTS = defaultThreshold;
});

/** `n` hires of one merchant without an identity, each at the factory's R$ 2.000,00. */
async function hires(n: number) {
  config.IDENTITY_REQUIRED_ABOVE_CENTS = THRESHOLD;
  const merchant = await signedInUser({ account_type: "merchant" });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: merchant.user.id });
    const app = await createApplication(db, { opportunity: opp, freelancer_id: freelancer.user.id, status: "pending" });
    const offer = (await getApplication(merchant.user, app.id)).offers.at(-1)!;
    await acceptOffer(merchant.user, app.id, { offer_id: offer.id });
    ids.push(app.id);
  }
  return { merchant, ids };
}

const charge = (who: { token: string }, id: string) =>
  call(chargesRoute.action, jsonRequest(`/api/contracts/${id}/charges`, {}, { token: who.token, method: "POST" }), {
    id,
  });

const chargesOf = (merchant: Pick<UserRow, "id">) =>
  db.selectFrom("pix_charges").select(["id", "status"]).where("merchant_id", "=", merchant.id).execute();

describe("funding without an identity", () => {
  it("counts the pending charges: a sequence of unpaid charges past the threshold is refused", async () => {
    const { merchant, ids } = await hires(4);
    for (const id of ids.slice(0, 3)) expect((await charge(merchant, id)).status).toBe(201);
    const refused = await charge(merchant, ids[3]!);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Para pagar mais de R$ 7.000,00 em 30 dias, informe antes seus dados de identidade (CPF ou CNPJ) em Identidade.",
    );
    expect(await chargesOf(merchant.user)).toHaveLength(3);
    // Asking again for a charge already issued shows it (not counted twice).
    expect((await charge(merchant, ids[0]!)).status).toBe(200);
    // Who they are recorded, the fourth is issued.
    await createVerifiedIdentity(db, merchant.user.id);
    expect((await charge(merchant, ids[3]!)).status).toBe(201);
  });

  it("lets through only what fits of a burst of parallel charges", async () => {
    const { merchant, ids } = await hires(8);
    const statuses = (await Promise.all(ids.map((id) => charge(merchant, id)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(await chargesOf(merchant.user)).toHaveLength(3);
  });

  it("does not count expired or superseded charges", async () => {
    const { merchant, ids } = await hires(4);
    for (const id of ids.slice(0, 3)) expect((await charge(merchant, id)).status).toBe(201);
    const [first, second] = await chargesOf(merchant.user);
    // One ran out of its 24 hours unpaid, the other was replaced (neither is money on its way).
    await db
      .updateTable("pix_charges")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", first!.id)
      .execute();
    await db.updateTable("pix_charges").set({ status: "superseded" }).where("id", "=", second!.id).execute();
    expect((await charge(merchant, ids[3]!)).status).toBe(201);
  });
});
