import { getPayoutAccount, setPayoutAccount } from "~/services/payments/payouts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's payout Pix key (`data: null` before one is registered). */
  GET: { handle: async ({ user }) => ({ data: await getPayoutAccount(user) }) },
  /** `{ key_type: cpf|cnpj|email|phone|evp, pix_key, holder_name, holder_document }`: checked by type and check digits. */
  POST: {
    may: "payout.manage",
    body: "json",
    message: "payout_account_saved",
    handle: async ({ user, body }) => ({ data: await setPayoutAccount(user, body) }),
  },
});
