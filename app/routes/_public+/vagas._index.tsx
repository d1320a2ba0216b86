import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { JsonLd, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { PublicListCallout, PublicOpportunityCard, PublicListHeader } from "~/components/discovery/public-lists";
import { OpportunityFilters } from "~/components/marketplace/opportunity-list";
import { EmptyState } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { publicListMeta } from "~/lib/public-meta";
import { listPublicOpportunities } from "~/services/discovery/public.server";
import { FILTER_FIELDS, loadOpportunityList } from "~/web/opportunity-list.server";
import { publicHeaders, publicList, readPublic } from "~/web/public-page.server";

// The open opportunities as a visitor browses them (docs/product.md, "Páginas públicas"): the
// signed-in list's filters but the status, each card leading to the opportunity's public page.

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await readPublic(request, () =>
    loadOpportunityList(
      request,
      listPublicOpportunities,
      FILTER_FIELDS.filter((f) => f !== "status"),
    ),
  );
  const list = page.found;
  return json(
    { list, ...publicList(page, "opportunities", "/vagas", list.filters, list) },
    { headers: page.cacheHeaders },
  );
}

export const headers = publicHeaders;

export const meta = publicListMeta;

export default function PublicOpportunitiesPage() {
  const { list, ld, viewer } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { t: tm } = useTranslation("market");
  const search = new URLSearchParams(list.filters).toString();
  const here = `/vagas${search ? `?${search}` : ""}`;
  const filtered = Object.keys(list.filters).some((k) => k !== "page" && k !== "sort");
  return (
    <PublicFrame signedIn={viewer !== null} here={here}>
      <JsonLd data={ld} />
      <PublicListHeader
        signedIn={viewer !== null}
        title={t("public.opportunities_title")}
        intro={t("public.opportunities_intro")}
      />
      <PublicListCallout
        here={here}
        signedIn={viewer !== null}
        text={t("public.opportunities_callout")}
        accountType="freelancer"
      />
      <OpportunityFilters filters={list.filters} errors={list.errors} viewer="freelancer" />
      <h2 className="list-count muted" aria-live="polite">
        {list.meta.total_capped
          ? tm("list.count_capped", { count: list.meta.total })
          : tm("list.count", { count: list.meta.total })}
      </h2>
      {list.data.length ? (
        <div className="opp-list">
          {list.data.map((item) => (
            <PublicOpportunityCard key={item.uuid} item={item} />
          ))}
        </div>
      ) : (
        <EmptyState
          title={tm("list.empty_title")}
          text={filtered ? tm("list.empty_filtered") : tm("list.empty_freelancer")}
        />
      )}
      <Pagination meta={list.meta} />
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
