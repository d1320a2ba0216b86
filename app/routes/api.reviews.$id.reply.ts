import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";
import { replyToReview } from "~/services/reviews.server";

export const loader = methodNotAllowed;

/** `{ reply }`: the reviewed person's one public reply to a published review. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await replyToReview(user, params.id!, await readJson(request));
  return json({ data, message: apiT("review_reply_saved") });
});
