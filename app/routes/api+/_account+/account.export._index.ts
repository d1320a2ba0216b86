import { dataExportState, requestDataExport } from "~/services/accounts/data-export.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ export }`: the latest copy of the user's data asked for (null: none), with its `status`
   * (pending, ready until `expires_at` with its `download_url`, expired, failed).
   */
  GET: { auth: "account", handle: async ({ user }) => ({ export: await dataExportState(user) }) },
  /**
   * Asks for a copy of the user's data, built in the background and e-mailed as a link: 202
   * `{ export, created }`. While one is still pending, asking again answers that one
   * (`created: false`). 429 past 3 asks a day.
   */
  POST: {
    auth: "account",
    body: "optional-json",
    status: 202,
    message: "data_export_requested",
    handle: async ({ user }) => await requestDataExport(user),
  },
});
