import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { listReportQueue } from "~/services/operator/reports.server";

/** GET /api/admin/reports: reports grouped by target; `type`, `status` (open), `age` (day, week, older), `page`. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json(await listReportQueue(queryOf(request)));
});

export const action = methodNotAllowed;
