import { counterOffer } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The awaited party counters with new terms. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    status: 201,
    message: "offer_sent",
    handle: async ({ user, params, body }) => ({ data: await counterOffer(user, params.id, body) }),
  },
});
