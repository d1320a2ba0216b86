import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { BarChart } from "~/components/ui/bar-chart";
import { PageHeader } from "~/components/ui/page-header";
import { METRIC_PERIODS, METRIC_SERIES } from "~/lib/admin-schemas";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatMoney } from "~/lib/format";
import { marketplaceMetrics, type MetricsJson } from "~/services/operator/metrics.server";
import { whatsappToday } from "~/services/messaging/whatsapp.server";
import { getRequestT } from "~/web/i18n.server";
import { queryFromUrl, readWithoutRefused } from "~/web/market-forms.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.overview");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const { list: metrics, refused } = await readWithoutRefused(queryFromUrl(request, ["days"]), marketplaceMetrics);
  const { t } = await getRequestT(request);
  // Today's WhatsApp messages against the platform's cap: one query, only while WhatsApp is on.
  const whatsapp = await whatsappToday();
  return json({ metrics, whatsapp, error: refused.days ? t(refused.days) : null });
}

const WAITING = [
  ["reports", "/admin/reports"],
  ["disputes", "/admin/disputes"],
  ["premoderation", "/admin/premoderation"],
  ["pix_receipts", "/admin/payments"],
  ["payouts", "/admin/payments"],
  ["refunds", "/admin/payments"],
] as const;

/** "45 min", "5 h", "3 dias": the unit a person would say. */
function useDuration() {
  const { t } = useTranslation("admin");
  return (seconds: number) => {
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return t("overview.minutes", { count: minutes });
    const hours = Math.round(seconds / 3600);
    if (hours < 48) return t("overview.hours", { count: hours });
    return t("overview.days_count", { count: Math.round(seconds / 86_400) });
  };
}

/** A share as a whole percentage (one decimal under 10%); "—" without a base. */
function percent(part: number, whole: number, locale: string) {
  if (whole === 0) return "—";
  const share = (100 * part) / whole;
  return `${share.toLocaleString(locale, { maximumFractionDigits: share < 10 ? 1 : 0 })}%`;
}

function Funnel({ funnel }: { funnel: MetricsJson["funnel"] }) {
  const { t, i18n } = useTranslation("admin");
  const steps = ["published", "applied", "hired", "completed"] as const;
  return (
    <ol className="funnel">
      {steps.map((step) => (
        <li key={step} className="funnel-row">
          <span>{t(`overview.funnel_${step}`)}</span>
          <span className="funnel-bar" aria-hidden="true">
            <span style={{ width: funnel.published ? `${(100 * funnel[step]) / funnel.published}%` : 0 }} />
          </span>
          <span className="num">
            {funnel[step].toLocaleString(i18n.language)} ({percent(funnel[step], funnel.published, i18n.language)})
          </span>
        </li>
      ))}
    </ol>
  );
}

export default function AdminOverview() {
  const { t, i18n } = useTranslation("admin");
  const { metrics, whatsapp, error } = useLoaderData<typeof loader>();
  const duration = useDuration();
  const locale = i18n.language;
  const median = metrics.median_first_application_seconds;
  return (
    <div className="page">
      <PageHeader title={t("overview.heading")} intro={t("overview.intro")} />
      <section className="admin-section" aria-labelledby="waiting-heading">
        <h2 id="waiting-heading">{t("overview.waiting")}</h2>
        <div className="figures">
          {WAITING.map(([key, to]) => (
            <Link
              key={key}
              to={to}
              className={`card figure figure-link${metrics.waiting[key] > 0 ? " figure-alert" : ""}`}
            >
              <span className="figure-value">{metrics.waiting[key].toLocaleString(locale)}</span>
              <span className="figure-label">{t(`overview.waiting_${key}`)}</span>
            </Link>
          ))}
        </div>
      </section>
      <section className="admin-section" aria-labelledby="period-heading">
        <div className="queue-head">
          <h2 id="period-heading">{t("overview.period_heading", { count: metrics.days })}</h2>
          <nav aria-label={t("overview.period")} className="action-row">
            {METRIC_PERIODS.map((days) => (
              <Link
                key={days}
                to={`?days=${days}`}
                className={`btn btn-sm ${Number(days) === metrics.days ? "btn-secondary" : "btn-ghost"}`}
                aria-current={Number(days) === metrics.days ? "page" : undefined}
              >
                {t("overview.period_option", { count: Number(days) })}
              </Link>
            ))}
          </nav>
        </div>
        {error ? (
          <p className="alert alert-danger" role="alert">
            {error}
          </p>
        ) : null}
        <div className="figures">
          {METRIC_SERIES.map((key) => (
            <div key={key} className="card figure">
              <span className="figure-value">{metrics.totals[key].toLocaleString(locale)}</span>
              <span className="figure-label">{t(`overview.series_${key}`)}</span>
            </div>
          ))}
          <div className="card figure figure-money">
            <span className="figure-value">{formatMoney(metrics.totals.completed_value_cents, locale)}</span>
            <span className="figure-label">{t("overview.completed_value")}</span>
            <span className="figure-hint">{t("overview.completed_value_hint")}</span>
          </div>
          {whatsapp ? (
            <div className="card figure">
              <span className="figure-value">{whatsapp.sent.toLocaleString(locale)}</span>
              <span className="figure-label">{t("overview.whatsapp_today")}</span>
              <span className="figure-hint">
                {t("overview.whatsapp_today_hint", { cap: whatsapp.cap.toLocaleString(locale) })}
              </span>
            </div>
          ) : null}
        </div>
        <div className="admin-grid">
          <section className="card queue-item" aria-labelledby="funnel-heading">
            <h3 id="funnel-heading">{t("overview.funnel")}</h3>
            <p className="muted">{t("overview.funnel_intro")}</p>
            <Funnel funnel={metrics.funnel} />
          </section>
          <section className="card queue-item" aria-labelledby="health-heading">
            <h3 id="health-heading">{t("overview.health")}</h3>
            <dl className="metric-list">
              <dt>{t("overview.median_first_application")}</dt>
              <dd>{median === null ? t("overview.no_applications") : duration(median)}</dd>
              <dt>{t("overview.dispute_rate")}</dt>
              <dd>
                {percent(metrics.rates.disputes, metrics.rates.hires, locale)}{" "}
                <span className="muted">
                  {t("overview.dispute_rate_detail", { disputes: metrics.rates.disputes, hires: metrics.rates.hires })}
                </span>
              </dd>
              <dt>{t("overview.report_rate")}</dt>
              <dd>
                {metrics.rates.accounts === 0
                  ? "—"
                  : ((1000 * metrics.rates.reports) / metrics.rates.accounts).toLocaleString(locale, {
                      maximumFractionDigits: 1,
                    })}{" "}
                <span className="muted">
                  {t("overview.report_rate_detail", {
                    reports: metrics.rates.reports,
                    accounts: metrics.rates.accounts,
                  })}
                </span>
              </dd>
            </dl>
          </section>
        </div>
        <div className="admin-grid">
          {METRIC_SERIES.map((key) => (
            <section key={key} className="card">
              <BarChart series={metrics.series[key]} title={t(`overview.chart_${key}`)} />
            </section>
          ))}
        </div>
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
