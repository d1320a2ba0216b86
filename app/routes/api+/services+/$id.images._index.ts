import { addServiceImage } from "~/services/catalog/service-images.server";
import { apiRoute } from "~/web/api-route.server";
import { fileOf } from "~/web/bodies.server";

export const { loader, action } = apiRoute({
  /** The owner adds an image (multipart `image`: JPEG/PNG/WebP ≤ 2 MB), at the end; at most six. */
  POST: {
    may: "service.manage",
    body: "image-form",
    ids: { id: "not_found" },
    status: 201,
    message: "services:image_added",
    handle: async ({ user, params, form }) => ({
      data: await addServiceImage(user, params.id!, fileOf(form, "image")),
    }),
  },
});
