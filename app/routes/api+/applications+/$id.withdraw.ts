import { withdrawApplication } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";
import { recordMove } from "~/web/record-move.server";

export const { loader, action } = apiRoute({
  POST: recordMove("id", withdrawApplication, { may: "application.withdraw", message: "application_withdrawn_done" }),
});
