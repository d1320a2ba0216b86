import { deleteService, getService, updateService } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";
import { getOptionalUser } from "~/web/session.server";

const ids = { id: "not_found" };

export const { loader, action } = apiRoute({
  /** Public while published; its owner sees it in any state; anything else is 404. */
  GET: {
    auth: "public",
    ids,
    handle: async ({ request, params }) => ({
      data: await getService((await getOptionalUser(request)) ?? null, params.id!),
    }),
  },
  /** The owner changes it (any state but archived); the lists sent replace the stored ones. */
  PATCH: {
    may: "service.manage",
    body: "json",
    ids,
    message: "services:service_updated",
    handle: async ({ user, params, body }) => ({ data: await updateService(user, params.id!, body) }),
  },
  /** Drafts only. */
  DELETE: {
    may: "service.manage",
    ids,
    message: "services:service_deleted",
    handle: async ({ user, params }) => {
      await deleteService(user, params.id!);
      return {};
    },
  },
});
