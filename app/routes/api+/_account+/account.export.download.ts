import { readLatestDataExport } from "~/services/accounts/data-export.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The ZIP of the user's latest copy (application/zip). 404 none asked for, 409 still being
   * prepared, 410 expired (7 days after it was ready).
   */
  GET: {
    auth: "account",
    handle: async ({ user }) => {
      const file = await readLatestDataExport(user);
      return attachmentResponse({ ...file, contentType: "application/zip" });
    },
  },
});
