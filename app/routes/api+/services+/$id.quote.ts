import { getQuote } from "~/services/catalog/orders.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The total and days of `?package=N&extras=0,2` of a public service, with its questions. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ params, query }) => ({
      data: await getQuote(params.id!, { package_index: query.package, extras: query.extras }),
    }),
  },
});
