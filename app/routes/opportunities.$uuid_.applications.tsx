import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Placeholder } from "~/components/placeholder";
import { titleMeta } from "~/lib/meta";
import { requireUser } from "~/services/auth.server";

export const meta = titleMeta("titles.opportunity_applications");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json(null);
}

export default function Page() {
  return <Placeholder titleKey="titles.opportunity_applications" />;
}
