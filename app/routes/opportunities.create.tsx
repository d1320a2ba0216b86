import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Placeholder } from "~/components/placeholder";
import { titleMeta } from "~/lib/meta";
import { requireMerchant } from "~/services/auth.server";

export const meta = titleMeta("titles.opportunity_create");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireMerchant(request);
  return json(null);
}

export default function Page() {
  return <Placeholder titleKey="titles.opportunity_create" />;
}
