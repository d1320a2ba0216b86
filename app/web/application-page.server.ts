import type { UserRow } from "../../db/schema";
import { allowedActions, getApplication } from "~/services/marketplace/applications.server";
import { orRefusal } from "./errors.server";

/** An application as one of its two participants sees it, with the moves open to them now. */
export async function loadApplicationFor(user: UserRow, id: string) {
  const application = await orRefusal(getApplication(user, id));
  const viewer: "merchant" | "freelancer" = application.freelancer.id === user.id ? "freelancer" : "merchant";
  return { application, viewer, actions: allowedActions(user, application) };
}
