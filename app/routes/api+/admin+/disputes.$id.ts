import { getDisputeCase } from "~/services/operator/disputes.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A dispute with its contract's whole record (terms, timeline and files, conversation). */
  GET: {
    auth: "operator",
    ids: { id: "not_found" },
    handle: async ({ params }) => ({ data: await getDisputeCase(params.id) }),
  },
});
