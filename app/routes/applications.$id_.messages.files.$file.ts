import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { fileRoute } from "~/services/api.server";
import { getMessageFile } from "~/services/messages.server";
import { attachmentResponse } from "~/services/uploads.server";

/** A message's file, for the application's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const user = await requireUser(request);
    return attachmentResponse(await getMessageFile(user, params.id ?? "", params.file ?? ""));
  });
}
