import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { getContractReviews, writeReview } from "~/services/reputation/reviews.server";

/** The contract's reviews as the viewer sees them: theirs, and the other side's once published. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getContractReviews(user, params.id!) });
});

/** `{ rating: 1–5, comment? }` → 201 with the review (hidden from the other side until published). */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await writeReview(user, params.id!, await readJson(request));
  return json({ data, message: apiT("review_saved") }, { status: 201 });
});
