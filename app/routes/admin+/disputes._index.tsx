import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterSelect, ListFrame } from "~/components/admin/ui";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { DISPUTE_STATUSES } from "~/lib/disputes";
import { formatDate, formatDateTime } from "~/lib/format";
import { listDisputes } from "~/services/operator/disputes.server";
import { getRequestT } from "~/web/i18n.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.disputes");

const FIELDS = ["status", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const query = queryFromUrl(request, FIELDS);
  const { list, refused } = await readWithoutRefused({ ...query }, listDisputes);
  const { t } = await getRequestT(request);
  const errors = Object.fromEntries(Object.entries(refused).map(([field, key]) => [field, t(key)]));
  return json({ ...list, filters: query, errors });
}

export default function DisputesQueue() {
  const { t, i18n } = useTranslation("admin");
  const { t: tm } = useTranslation("market");
  const { data, meta, open_count, filters, errors } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader title={t("disputes.heading")} intro={t("disputes.open_count", { count: open_count })} />
      <FilterForm>
        <FilterSelect
          name="status"
          label={t("disputes.status")}
          value={filters.status ?? "open"}
          options={DISPUTE_STATUSES.map((v) => ({ value: v, label: t(`disputes.statuses.${v}`) }))}
          error={errors.status}
        />
      </FilterForm>
      <ListFrame count={data.length} empty={t("disputes.empty")} meta={meta}>
        <ul className="admin-list" aria-label={t("disputes.heading")}>
          {data.map((d) => (
            <li key={d.id} className="card queue-item">
              <div className="queue-head">
                <h3 className="small">
                  <Link to={`/admin/disputes/${d.id}`} className="link">
                    {d.opportunity.title}
                  </Link>
                </h3>
                <span className="muted small">
                  {t("disputes.since", { date: formatDateTime(d.created_at, i18n.language) })}
                </span>
              </div>
              <p className="small">
                {t("disputes.sides", {
                  merchant: d.merchant.display_name ?? "?",
                  freelancer: d.freelancer.display_name ?? "?",
                })}{" "}
                · {t("disputes.opened_by", { side: tm(`authors.${d.opened_by}`) })} ·{" "}
                {tm(`dispute.reasons.${d.reason}`)}
              </p>
              <p className="small muted">
                {d.status === "decided"
                  ? `${tm(`dispute.decisions.${d.decision}`, { defaultValue: d.decision ?? "" })} ${formatDate(d.decided_at ?? d.created_at, i18n.language)}`
                  : d.answered_at
                    ? t("disputes.answered")
                    : t("disputes.answer_by", { date: formatDate(d.respond_by, i18n.language) })}
              </p>
            </li>
          ))}
        </ul>
      </ListFrame>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
