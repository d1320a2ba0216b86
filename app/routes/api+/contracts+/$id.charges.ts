import { json } from "@remix-run/node";
import { getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The Pix charge waiting for the milestone being worked on (`data: null` when none is). */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => ({ data: await getCurrentCharge(user, params.id) }),
  },
  /**
   * The merchant funds the current milestone: 201 with a new charge, 200 with the one still valid.
   * Body (optional): `{ taker_document, taker_name }`, asked for (422) when the freelancer issues
   * their own notas and the merchant has no verified identity.
   */
  POST: {
    ids: { id: "not_found" },
    body: "optional-json",
    handle: async ({ user, params, body }) => {
      const { charge, created } = await issueCharge(user, params.id, undefined, body);
      return json({ data: charge, message: apiT("charge_issued") }, { status: created ? 201 : 200 });
    },
  },
});
