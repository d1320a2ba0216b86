import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NotasTable } from "~/components/fiscal/notas";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { FormMessage, SelectField } from "~/components/ui/form";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { marketTitleMeta } from "~/lib/market-meta";
import { currentYear, FIRST_INFORME_YEAR } from "~/services/fiscal/informe.server";
import { listMyNotas, reissueNota } from "~/services/fiscal/nota-views.server";
import { requireUser } from "~/web/auth.server";
import { intentAction } from "~/web/intent-action.server";
import { listFromUrl } from "~/web/market-forms.server";

export const meta = marketTitleMeta("titles.notas");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  // The informe's form (a GET, so it works without JavaScript): on to the year's file.
  const year = url.searchParams.get("informe");
  const format = url.searchParams.get("formato");
  if (year && /^\d{4}$/.test(year) && (format === "csv" || format === "pdf")) {
    throw redirect(`/financeiro/informe/${year}.${format}`);
  }
  const { list } = await listFromUrl(request, ["page"], (q) => listMyNotas(user, q));
  const last = currentYear();
  const since = Math.max(FIRST_INFORME_YEAR, Number(user.created_at.slice(0, 4)) || last);
  return json({
    ...list,
    me: user.id,
    freelancer: user.account_type === "freelancer",
    years: Array.from({ length: last - since + 1 }, (_, i) => last - i),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return intentAction(
    request,
    { here: "/financeiro/notas" },
    { reissue: { run: ({ values }) => reissueNota(user, values.id ?? ""), toast: "toasts.nota_reissued" } },
  );
}

export default function NotasPage() {
  const { t } = useTranslation("market");
  const { data, meta, me, freelancer, years } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page">
      <PageHeader
        title={t("notas.heading")}
        intro={t(freelancer ? "notas.intro_freelancer" : "notas.intro_merchant")}
        actions={
          <Link to="/financeiro" className="btn btn-ghost">
            {t("notas.back")}
          </Link>
        }
      />
      <FormMessage data={refusal ?? null} />
      {freelancer ? (
        <section className="card" aria-labelledby="informe-title">
          <h2 id="informe-title">{t("notas.informe_heading")}</h2>
          <p className="muted">{t("notas.informe_intro")}</p>
          <Form method="get" className="informe-form">
            <SelectField
              name="informe"
              label={t("notas.informe_year")}
              value={String(years[0])}
              options={years.map((y) => ({ value: String(y), label: String(y) }))}
            />
            <button type="submit" name="formato" value="pdf" className="btn btn-secondary">
              {t("notas.informe_pdf")}
            </button>
            <button type="submit" name="formato" value="csv" className="btn btn-secondary">
              {t("notas.informe_csv")}
            </button>
          </Form>
        </section>
      ) : null}
      {data.length === 0 ? (
        <EmptyState
          title={t("notas.empty_title")}
          text={t(freelancer ? "notas.empty_freelancer" : "notas.empty_merchant")}
        />
      ) : (
        <section className="card" aria-labelledby="notas-title">
          <h2 id="notas-title">{t("notas.list_heading", { count: meta.total })}</h2>
          <NotasTable
            notas={data}
            caption={t("notas.heading")}
            xmlHref={(n) => `/financeiro/notas/${n.id}.xml`}
            reissuable={(n) =>
              n.kind === "service" && n.issuer === me && (n.status === "rejected" || n.status === "failed")
            }
            busy={busy}
          />
          <Pagination meta={meta} />
        </section>
      )}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
