import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { getOrderFile } from "~/services/catalog/orders.server";
import { fileRoute } from "~/web/errors.server";
import { idParam } from "~/web/params.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A file answering an order's question, for the contract's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const user = await requireUser(request);
    return attachmentResponse(await getOrderFile(user, idParam(params, "id"), idParam(params, "file")));
  });
}
