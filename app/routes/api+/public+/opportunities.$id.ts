import { AppError } from "~/services/platform/errors.server";
import { getPublicOpportunity } from "~/services/discovery/public.server";
import { apiRoute } from "~/web/api-route.server";

// The public page's JSON twin: an open opportunity's public fields, without signing in. A closed
// one answers 410 with its title and address; hidden, held, unknown or public pages off: 404.
export const { loader, action } = apiRoute({
  GET: {
    auth: "public",
    ids: { id: "not_found" },
    handle: async ({ params, headers }) => {
      const found = await getPublicOpportunity(params.id!);
      if (found.closed) throw new AppError(410, "opportunity_closed_public");
      headers.set("Cache-Control", "public, max-age=60");
      return { data: found.open };
    },
  },
});
