import { operatorActor } from "~/services/operator/audit.server";
import { moveFailedEmail } from "~/services/operator/jobs.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A failed e-mail back in the queue, due now (audited); 409 when it is no longer failed or carried a link. */
  POST: {
    auth: "operator",
    ids: { id: "job_not_found" },
    message: "job_retried",
    handle: async ({ user, params }) => ({ data: await moveFailedEmail(operatorActor(user), params.id, "retry") }),
  },
});
