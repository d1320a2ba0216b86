import { endHourlyContract } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Either side ends an hourly contract: the week in hand is the last; the weeks as they are now. */
  POST: {
    ids: { id: "not_found" },
    message: "hourly_contract_ended",
    handle: async ({ user, params }) => ({ data: await endHourlyContract(user, params.id) }),
  },
});
