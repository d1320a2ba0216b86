import { operatorActor } from "~/services/operator/audit.server";
import { moveFailedEmail } from "~/services/operator/jobs.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A failed e-mail set aside, never sent (audited); 409 when it is no longer failed. */
  POST: {
    auth: "operator",
    ids: { id: "job_not_found" },
    message: "job_discarded",
    handle: async ({ user, params }) => ({ data: await moveFailedEmail(operatorActor(user), params.id, "discard") }),
  },
});
