import { reissueNota } from "~/services/fiscal/nota-views.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** "Emitir de novo" one of the freelancer's own rejected or failed notas; 409 in any other status. */
  POST: {
    ids: { id: "nota_not_found" },
    message: "nota_reissued",
    handle: async ({ user, params }) => ({ data: await reissueNota(user, params.id) }),
  },
});
