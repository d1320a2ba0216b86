import { answerEntry } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer answers the question on an entry of a questioned week: `{ answer }` → the entry. */
  POST: {
    ids: { id: "not_found", entry: "not_found" },
    body: "json",
    message: "entry_answered",
    handle: async ({ user, params, body }) => ({ data: await answerEntry(user, params.id, params.entry, body) }),
  },
});
