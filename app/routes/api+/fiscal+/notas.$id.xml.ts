import { apiRoute } from "~/web/api-route.server";
import { notaXmlResponse } from "~/web/notas.server";

export const { loader, action } = apiRoute({
  /** The nota's XML as the Sefin returned it (404 for anyone not its provider or taker, or before it has one). */
  GET: { ids: { id: "nota_not_found" }, handle: ({ user, params }) => notaXmlResponse(user, params.id) },
});
