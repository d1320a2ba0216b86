import { apiT } from "~/services/platform/i18n.server";
import { endContract } from "~/services/contracts/monthly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * Either side ends an hourly contract (the week in hand is the last; the weeks as they are now)
   * or a monthly one (from the next month; the months as they are now).
   */
  POST: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => {
      const { data, message } = await endContract(user, params.id);
      return { data, message: apiT(message) };
    },
  },
});
