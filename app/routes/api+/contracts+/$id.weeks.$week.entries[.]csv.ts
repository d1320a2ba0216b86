import { weekCsv } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";
import { csvResponse } from "~/web/finance.server";

export const { loader, action } = apiRoute({
  /** A week's entries as CSV (semicolons, decimal commas, UTF-8), with its total and money. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) =>
      csvResponse(await weekCsv(user, params.id, params.week ?? ""), `freela-horas-${params.week ?? ""}.csv`),
  },
});
