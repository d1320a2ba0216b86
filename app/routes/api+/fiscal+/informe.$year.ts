import { informeFor } from "~/services/fiscal/informe.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's informe de rendimentos of the year (released, fees, net per month; notas issued); 400 for another year. */
  GET: { handle: async ({ user, params }) => ({ data: await informeFor(user, user.id, params.year) }) },
});
