import { listPayouts, requestPayout } from "~/services/payments/payouts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's payouts, newest first. */
  GET: { handle: async ({ user }) => ({ data: await listPayouts(user) }) },
  /** Asks for the whole available balance to be paid to the registered key → 201. */
  POST: {
    may: "payout.manage",
    status: 201,
    message: "payout_requested_done",
    handle: async ({ user }) => ({ data: await requestPayout(user) }),
  },
});
