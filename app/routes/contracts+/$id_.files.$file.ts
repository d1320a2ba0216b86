import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { getContractFile } from "~/services/contracts/contracts.server";
import { AppError } from "~/services/platform/errors.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A delivered file, for the contract's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return attachmentResponse(await getContractFile(user, params.id ?? "", params.file ?? ""));
  } catch (error) {
    if (error instanceof AppError)
      return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
    throw error;
  }
}
