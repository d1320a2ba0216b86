import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApplicationCard } from "~/components/marketplace/application-card";
import { OpportunityStatusBadge } from "~/components/marketplace/badges";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Breadcrumb, EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination, StatusTabs } from "~/components/ui/pagination";
import { listFromUrl } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { APPLICATION_STATUSES } from "~/lib/market-constants";
import { APPLICATION_SORTS } from "~/lib/market-schemas";
import { marketTitleMeta } from "~/lib/market-meta";
import { listOpportunityApplications } from "~/services/marketplace/applications.server";
import { requireUserFor } from "~/web/auth.server";
import { getOpportunity } from "~/services/marketplace/opportunities.server";
import { pageId } from "~/web/params.server";

export const meta = marketTitleMeta("titles.opportunity_applications");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserFor(request, "opportunity.applications");
  const uuid = pageId(params, "uuid");
  const opportunity = await orRefusal(getOpportunity(user, uuid));
  const { list, query } = await listFromUrl(request, ["status", "page", "sort"], (q) =>
    listOpportunityApplications(user, uuid, q),
  );
  return json({ ...list, opportunity, status: query.status ?? null, sort: query.sort ?? "recent" });
}

export default function OpportunityApplicationsPage() {
  const { t } = useTranslation("market");
  const submit = useSubmit();
  const { data, meta, status, sort, opportunity: o } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <Breadcrumb>
        <Link to={`/opportunities/${o.uuid}`} className="link">
          ← {t("applications.back")}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={t("applications.heading")}
        intro={
          <>
            {t("applications.intro", { title: o.title })} <OpportunityStatusBadge status={o.status} />{" "}
            <span className="muted">· {t("list.hired", { accepted: o.accepted_count, vacancies: o.vacancies })}</span>
          </>
        }
      />
      <StatusTabs statuses={APPLICATION_STATUSES} current={status} label={t("applications.status_filter")} />
      {/* A plain GET form (its button without JavaScript); with JavaScript the list follows the choice at once. */}
      <Form method="get" className="sort-form" onChange={(e) => submit(e.currentTarget)}>
        {status ? <input type="hidden" name="status" value={status} /> : null}
        <label htmlFor="sort">{t("applications.sort_label")}</label>
        <select id="sort" name="sort" defaultValue={sort} key={sort}>
          {APPLICATION_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`applications.sort.${s}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-sm btn-secondary">
          {t("applications.sort_apply")}
        </button>
      </Form>
      {data.length ? (
        <div className="app-list">
          {data.map((item) => (
            <ApplicationCard key={item.id} item={item} viewer="merchant" showOpportunity={false} />
          ))}
        </div>
      ) : (
        <EmptyState
          title={t("applications.empty_title")}
          text={status ? t("applications.empty_filtered") : t("applications.empty_text")}
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
