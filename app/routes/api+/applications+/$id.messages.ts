import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { MESSAGE_FORM, readFilesForm } from "~/web/forms.server";
import { apiT } from "~/services/platform/i18n.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";

/** The conversation, oldest first (the two sides only); reading it marks it read. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listMessages(user, params.id!));
});

/** Multipart `body` and up to 5 `files` (10 MB each), or JSON `{ body }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const isJson = /json/i.test(request.headers.get("Content-Type") ?? "");
  const { values, files } = isJson
    ? { values: await readJson(request), files: [] }
    : await readFilesForm(request, MESSAGE_FORM);
  const data = await sendMessage(user, params.id!, values, files);
  return json({ data, message: apiT("message_sent") }, { status: 201 });
});
