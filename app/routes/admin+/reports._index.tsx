import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterSelect, ListFrame } from "~/components/admin/ui";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { REPORT_AGES, REPORT_STATUSES, REPORT_TARGETS } from "~/lib/moderation";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { listReportQueue } from "~/services/operator/reports.server";
import { getRequestT } from "~/web/i18n.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.reports");

const FIELDS = ["type", "status", "age", "author", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const query = queryFromUrl(request, FIELDS);
  const { list, refused } = await readWithoutRefused({ ...query }, listReportQueue);
  const { t } = await getRequestT(request);
  const errors = Object.fromEntries(Object.entries(refused).map(([field, key]) => [field, t(key)]));
  return json({ ...list, filters: query, errors });
}

export default function ReportsQueue() {
  const { t, i18n } = useTranslation("admin");
  const { t: tm } = useTranslation("market");
  const { data, meta, open_count, filters, errors } = useLoaderData<typeof loader>();
  const active = Object.keys(filters).some((k) => k !== "page");
  return (
    <div className="page">
      <PageHeader title={t("reports.heading")} intro={t("reports.open_count", { count: open_count })} />
      <FilterForm active={active}>
        {filters.author ? <input type="hidden" name="author" value={filters.author} /> : null}
        <FilterSelect
          name="type"
          label={t("reports.type")}
          anyLabel={t("audit.any")}
          value={filters.type}
          options={REPORT_TARGETS.map((v) => ({ value: v, label: t(`reports.targets.${v}`) }))}
          error={errors.type}
        />
        <FilterSelect
          name="status"
          label={t("reports.status")}
          value={filters.status ?? "open"}
          options={REPORT_STATUSES.map((v) => ({ value: v, label: t(`reports.statuses.${v}`) }))}
          error={errors.status}
        />
        <FilterSelect
          name="age"
          label={t("reports.age")}
          anyLabel={t("audit.any")}
          value={filters.age}
          options={REPORT_AGES.map((v) => ({ value: v, label: t(`reports.ages.${v}`) }))}
          error={errors.age}
        />
      </FilterForm>
      <ListFrame count={data.length} empty={t("reports.empty")} meta={meta}>
        <ul className="admin-list" aria-label={t("reports.heading")}>
          {data.map((group) => {
            const href = `/admin/reports/${group.target.type}/${group.target.id}`;
            return (
              <li
                key={`${group.target.type}:${group.target.id}:${group.resolution?.at ?? ""}`}
                className="card queue-item"
              >
                <div className="queue-head">
                  <h3 className="small">
                    <Link to={href} className="link">
                      {t(`reports.targets.${group.target.type}`)}
                      {group.content.title ? ` · ${group.content.title}` : ""}
                    </Link>
                  </h3>
                  <span className="muted small">
                    {t("reports.count", { count: group.reports_count })} ·{" "}
                    {t("reports.since", { date: formatDateTime(group.first_reported_at, i18n.language) })}
                  </span>
                </div>
                <p className="small">
                  {t("reports.author")}:{" "}
                  {group.author ? (
                    <Link to={`/admin/users/${group.author.id}`} className="link">
                      {group.author.name}
                    </Link>
                  ) : (
                    "—"
                  )}{" "}
                  ·{" "}
                  {Object.entries(group.reasons)
                    .map(([reason, n]) => `${tm(`moderation.reasons.${reason}`)} (${n})`)
                    .join(", ")}
                </p>
                <blockquote className={`quote${group.content.hidden ? " quote-hidden" : ""}`}>
                  {group.content.exists ? group.content.text || "—" : t("reports.gone")}
                </blockquote>
                {group.content.hidden ? <p className="small muted">{t("reports.hidden_now")}</p> : null}
                {group.resolution ? (
                  <p className="small muted">
                    {t(`reports.actions.${group.resolution.action}`)} ·{" "}
                    {formatDateTime(group.resolution.at, i18n.language)}
                    {group.resolution.reason ? ` · ${group.resolution.reason}` : ""}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      </ListFrame>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
