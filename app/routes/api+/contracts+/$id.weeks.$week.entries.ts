import { oneEntryFile } from "~/services/contracts/entry-files.server";
import { logEntry } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The freelancer logs time in an open week: `{ day, minutes, description }` as JSON, or the
   * same fields as a multipart form with an optional `file` (10 MB).
   */
  POST: {
    ids: { id: "not_found" },
    body: "json-or-entry",
    status: 201,
    message: "entry_logged",
    handle: async ({ user, params, body, files }) => ({
      data: await logEntry(user, params.id, params.week ?? "", body, oneEntryFile(files)),
    }),
  },
});
