import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApplicationCard } from "~/components/marketplace/application-card";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination, StatusTabs } from "~/components/ui/pagination";
import { listFromUrl } from "~/web/market-forms.server";
import { APPLICATION_STATUSES } from "~/lib/market-constants";
import { marketTitleMeta } from "~/lib/market-meta";
import { listMyApplications } from "~/services/marketplace/applications.server";
import { requireUserFor } from "~/web/auth.server";

export const meta = marketTitleMeta("titles.my_applications");

export async function loader({ request }: LoaderFunctionArgs) {
  // Merchants have no applications of their own; theirs to answer are on the pending page.
  const user = await requireUserFor(request, "applications.mine", "/applications/awaiting-confirmation");
  const { list, query } = await listFromUrl(request, ["status", "page"], (q) => listMyApplications(user, q));
  return json({ ...list, status: query.status ?? null });
}

export default function MyApplicationsPage() {
  const { t } = useTranslation("market");
  const { data, meta, status } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader title={t("my_applications.heading")} intro={t("my_applications.intro")} />
      <StatusTabs statuses={APPLICATION_STATUSES} current={status} label={t("applications.status_filter")} />
      {data.length ? (
        <div className="app-list">
          {data.map((item) => (
            <ApplicationCard key={item.id} item={item} viewer="freelancer" />
          ))}
        </div>
      ) : status ? (
        <EmptyState title={t("applications.empty_title")} text={t("applications.empty_filtered")} />
      ) : (
        <EmptyState
          title={t("my_applications.empty_title")}
          text={t("my_applications.empty_text")}
          action={
            <Link to="/opportunities" className="btn btn-primary">
              {t("my_applications.browse")}
            </Link>
          }
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
