import type { LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { statementCsv } from "~/services/payments/finance.server";
import { csvResponse, ledgerKindLabels } from "~/web/finance.server";

/** Every ledger line of the user as CSV (semicolons, decimal commas, UTF-8). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return csvResponse(await statementCsv(user, await ledgerKindLabels(request)));
});

export const action = methodNotAllowed;
