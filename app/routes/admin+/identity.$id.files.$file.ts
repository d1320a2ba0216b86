import type { LoaderFunctionArgs } from "@remix-run/node";
import { readIdentityFile } from "~/services/accounts/identity.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { fileRoute } from "~/web/errors.server";
import { requireOperator } from "~/web/operator.server";
import { idParam } from "~/web/params.server";

/** A photo of an account's identity documents (front, back, selfie), for operators only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const operator = await requireOperator(request);
    const file = await readIdentityFile(operator, idParam(params, "id"), params.file ?? "");
    return file && attachmentResponse(file);
  });
}
