import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterInput, FilterSelect, ListFrame, TableCard } from "~/components/admin/ui";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "~/lib/admin-constants";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { listAuditLog } from "~/services/operator/audit.server";
import { getRequestT } from "~/web/i18n.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.audit");

const FIELDS = ["action", "actor", "target_type", "target_id", "from", "to", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const query = queryFromUrl(request, FIELDS);
  const { list, refused } = await readWithoutRefused({ ...query }, listAuditLog);
  const { t } = await getRequestT(request);
  const errors = Object.fromEntries(Object.entries(refused).map(([field, key]) => [field, t(key)]));
  return json({ ...list, filters: query, errors });
}

/** The fields an action changed, one per line: `field: before → after`. */
function changeLines(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const show = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));
  return keys.map((k) => `${k}: ${show(before?.[k])} → ${show(after?.[k])}`).join("\n");
}

export default function AuditPage() {
  const { t, i18n } = useTranslation("admin");
  const { data, meta, operators, filters, errors } = useLoaderData<typeof loader>();
  const active = Object.keys(filters).some((k) => k !== "page");
  const total = meta.total_capped
    ? t("audit.total_capped", { count: meta.total })
    : t("audit.total", { count: meta.total });
  return (
    <div className="page">
      <PageHeader title={t("audit.heading")} intro={t("audit.intro")} />
      <FilterForm active={active}>
        <FilterSelect
          name="action"
          label={t("audit.action")}
          anyLabel={t("audit.any")}
          value={filters.action}
          options={AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) }))}
          error={errors.action}
        />
        <FilterSelect
          name="actor"
          label={t("audit.actor")}
          anyLabel={t("audit.any")}
          value={filters.actor}
          options={[
            ...operators.map((o) => ({ value: o.id, label: o.name })),
            { value: "cli", label: t("audit.command_line") },
          ]}
          error={errors.actor}
        />
        <FilterSelect
          name="target_type"
          label={t("audit.target_type")}
          anyLabel={t("audit.any")}
          value={filters.target_type}
          options={AUDIT_TARGETS.map((a) => ({ value: a, label: t(`audit.targets.${a}`) }))}
          error={errors.target_type}
        />
        <FilterInput name="target_id" label={t("audit.target_id")} value={filters.target_id} error={errors.target_id} />
        <FilterInput name="from" type="date" label={t("audit.from")} value={filters.from} error={errors.from} />
        <FilterInput name="to" type="date" label={t("audit.to")} value={filters.to} error={errors.to} />
      </FilterForm>
      <p className="muted admin-summary" aria-live="polite">
        {total}
      </p>
      <ListFrame count={data.length} empty={t("audit.empty")} meta={meta}>
        <TableCard
          caption={t("audit.heading")}
          columns={[
            t("audit.when"),
            t("audit.who"),
            t("audit.what"),
            t("audit.target"),
            t("audit.reason"),
            t("audit.change"),
          ]}
        >
          <tbody>
            {data.map((row) => (
              <tr key={row.id}>
                <td>{formatDateTime(row.created_at, i18n.language)}</td>
                <td>{row.actor.id ? row.actor.name : t("audit.command_line")}</td>
                <td>{t(`audit.actions.${row.action}`, { defaultValue: row.action })}</td>
                <td>
                  {t(`audit.targets.${row.target.type}`, { defaultValue: row.target.type })}
                  <br />
                  <Link
                    className="link"
                    to={`?target_type=${encodeURIComponent(row.target.type)}&target_id=${encodeURIComponent(row.target.id)}`}
                  >
                    <code>{row.target.id}</code>
                  </Link>
                </td>
                <td className="prewrap">{row.reason ?? "—"}</td>
                <td>
                  <pre className="change">{changeLines(row.before, row.after)}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </TableCard>
      </ListFrame>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
