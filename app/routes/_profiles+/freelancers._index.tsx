import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { DirectoryFilters } from "~/components/reputation/directory-filters";
import { FreelancerCard } from "~/components/reputation/profile-card";
import { listFromUrl } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { DIRECTORY_FILTERS } from "~/lib/directory";
import { listFreelancers } from "~/services/reputation/profiles.server";

export const meta = marketTitleMeta("titles.freelancers");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const { list, query } = await listFromUrl(request, DIRECTORY_FILTERS, listFreelancers);
  return json({ ...list, filters: query });
}

export default function FreelancersPage() {
  const { t } = useTranslation();
  const { data, meta, filters } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader title={t("directory.title")} intro={t("directory.intro")} />
      <DirectoryFilters filters={filters} clearTo="/freelancers" />
      <p className="muted" role="status">
        {t("directory.count", { count: meta.total })}
      </p>
      {data.length ? (
        <ul className="person-grid">
          {data.map((person) => (
            <FreelancerCard key={person.id} person={person} />
          ))}
        </ul>
      ) : (
        <EmptyState title={t("directory.empty")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
