import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getPayoutAccount, setPayoutAccount } from "~/services/payments/payouts.server";
import { apiT } from "~/services/platform/i18n.server";

/** The freelancer's payout Pix key (`data: null` before one is registered). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getPayoutAccount(user) });
});

/** `{ key_type: cpf|cnpj|email|phone|evp, pix_key, holder_name, holder_document }`: checked by type and check digits. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await setPayoutAccount(user, await readJson(request));
  return json({ data, message: apiT("payout_account_saved") });
});
