import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { getContractFile } from "~/services/contracts/contracts.server";
import { fileRoute } from "~/web/api.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A delivered file, for the contract's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const user = await requireUser(request);
    return attachmentResponse(await getContractFile(user, params.id ?? "", params.file ?? ""));
  });
}
