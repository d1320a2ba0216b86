import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OpportunityList } from "~/components/marketplace/opportunity-list";
import { marketTitleMeta } from "~/lib/market-meta";
import { loadOpportunityList } from "~/web/opportunity-list.server";
import { requireUser } from "~/web/auth.server";

// The default route: the same list as /opportunities, under its own title, 'Minhas Oportunidades'.
export const meta = marketTitleMeta("titles.home");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ role: user.account_type, list: await loadOpportunityList(user, request) });
}

export default function HomePage() {
  const { role, list } = useLoaderData<typeof loader>();
  return <OpportunityList list={list} role={role} />;
}

export const ErrorBoundary = MarketErrorBoundary;
