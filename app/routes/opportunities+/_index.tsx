import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SaveSearchForm } from "~/components/discovery/saved-searches";
import { useRefusal } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OpportunityList } from "~/components/marketplace/opportunity-list";
import { errorTitle } from "~/lib/market-meta";
import { translateCommon } from "~/lib/meta";
import { loadUserOpportunityList, saveSearchFromList } from "~/web/opportunity-list.server";
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
  return json({ role: user.account_type, list: await loadUserOpportunityList(user, request) });
}

/** "Salvar busca" (freelancers): the list's filters saved with a name and a frequency. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return saveSearchFromList(user, request);
}

export default function OpportunitiesPage() {
  const { t } = useTranslation("market");
  const { role, list } = useLoaderData<typeof loader>();
  const refusal = useRefusal("save_search");
  const filters = list.filters as Record<string, string>;
  const suggested =
    filters.q?.trim() || (filters.category ? t(`categories.${filters.category}`) : t("saved_searches.default_name"));
  return (
    <OpportunityList
      list={list}
      role={role}
      saveForm={
        role === "freelancer" ? (
          <SaveSearchForm filters={filters} refusal={refusal} suggestedName={suggested.slice(0, 80)} />
        ) : null
      }
    />
  );
}

export const ErrorBoundary = MarketErrorBoundary;
