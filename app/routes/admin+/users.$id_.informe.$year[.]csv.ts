import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileRoute } from "~/web/errors.server";
import { informeResponse } from "~/web/notas.server";
import { requireOperator } from "~/web/operator.server";

/** A freelancer's informe de rendimentos of the year, as CSV, for the operator (/admin/users/$id). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  return fileRoute(() => informeResponse(operator, params.id ?? "", params.year, "csv"));
}
