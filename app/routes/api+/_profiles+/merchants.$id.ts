import { getMerchantProfile } from "~/services/reputation/profiles.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: {
    ids: { id: "profile_not_found" },
    handle: async ({ params, user }) => ({ data: await getMerchantProfile(params.id, user.id) }),
  },
});
