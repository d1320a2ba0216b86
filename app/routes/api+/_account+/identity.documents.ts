import { submitIdentityDocuments } from "~/services/accounts/identity.server";
import { apiRoute } from "~/web/api-route.server";
import { fileOf } from "~/web/bodies.server";

export const { loader, action } = apiRoute({
  /** Multipart: doc_type (rg|cnh), front, back, selfie (JPEG/PNG/WebP ≤ 10 MB each): none|rejected → pending. */
  POST: {
    body: "identity-form",
    message: "identity_documents_sent",
    handle: async ({ user, body, form }) => ({
      data: await submitIdentityDocuments(user, body, {
        front: fileOf(form, "front"),
        back: fileOf(form, "back"),
        selfie: fileOf(form, "selfie"),
      }),
    }),
  },
});
