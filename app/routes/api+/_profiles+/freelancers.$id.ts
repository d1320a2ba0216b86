import { publicServicesOf } from "~/services/catalog/services.server";
import { getFreelancerProfile } from "~/services/reputation/profiles.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The public profile with its portfolio and the freelancer's published services. */
  GET: {
    ids: { id: "profile_not_found" },
    handle: async ({ params, user }) => {
      const [profile, services] = await Promise.all([
        getFreelancerProfile(params.id!, user.id),
        publicServicesOf(params.id!),
      ]);
      return { data: { ...profile, services } };
    },
  },
});
