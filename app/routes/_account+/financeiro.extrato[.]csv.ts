import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { statementCsv } from "~/services/payments/finance.server";
import { csvResponse, ledgerKindLabels } from "~/web/finance.server";

/** /financeiro's CSV for the signed-in user (the API's twin is /api/finance/statement.csv). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return csvResponse(await statementCsv(user, await ledgerKindLabels(request)));
}
