import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { getReportCase } from "~/services/operator/reports.server";

/** GET /api/admin/reports/:type/:id: one target's reports with its content in context. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json({ data: await getReportCase(params.type!, params.id!) });
});

export const action = methodNotAllowed;
