import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterForm, FilterInput, FilterSelect, ListFrame } from "~/components/admin/ui";
import { NotasTable } from "~/components/fiscal/notas";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FormMessage } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { NFSE_KINDS, NFSE_STATUSES } from "~/lib/nfse";
import { listAdminNotas, NOTAS_FILTERS, reissueNota } from "~/services/fiscal/nota-views.server";
import { getRequestT } from "~/web/i18n.server";
import { intentAction } from "~/web/intent-action.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.notas");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const query = queryFromUrl(request, NOTAS_FILTERS);
  const { list, refused } = await readWithoutRefused({ ...query }, listAdminNotas);
  const { t } = await getRequestT(request);
  const errors = Object.fromEntries(Object.entries(refused).map(([field, key]) => [field, t(key)]));
  const { page: _page, ...filters } = query;
  for (const field of Object.keys(refused)) delete filters[field];
  return json({ ...list, filters, errors, csv: `/admin/notas.csv?${new URLSearchParams(filters)}` });
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  return intentAction(
    request,
    { here: `/admin/notas${new URL(request.url).search}`, toasts: "admin" },
    { reissue: { run: ({ values }) => reissueNota(operator, values.id ?? ""), toast: "notas.reissued" } },
  );
}

export default function AdminNotasPage() {
  const { t } = useTranslation("admin");
  const { t: tm } = useTranslation("market");
  const { data, meta, counts, filters, errors, csv } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page">
      <PageHeader
        title={t("notas.heading")}
        intro={t("notas.intro")}
        actions={
          <a href={csv} className="btn btn-secondary" download>
            {t("notas.csv")}
          </a>
        }
      />
      <FormMessage data={refusal ?? null} />
      <FilterForm active={Object.keys(filters).length > 0}>
        <FilterSelect
          name="status"
          label={t("notas.status")}
          anyLabel={t("audit.any")}
          value={filters.status}
          options={NFSE_STATUSES.map((s) => ({ value: s, label: tm(`notas.status.${s}`) }))}
          error={errors.status}
        />
        <FilterSelect
          name="kind"
          label={t("notas.kind")}
          anyLabel={t("audit.any")}
          value={filters.kind}
          options={NFSE_KINDS.map((k) => ({ value: k, label: tm(`notas.kinds.${k}`) }))}
          error={errors.kind}
        />
        <FilterSelect
          name="issuer"
          label={t("notas.issuer")}
          anyLabel={t("audit.any")}
          value={filters.issuer}
          options={["platform", "freelancers"].map((i) => ({ value: i, label: t(`notas.issuers.${i}`) }))}
          error={errors.issuer}
        />
        <FilterInput name="from" type="date" label={t("audit.from")} value={filters.from} error={errors.from} />
        <FilterInput name="to" type="date" label={t("audit.to")} value={filters.to} error={errors.to} />
      </FilterForm>
      <ul className="inline-links notas-counts admin-summary" aria-label={t("notas.counts")}>
        {NFSE_STATUSES.map((s) => (
          <li key={s}>
            {tm(`notas.status.${s}`)}: <strong>{counts[s]}</strong>
          </li>
        ))}
      </ul>
      <ListFrame count={data.length} empty={t("notas.empty")} meta={meta}>
        <section className="card">
          <NotasTable
            notas={data}
            caption={t("notas.heading")}
            xmlHref={() => null}
            reissuable={(n) => n.status === "rejected" || n.status === "failed"}
            busy={busy}
          />
        </section>
      </ListFrame>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
