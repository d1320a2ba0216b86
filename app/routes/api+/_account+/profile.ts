import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { updateProfile } from "~/services/accounts/accounts.server";
import { api, apiPost } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { profileInput, readPhotoForm } from "~/web/forms.server";
import { apiT } from "~/services/platform/i18n.server";
import { toUserJson } from "~/services/accounts/users.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request, "token_expired");
  return json({ user: toUserJson(user) });
});

/** Multipart (or url-encoded) profile update; the photo is checked by its content. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const user = await requireApiUser(request, "token_missing");
  const { input, photo } = profileInput(await readPhotoForm(request));
  const updated = await updateProfile(user, input, photo);
  return json({ user: toUserJson(updated), message: apiT("profile_updated") });
});
