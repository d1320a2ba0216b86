import { reissueNota } from "~/services/fiscal/nota-views.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** "Emitir de novo" a rejected or failed nota (back to the queue, at once); 409 in any other status. */
  POST: {
    auth: "operator",
    ids: { id: "nota_not_found" },
    message: "nota_reissued",
    handle: async ({ user, params }) => ({ data: await reissueNota(user, params.id) }),
  },
});
