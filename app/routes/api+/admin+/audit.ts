import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { listAuditLog } from "~/services/operator/audit.server";

/** GET /api/admin/audit: the audit log, newest first; filters action, actor, target_type, target_id, from, to. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json(await listAuditLog(queryOf(request)));
});

export const action = methodNotAllowed;
