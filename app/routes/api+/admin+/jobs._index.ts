import { jobsOverview } from "~/services/operator/jobs.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The background queues by kind, the failed e-mails (at most 100) and the periodic jobs' runs. */
  GET: { auth: "operator", handle: async () => ({ ...(await jobsOverview()) }) },
});
