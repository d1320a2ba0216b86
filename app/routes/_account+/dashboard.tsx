import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { BarChart } from "~/components/ui/bar-chart";
import { PageHeader } from "~/components/ui/page-header";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { requireUser } from "~/web/auth.server";
import { getDashboard, type Dashboard } from "~/services/marketplace/dashboard.server";

export const meta = marketTitleMeta("titles.dashboard");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ dashboard: await getDashboard(user) });
}

/** Where each figure leads, when it has a list of its own. */
const FIGURE_LINKS: Record<string, string> = {
  open_opportunities: "/opportunities?status=open",
  pending_applications: "/applications/awaiting-confirmation",
  active_applications: "/my-applications",
  awaiting_me: "/applications/awaiting-confirmation",
  accepted_applications: "",
  total_applications: "",
  contracts_in_progress: "/contracts?status=in_progress",
  contracts_awaiting_me: "/contracts",
  contracts_completed_value_cents: "/contracts?status=completed",
  held_cents: "/financeiro",
  available_cents: "/financeiro",
  paid_out_cents: "/financeiro",
  paid_in_cents: "/financeiro",
};

/** Where each step of the profile checklist is filled in, on the settings page. */
const STEP_ANCHORS: Record<string, string> = {
  photo: "#photo",
  bio: "#bio",
  skills: "#skills",
  portfolio: "#portfolio",
  city: "#city",
};

/** Until the profile is complete: what it lacks, each a link to where it is filled in. */
function ProfileChecklist({ profile, role }: { profile: Dashboard["profile"]; role: string }) {
  const { t } = useTranslation("market");
  if (profile.complete) return null;
  const done = profile.steps.filter((s) => s.done).length;
  return (
    <section className="card checklist-card" aria-labelledby="checklist-title">
      <div className="row-between wrap">
        <h3 id="checklist-title">{t("dashboard.checklist_title")}</h3>
        <span className="muted small">{t("dashboard.checklist_progress", { done, total: profile.steps.length })}</span>
      </div>
      <p className="muted">{t(`dashboard.checklist_intro_${role}`)}</p>
      <ul className="checklist">
        {profile.steps.map(({ step, done }) => (
          <li key={step} className={done ? "done" : "todo"}>
            <span className="checklist-mark" aria-hidden="true">
              {done ? "✓" : ""}
            </span>
            {done ? (
              <span>
                {t(`dashboard.checklist.${step}_${role}`)}
                <span className="sr-only"> {t("dashboard.checklist_done")}</span>
              </span>
            ) : (
              <Link to={`/pages/profile-setting${STEP_ANCHORS[step]}`} className="link">
                {t(`dashboard.checklist.${step}_${role}`)}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The shortcuts under the chart, the first one highlighted: [where, label]. */
const SHORTCUTS = {
  merchant: [
    ["/applications/awaiting-confirmation", "dashboard.go_pending"],
    ["/contracts", "dashboard.go_contracts"],
    ["/opportunities", "common:nav.my_opportunities"],
    ["/opportunities/create", "dashboard.go_create"],
  ],
  freelancer: [
    ["/applications/awaiting-confirmation", "dashboard.go_awaiting"],
    ["/my-applications", "dashboard.go_my_applications"],
    ["/contracts", "dashboard.go_contracts"],
    ["/opportunities", "dashboard.go_opportunities"],
  ],
} as const;

export default function DashboardPage() {
  const { t, i18n } = useTranslation("market");
  const { dashboard } = useLoaderData<typeof loader>();
  const role = dashboard.role;
  const highlight = role === "merchant" ? "pending_applications" : "awaiting_me";
  return (
    <div className="page">
      <PageHeader
        title={t("dashboard.heading")}
        intro={t(`dashboard.${role}_intro`)}
        actions={
          role === "merchant" ? (
            <Link to="/opportunities/create" className="btn btn-primary">
              + {t("dashboard.go_create")}
            </Link>
          ) : (
            <Link to="/opportunities" className="btn btn-primary">
              {t("dashboard.go_opportunities")}
            </Link>
          )
        }
      />
      <ProfileChecklist profile={dashboard.profile} role={role} />
      <section className="figures" aria-label={t("dashboard.shortcuts")}>
        {Object.entries(dashboard.figures).map(([key, value]) => {
          const link = FIGURE_LINKS[key];
          const money = key.endsWith("_cents");
          const shown =
            key === "success_rate" ? `${value}%` : money ? formatMoney(value, i18n.language) : String(value);
          const body = (
            <>
              <span className="figure-value" style={money ? ({ "--chars": shown.length } as CSSProperties) : undefined}>
                {shown}
              </span>
              <span className="figure-label">{t(`dashboard.figures_${role}.${key}`)}</span>
              {key === "success_rate" ? <span className="figure-hint">{t("dashboard.success_hint")}</span> : null}
              {/* Money agreed between the two sides, not money that went through Freela (with payments
                  on, the money figures are the ledger's and say so themselves). */}
              {key === "contracts_completed_value_cents" ? (
                <span className="figure-hint">{t("dashboard.agreed_hint")}</span>
              ) : null}
            </>
          );
          const alert = (key === highlight || key === "contracts_awaiting_me") && value > 0;
          const className = `card figure${alert ? " figure-alert" : ""}${money ? " figure-money" : ""}`;
          return link ? (
            <Link key={key} to={link} className={`${className} figure-link`}>
              {body}
            </Link>
          ) : (
            <div key={key} className={className}>
              {body}
            </div>
          );
        })}
      </section>
      <section className="card">
        <BarChart series={dashboard.series} title={t(`dashboard.chart_${role}`)} />
      </section>
      <section className="card">
        <h3>{t("dashboard.shortcuts")}</h3>
        <div className="action-row">
          {SHORTCUTS[role].map(([to, label], i) => (
            <Link key={to} to={to} className={i === 0 ? "btn btn-secondary" : "btn btn-ghost"}>
              {t(label)}
            </Link>
          ))}
        </div>
      </section>
    </div>
  );
}
