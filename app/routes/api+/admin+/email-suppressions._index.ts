import { listSuppressions } from "~/services/platform/email-suppressions.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The addresses that get no more e-mail, newest first (at most 200); `?q=<address>` for one. */
  GET: { auth: "operator", handle: async ({ query }) => ({ data: await listSuppressions(query.q) }) },
});
