import { acceptOffer } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The awaited party accepts the latest offer, named by `offer_id`. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    message: "offer_accepted",
    handle: async ({ user, params, body }) => ({ data: await acceptOffer(user, params.id, body) }),
  },
});
