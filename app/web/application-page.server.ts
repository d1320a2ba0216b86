import type { UserRow } from "../../db/schema";
import { allowedActions, getApplication } from "~/services/marketplace/applications.server";
import { applicationIdOr404, orRefusal } from "./market-forms.server";

/** An application as one of its two participants sees it, with the moves open to them now. */
export async function loadApplicationFor(user: UserRow, rawId: string | undefined) {
  const application = await orRefusal(getApplication(user, applicationIdOr404(rawId)));
  const viewer: "merchant" | "freelancer" = application.freelancer.id === user.id ? "freelancer" : "merchant";
  return { application, viewer, actions: allowedActions(user, application) };
}
