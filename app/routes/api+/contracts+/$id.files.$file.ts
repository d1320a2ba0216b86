import type { LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getContractFile } from "~/services/contracts/contracts.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A delivered file, for the contract's two sides only (404 for anyone else). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return attachmentResponse(await getContractFile(user, params.id!, params.file!));
});

export const action = methodNotAllowed;
