import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminNotasCsv, NOTAS_FILTERS } from "~/services/fiscal/nota-views.server";
import { csvResponse } from "~/web/finance.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

/** /admin/notas's filtered list as CSV (a refused filter is left out, as on the page). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const { list } = await readWithoutRefused(queryFromUrl(request, NOTAS_FILTERS), adminNotasCsv);
  return csvResponse(list, "freela-notas.csv");
}
