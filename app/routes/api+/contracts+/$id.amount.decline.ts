import { answerAmount } from "~/services/contracts/monthly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The other side refuses the monthly amount proposed, or the side that proposed it withdraws it. */
  POST: {
    ids: { id: "not_found" },
    message: "amount_declined_done",
    handle: async ({ user, params }) => ({ data: await answerAmount(user, params.id, false) }),
  },
});
