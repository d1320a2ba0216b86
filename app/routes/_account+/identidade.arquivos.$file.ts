import type { LoaderFunctionArgs } from "@remix-run/node";
import { readIdentityFile } from "~/services/accounts/identity.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { requireUser } from "~/web/auth.server";
import { fileRoute } from "~/web/errors.server";

/** One of the account's own identity photos (front, back, selfie), while they are kept. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const user = await requireUser(request);
    const file = await readIdentityFile(user, user.id, params.file ?? "");
    return file && attachmentResponse(file);
  });
}
