import { resendVerification } from "~/services/accounts/verification.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A new confirmation link by e-mail (the earlier ones stop working); 409 when confirmed already, 429 past 3 an hour. */
  POST: {
    status: 202,
    message: "verification_sent",
    handle: async ({ user }) => {
      await resendVerification(user);
      return {};
    },
  },
});
