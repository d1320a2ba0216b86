import { closeOpportunity } from "~/services/marketplace/opportunities.server";
import { apiRoute } from "~/web/api-route.server";
import { recordMove } from "~/web/record-move.server";

export const { loader, action } = apiRoute({
  POST: recordMove("uuid", closeOpportunity, { may: "opportunity.manage", message: "opportunity_closed" }),
});
