import type { LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getMessageFile } from "~/services/messaging/messages.server";
import { attachmentResponse } from "~/services/platform/uploads.server";

/** A message's file, for the application's two sides only (404 for anyone else). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return attachmentResponse(await getMessageFile(user, params.id!, params.file!));
});

export const action = methodNotAllowed;
