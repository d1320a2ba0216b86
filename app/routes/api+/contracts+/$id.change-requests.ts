import { requestChanges, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant asks for changes: `{ message }`. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    status: 201,
    message: "changes_requested_done",
    handle: async ({ user, params, body }) => {
      await requestChanges(user, params.id, body);
      return { data: await getContract(user, params.id) };
    },
  },
});
