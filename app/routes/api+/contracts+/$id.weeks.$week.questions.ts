import { questionEntries } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant questions entries of the submitted week: `{ entries: [{ id, reason }] }` → the week. */
  POST: {
    ids: { id: "not_found" },
    body: "json",
    message: "entries_questioned",
    handle: async ({ user, params, body }) => ({
      data: await questionEntries(user, params.id, params.week ?? "", body),
    }),
  },
});
