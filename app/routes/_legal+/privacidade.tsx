import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, type MetaFunction } from "@remix-run/react";
import { LegalPage } from "~/components/accounts/legal-page";
import { legalPage } from "~/services/accounts/terms.server";
import { getRequestT } from "~/web/i18n.server";

/** The privacy policy, for anyone (content/legal/privacy.<lng>.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { lng } = await getRequestT(request);
  return json(legalPage("privacy", lng));
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? ""} | Freela` }];

export default function PrivacyPage() {
  const { title, version, html } = useLoaderData<typeof loader>();
  return <LegalPage title={title} version={version} html={html} />;
}
