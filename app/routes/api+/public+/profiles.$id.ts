import { getPublicProfile } from "~/services/discovery/public.server";
import { apiRoute } from "~/web/api-route.server";

// The public profile's JSON twin: a freelancer's public fields, without signing in; hidden by its
// owner or an operator, a suspended or banned account, or public pages off: 404.
export const { loader, action } = apiRoute({
  GET: {
    auth: "public",
    ids: { id: "profile_not_found" },
    handle: async ({ params, headers }) => {
      headers.set("Cache-Control", "public, max-age=60");
      return { data: await getPublicProfile(params.id!) };
    },
  },
});
