import { statementCsv } from "~/services/payments/finance.server";
import { apiRoute } from "~/web/api-route.server";
import { csvResponse, ledgerKindLabels } from "~/web/finance.server";

export const { loader, action } = apiRoute({
  /** Every ledger line of the user as CSV (semicolons, decimal commas, UTF-8). */
  GET: { handle: async ({ user, request }) => csvResponse(await statementCsv(user, await ledgerKindLabels(request))) },
});
