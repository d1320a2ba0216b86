import { moveServiceImage, removeServiceImage } from "~/services/catalog/service-images.server";
import { apiRoute } from "~/web/api-route.server";

const ids = { id: "not_found", image: "not_found" };

export const { loader, action } = apiRoute({
  /** Moves the image to `position` (0 is the first, the catalogue card's picture). */
  PATCH: {
    may: "service.manage",
    body: "json",
    ids,
    message: "services:image_moved",
    handle: async ({ user, params, body }) => ({
      data: await moveServiceImage(user, params.id!, params.image!, body),
    }),
  },
  /** Removes the image (the later ones move up). */
  DELETE: {
    may: "service.manage",
    ids,
    message: "services:image_removed",
    handle: async ({ user, params }) => ({ data: await removeServiceImage(user, params.id!, params.image!) }),
  },
});
