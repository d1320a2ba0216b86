import { db } from "../../db";
import { config } from "~/config.server";
import type { UserRow } from "../../db/schema";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { confirmReceipt, issueCharge } from "~/services/payments/charges.server";
import { deliverContract } from "~/services/contracts/contracts.server";
import { freelancer, merchant, negotiation } from "../support/market";
import { createApplication, createOpportunity, createVerifiedIdentity } from "../../db/factories";

// Payments' test fixtures: escrow hires, funded milestones, end-to-end ids.

/** Hires from now on are paid through the platform, at this fee. */
export function escrow(feeBps = 1_000) {
  config.PAYMENTS = "escrow";
  config.PLATFORM_FEE_BPS = feeBps;
  config.PAYMENTS_PROVIDER = "manual";
}

/** The operator: any user id (the operator console guards who reaches these services). */
export const operator = { id: "00000000-0000-4000-8000-00000000000a" };

let e2e = 0;
/** A fresh Pix end-to-end id (32 characters). */
export function e2eId() {
  e2e += 1;
  return `E12345678202611231200${String(e2e).padStart(11, "0")}`.slice(0, 32);
}

/**
 * A hire at the application's terms (the factory's offer: R$ 3.000,00), by a merchant who
 * recorded who they are (funding past IDENTITY_REQUIRED_ABOVE_CENTS needs it).
 */
export async function hired() {
  const { owner, applicant, application, opportunity } = await negotiation("pending");
  await withIdentity(owner);
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, opportunity, id: application.id };
}

/**
 * An hourly hire: an hourly opportunity, a proposal of `rate_cents` an hour up to `cap_hours` a
 * week, accepted by the merchant (who recorded who they are) now, as acceptOffer makes it.
 */
export async function hiredHourly({ rate_cents = 10_000, cap_hours = 10 } = {}) {
  const owner = await merchant();
  const applicant = await freelancer();
  await withIdentity(owner);
  const opportunity = await createOpportunity(db, { merchant_id: owner.id, budget_type: "hourly" });
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: applicant.id,
    offers: [{ author: "freelancer", price_cents: rate_cents, delivery_days: 30, weekly_cap_hours: cap_hours }],
  });
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, opportunity, id: application.id };
}

/**
 * A monthly hire: a fixed-budget opportunity, a monthly proposal of `amount_cents` a month
 * (with what a month includes), accepted by the merchant (who recorded who they are) now.
 */
export async function hiredMonthly({ amount_cents = 300_000 } = {}) {
  const owner = await merchant();
  const applicant = await freelancer();
  await withIdentity(owner);
  const opportunity = await createOpportunity(db, { merchant_id: owner.id, budget_type: "fixed" });
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: applicant.id,
    offers: [{ author: "freelancer", price_cents: amount_cents, delivery_days: 30, month_includes: MONTH_INCLUDES }],
  });
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, opportunity, id: application.id };
}

export const MONTH_INCLUDES = "Até 8 posts por mês nas redes sociais e um relatório mensal.";

/** A merchant who recorded who they are (funding past IDENTITY_REQUIRED_ABOVE_CENTS needs it). */
async function withIdentity(merchant: Pick<UserRow, "id">) {
  const known = await db
    .selectFrom("identities")
    .select("user_id")
    .where("user_id", "=", merchant.id)
    .executeTakeFirst();
  if (!known) await createVerifiedIdentity(db, merchant.id);
}

/** The merchant funds the current milestone and the operator confirms the Pix. */
export async function fund(merchant: UserRow, id: string) {
  await withIdentity(merchant);
  const { charge } = await issueCharge(merchant, id);
  return confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents });
}

export const deliver = (freelancer: UserRow, id: string) =>
  deliverContract(freelancer, id, { message: "Entrega pronta, com os arquivos combinados." });

export async function milestonesOf(id: string) {
  return db.selectFrom("milestones").selectAll().where("contract_id", "=", id).orderBy("seq").execute();
}

/** The freelancer's identity, verified (payouts need it): their fresh CPF, for their payout key's holder. */
export const verifiedPayee = (user: Pick<UserRow, "id">) => createVerifiedIdentity(db, user.id);
