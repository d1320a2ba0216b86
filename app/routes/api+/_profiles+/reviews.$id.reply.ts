import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { replyToReview } from "~/services/reputation/reviews.server";

export const loader = methodNotAllowed;

/** `{ reply }`: the reviewed person's one public reply to a published review. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await replyToReview(user, params.id!, await readJson(request));
  return json({ data, message: apiT("review_reply_saved") });
});
