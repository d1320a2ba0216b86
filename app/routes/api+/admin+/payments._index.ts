import { config } from "~/config.server";
import { paymentQueues } from "~/services/operator/payments.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The queues that wait for an operator, oldest first (up to 100 each): manual Pix `receipts`
   * to confirm, `payouts` to send, `refunds` to pay back; `payments` is the mode (off|escrow).
   */
  GET: { auth: "operator", handle: async () => ({ payments: config.PAYMENTS, ...(await paymentQueues()) }) },
});
