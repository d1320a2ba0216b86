import { pauseService } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";
import { recordMove } from "~/web/record-move.server";

export const { loader, action } = apiRoute({
  POST: recordMove("id", pauseService, { may: "service.manage", message: "services:service_paused" }),
});
