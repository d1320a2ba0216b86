import { liftSuppression } from "~/services/platform/email-suppressions.server";
import { operatorActor } from "~/services/operator/audit.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** E-mail to `{"email"}` again (audited); 404 when the address is not suppressed. */
  POST: {
    auth: "operator",
    body: "json",
    message: "email_suppression_lifted",
    handle: async ({ user, body }) => {
      await liftSuppression(operatorActor(user), body.email);
      return { email: String(body.email).trim().toLowerCase() };
    },
  },
});
