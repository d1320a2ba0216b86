import { listMonths } from "~/services/contracts/monthly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A monthly contract's terms and months, newest first, each with its money. */
  GET: { ids: { id: "not_found" }, handle: async ({ user, params }) => ({ data: await listMonths(user, params.id) }) },
});
