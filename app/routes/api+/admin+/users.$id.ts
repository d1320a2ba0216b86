import { getMember } from "~/services/operator/members.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Standing, reports, contracts and the log of what operators did about the person. */
  GET: {
    auth: "operator",
    ids: { id: "user_not_found" },
    handle: async ({ params }) => ({ data: await getMember(params.id!) }),
  },
});
