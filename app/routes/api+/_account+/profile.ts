import { updateProfile } from "~/services/accounts/accounts.server";
import { toUserJson } from "~/services/accounts/users.server";
import { profileInput } from "~/web/bodies.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: { unauthenticated: "token_expired", handle: async ({ user }) => ({ user: toUserJson(user) }) },
  /** Multipart (or url-encoded) profile update; the photo is checked by its content. */
  POST: {
    unauthenticated: "token_missing",
    body: "photo-form",
    message: "profile_updated",
    handle: async ({ user, form }) => {
      const { input, photo } = profileInput(form);
      return { user: toUserJson(await updateProfile(user, input, photo)) };
    },
  },
});
