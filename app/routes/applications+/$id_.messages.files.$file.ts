import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { AppError } from "~/services/platform/errors.server";
import { getMessageFile } from "~/services/messaging/messages.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A message's file, for the application's two sides only; anyone else gets 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return attachmentResponse(await getMessageFile(user, params.id ?? "", params.file ?? ""));
  } catch (error) {
    if (error instanceof AppError)
      return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
    throw error;
  }
}
