import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SavedSearchCard } from "~/components/discovery/saved-searches";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageRefusal, useRefusal } from "~/components/ui/form";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { marketTitleMeta } from "~/lib/market-meta";
import {
  deleteSavedSearch,
  listSavedSearches,
  SAVED_SEARCH_LIMIT,
  updateSavedSearch,
} from "~/services/discovery/saved-searches.server";
import { AppError } from "~/services/platform/errors.server";
import { requireUser } from "~/web/auth.server";
import { orRefusal } from "~/web/errors.server";
import { intentAction } from "~/web/intent-action.server";

// A freelancer's saved searches (docs/product.md, "Buscas salvas e alertas"): each with its
// filters, a link to its results, its name and e-mail frequency to change, and delete. Searches
// are saved from the opportunity list. Works without JavaScript (post/redirect/get).

export const meta = marketTitleMeta("titles.saved_searches");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ data: await orRefusal(listSavedSearches(user)), max: SAVED_SEARCH_LIMIT });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return intentAction(
    request,
    {
      here: "/buscas-salvas",
      otherwise: {
        run: () => {
          throw new AppError(400, "validation_failed");
        },
      },
    },
    {
      update: {
        run: ({ values }) =>
          updateSavedSearch(user, values.id ?? "", { name: values.name ?? "", frequency: values.frequency ?? "" }),
        toast: "saved_searches.toasts.updated",
      },
      delete: {
        run: ({ values }) => deleteSavedSearch(user, values.id ?? ""),
        toast: "saved_searches.toasts.deleted",
      },
    },
  );
}

export default function SavedSearchesPage() {
  const { t } = useTranslation("market");
  const { data, max } = useLoaderData<typeof loader>();
  const refusal = useRefusal("update");
  return (
    <div className="page">
      <PageHeader
        title={t("saved_searches.title")}
        intro={t("saved_searches.intro")}
        actions={
          <Link to="/opportunities" className="btn btn-secondary">
            {t("saved_searches.to_list")}
          </Link>
        }
      />
      <PageRefusal shownBy={["update"]} />
      {data.length ? (
        <>
          <p className="list-count muted">{t("saved_searches.count", { count: data.length, max })}</p>
          <div className="stack">
            {data.map((item) => (
              <SavedSearchCard key={item.id} item={item} refusal={refusal} />
            ))}
          </div>
        </>
      ) : (
        <EmptyState
          title={t("saved_searches.empty")}
          text={t("saved_searches.empty_text")}
          action={
            <Link to="/opportunities" className="btn btn-primary">
              {t("saved_searches.to_list")}
            </Link>
          }
        />
      )}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
