import { deleteEntry, editEntry } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

const ids = { id: "not_found", entry: "not_found" };

export const { loader, action } = apiRoute({
  /** The freelancer changes an entry of an open week, or amends a questioned one (its day stays): `{ day, minutes, description }`. */
  PATCH: {
    ids,
    body: "json",
    message: "entry_saved",
    handle: async ({ user, params, body }) => ({ data: await editEntry(user, params.id, params.entry, body) }),
  },
  /** The freelancer removes an entry of an open week. */
  DELETE: {
    ids,
    message: "entry_deleted",
    handle: async ({ user, params }) => {
      await deleteEntry(user, params.id, params.entry);
      return {};
    },
  },
});
