import { answerAmount } from "~/services/contracts/monthly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The other side accepts the monthly amount proposed: the next month to open takes it. */
  POST: {
    ids: { id: "not_found" },
    message: "amount_accepted_done",
    handle: async ({ user, params }) => ({ data: await answerAmount(user, params.id, true) }),
  },
});
