import { listContracts } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The user's contracts (`?status=`), most recently changed first, with counts by status. */
  GET: { handle: ({ user, query }) => listContracts(user, query) },
});
