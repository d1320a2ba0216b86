import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listUserReviews } from "~/services/reputation/reviews.server";

/** A user's published reviews (`page`, `per_page`) and rating, for any signed-in user. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  await requireApiUser(request);
  return json(await listUserReviews(params.id!, queryOf(request)));
});

export const action = methodNotAllowed;
