import { termsVersion } from "~/services/accounts/terms.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The current version of the terms and privacy policy and where to read them (anyone). */
  GET: {
    auth: "public",
    handle: async () => ({
      data: { version: termsVersion(), terms_url: "/termos", privacy_url: "/privacidade" },
    }),
  },
});
