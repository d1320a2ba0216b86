import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDisputeFile } from "~/services/operator/disputes.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { fileRoute } from "~/web/errors.server";
import { requireOperator } from "~/web/operator.server";
import { idParam } from "~/web/params.server";

/** A file of a disputed contract (a delivery's, a statement's), for operators only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    await requireOperator(request);
    return attachmentResponse(await getDisputeFile(idParam(params, "id"), idParam(params, "file")));
  });
}
