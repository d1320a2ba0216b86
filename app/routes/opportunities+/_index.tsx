import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OpportunityList } from "~/components/marketplace/opportunity-list";
import { errorTitle } from "~/lib/market-meta";
import { translateCommon } from "~/lib/meta";
import { loadOpportunityList } from "~/web/opportunity-list.server";
import { requireUser } from "~/web/auth.server";

// Merchants see their own opportunities, freelancers the open ones (and the top bar's title says which).
export const meta: MetaFunction<typeof loader> = (args) => {
  if (args.error) return errorTitle(args);
  const { data, matches } = args;
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  const key = data?.role === "merchant" ? "titles.home" : "titles.available_opportunities";
  return [{ title: `${translateCommon(root?.locale, key)} | Freela` }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ role: user.account_type, list: await loadOpportunityList(user, request) });
}

export default function OpportunitiesPage() {
  const { role, list } = useLoaderData<typeof loader>();
  return <OpportunityList list={list} role={role} />;
}

export const ErrorBoundary = MarketErrorBoundary;
