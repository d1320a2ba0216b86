import { publishService } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";
import { recordMove } from "~/web/record-move.server";

export const { loader, action } = apiRoute({
  POST: recordMove("id", publishService, { may: "service.publish", message: "services:service_published" }),
});
