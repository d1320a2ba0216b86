import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { fileRoute } from "~/web/errors.server";
import { idParam } from "~/web/params.server";
import { getMessageFile } from "~/services/messaging/messages.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A message's file, for the application's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return fileRoute(async () => {
    const user = await requireUser(request);
    return attachmentResponse(await getMessageFile(user, idParam(params, "id"), idParam(params, "file")));
  });
}
