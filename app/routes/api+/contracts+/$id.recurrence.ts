import { json } from "@remix-run/node";
import { authoriseRecurrence, cancelRecurrence, getRecurrence } from "~/services/payments/recurring.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Pix Automático on a monthly contract: whether it is offered, the recurrence, the month's charge. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => ({ data: await getRecurrence(user, params.id) }),
  },
  /**
   * The merchant authorises Pix Automático: 201 with the recurrence pending and its "copia e cola"
   * (`recurrence.br_code`) for the merchant's bank to approve; 409 while one is pending or active.
   */
  POST: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) =>
      json({ data: await authoriseRecurrence(user, params.id), message: apiT("recurrence_created") }, { status: 201 }),
  },
  /** The merchant cancels it (at the provider first); the months are paid by ordinary Pix from then on. */
  DELETE: {
    ids: { id: "not_found" },
    message: "recurrence_cancelled",
    handle: async ({ user, params }) => ({ data: await cancelRecurrence(user, params.id) }),
  },
});
