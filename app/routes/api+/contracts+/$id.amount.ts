import { proposeAmount } from "~/services/contracts/monthly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * Either side of a monthly contract proposes a new monthly amount: `{ amount_cents }` → the
   * months, with the change waiting for the other side (it takes the next month to open).
   */
  POST: {
    ids: { id: "not_found" },
    status: 201,
    message: "amount_proposed_done",
    handle: async ({ user, params, body }) => ({ data: await proposeAmount(user, params.id, body) }),
  },
});
