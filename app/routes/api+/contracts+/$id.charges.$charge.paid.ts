import { json } from "@remix-run/node";
import { claimPaid } from "~/services/payments/charges.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * "Já paguei": the merchant says the manual Pix charge was paid (201 the first time, 200 after),
   * and it waits for the operator's confirmation (docs/payments.md, "Pix").
   */
  POST: {
    ids: { id: "not_found", charge: "not_found" },
    handle: async ({ user, params }) => {
      const { charge, claimed } = await claimPaid(user, params.id, params.charge);
      return json({ data: charge, message: apiT("charge_claimed") }, { status: claimed ? 201 : 200 });
    },
  },
});
