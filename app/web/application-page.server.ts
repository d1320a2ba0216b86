import type { UserRow } from "../../db/schema";
import { allowedActions, getApplication } from "~/services/marketplace/applications.server";
import { orRefusal } from "./errors.server";
import { config } from "~/config.server";

/**
 * The fee a hire made now would freeze on its contract (docs/payments.md), for the offers and the
 * accept step to show what the freelancer receives; null without payments (no fee).
 */
export const hireFeeBps = () => (config.PAYMENTS === "escrow" ? config.PLATFORM_FEE_BPS : null);

/** An application as one of its two participants sees it, with the moves open to them now. */
export async function loadApplicationFor(user: UserRow, id: string) {
  const application = await orRefusal(getApplication(user, id));
  const viewer: "merchant" | "freelancer" = application.freelancer.id === user.id ? "freelancer" : "merchant";
  return { application, viewer, actions: allowedActions(user, application), feeBps: hireFeeBps() };
}
