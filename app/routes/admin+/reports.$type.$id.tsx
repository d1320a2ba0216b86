import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ActionPanel, ChoiceField, DaysField } from "~/components/admin/ui";
import { TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime, formatMoney } from "~/lib/format";
import { resolveInputSchema, restoreInputSchema } from "~/lib/admin-schemas";
import { formFields } from "~/lib/form-fields";
import { REPORT_ACTIONS } from "~/lib/moderation";
import { getReportCase, resolveReports, restoreContent } from "~/services/operator/reports.server";
import { orRefusal } from "~/web/errors.server";
import { intentAction } from "~/web/intent-action.server";
import { pageId } from "~/web/params.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.report");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json({ report: await orRefusal(getReportCase(params.type!, pageId(params, "id", "report_not_found"))) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  const id = pageId(params, "id", "report_not_found");
  return intentAction(
    request,
    {
      here: `/admin/reports/${params.type}/${id}`,
      toasts: "admin",
      // The decision's form names no intent.
      otherwise: {
        run: ({ values }) =>
          resolveReports(operator, params.type!, id, {
            action: values.action,
            reason: values.reason,
            days: values.action === "suspend" ? values.days : undefined,
            hide: values.hide,
          }),
        toast: "reports.resolved",
      },
    },
    {
      restore: {
        run: ({ values }) => restoreContent(operator, params.type!, id, { reason: values.reason }),
        toast: "reports.restored",
      },
    },
  );
}

function ResolveForm() {
  const { t } = useTranslation("admin");
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const mine = data && data.values?.intent !== "restore" ? data : null;
  const errors = mine?.errors ?? {};
  const chosen = mine?.values?.action ?? "dismiss";
  return (
    <ActionPanel
      name="resolve"
      title={t("reports.decide")}
      intro={t("reports.decide_intro")}
      intent="resolve"
      refusal={mine}
      submit={t("reports.submit")}
      busy={busy}
    >
      <ChoiceField
        name="action"
        legend={t("reports.action")}
        choices={REPORT_ACTIONS.map((a) => ({ value: a, label: t(`reports.actions.${a}`) }))}
        chosen={chosen}
        error={errors.action}
      />
      <TextAreaField
        {...formFields(resolveInputSchema, mine).reason}
        label={t("reports.reason")}
        hint={t("reports.reason_hint")}
        rows={3}
      />
      <DaysField value={mine?.values?.days} error={errors.days} />
      <label className="choice-inline">
        <input type="checkbox" name="hide" value="1" defaultChecked={mine?.values?.hide === "1"} />
        {t("reports.also_hide")}
      </label>
    </ActionPanel>
  );
}

function RestoreForm() {
  const { t } = useTranslation("admin");
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const mine = data?.values?.intent === "restore" ? data : null;
  return (
    <ActionPanel
      name="restore"
      title={t("reports.restore")}
      intent="restore"
      refusal={mine}
      submit={t("reports.restore_submit")}
      secondary
      busy={busy}
    >
      <TextAreaField
        {...formFields(restoreInputSchema, mine).reason}
        id="restore-reason"
        label={t("reports.reason")}
        rows={2}
      />
    </ActionPanel>
  );
}

export default function ReportCasePage() {
  const { t, i18n } = useTranslation("admin");
  const { t: tm } = useTranslation("market");
  const { report: r } = useLoaderData<typeof loader>();
  const date = (iso: string) => formatDateTime(iso, i18n.language);
  const c = r.content;
  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/admin/reports" className="link">
          ← {t("reports.back")}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={`${t(`reports.targets.${r.target.type}`)}${c.title ? ` · ${c.title}` : ""}`}
        intro={t("reports.open_here", { count: r.open_count })}
      />
      <div className="admin-grid">
        <section className="card queue-item" aria-labelledby="content-title">
          <h3 id="content-title">{t("reports.content")}</h3>
          {c.hidden ? (
            <p className="small">
              <span className="state-tag is-warning">{t("reports.hidden_now")}</span>{" "}
              {c.hidden_reason ? tm("moderation.why", { reason: c.hidden_reason }) : null}
            </p>
          ) : null}
          {r.conversation.length ? (
            <ol className="context-list" aria-label={t("reports.conversation")}>
              {r.conversation.map((m) => (
                <li key={m.id} className={m.id === c.id ? "is-target" : undefined}>
                  <strong>{m.author_name}</strong> <span className="muted small">{date(m.created_at)}</span>
                  {m.hidden ? <span className="state-tag">{t("reports.hidden_now")}</span> : null}
                  <p className="prewrap">{m.body}</p>
                </li>
              ))}
            </ol>
          ) : (
            <blockquote className="quote">{c.exists ? c.text || "—" : t("reports.gone")}</blockquote>
          )}
          {r.contract ? (
            <dl className="admin-facts">
              <dt>{t("reports.contract")}</dt>
              <dd>
                {r.contract.merchant} ↔ {r.contract.freelancer} · {formatMoney(r.contract.price_cents, i18n.language)} ·{" "}
                {tm(`contract_status.${r.contract.status}`, { defaultValue: r.contract.status })}
              </dd>
              {r.contract.review?.reply && r.target.type === "reply" ? (
                <>
                  <dt>{t("reports.reviewed")}</dt>
                  <dd className="prewrap">{r.contract.review.comment}</dd>
                </>
              ) : null}
            </dl>
          ) : null}
          {r.photo_url ? <img src={r.photo_url} alt={t("reports.photo")} width={96} height={96} /> : null}
          {r.portfolio.length ? (
            <ul className="context-list" aria-label={t("reports.portfolio")}>
              {r.portfolio.map((p, i) => (
                <li key={i}>
                  <strong>{p.title}</strong>
                  <p className="prewrap small">{p.description}</p>
                  {p.link ? <p className="small muted">{p.link}</p> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {c.opportunity_uuid && r.target.type === "opportunity" ? (
            <p className="small muted">
              <code>{c.opportunity_uuid}</code>
            </p>
          ) : null}
        </section>
        <section className="card queue-item" aria-labelledby="author-title">
          <h3 id="author-title">{t("reports.author")}</h3>
          {r.author ? (
            <dl className="admin-facts">
              <dt>{t("users.name")}</dt>
              <dd>
                <Link to={`/admin/users/${r.author.id}`} className="link">
                  {r.author.name}
                </Link>
              </dd>
              <dt>{t("users.email")}</dt>
              <dd>{r.author.email}</dd>
              <dt>{t("users.role")}</dt>
              <dd>{t(`users.roles.${r.author.account_type}`)}</dd>
              <dt>{t("users.since")}</dt>
              <dd>{date(r.author.created_at)}</dd>
              <dt>{t("users.standing")}</dt>
              <dd>
                {r.author.banned_at
                  ? t("users.statuses.banned")
                  : r.author.suspended_until && r.author.suspended_until > new Date().toISOString()
                    ? t("users.suspended_until", { date: date(r.author.suspended_until) })
                    : t("users.statuses.active")}
              </dd>
              <dt>{t("reports.history")}</dt>
              <dd>
                {t("reports.history_actioned", { count: r.author_history.actioned_reports })},{" "}
                {t("reports.history_warnings", { count: r.author_history.warnings })}
              </dd>
            </dl>
          ) : (
            <p className="muted">—</p>
          )}
        </section>
      </div>
      <section className="card queue-item" aria-labelledby="reports-title">
        <h3 id="reports-title">{t("reports.reports", { count: r.reports.length })}</h3>
        <ul className="context-list">
          {r.reports.map((report) => (
            <li key={report.id}>
              <strong>{tm(`moderation.reasons.${report.reason}`)}</strong>{" "}
              <span className="muted small">
                {report.reporter.name} · {date(report.created_at)} · {t(`reports.statuses.${report.status}`)}
              </span>
              {report.details ? <p className="prewrap small">{report.details}</p> : null}
            </li>
          ))}
        </ul>
      </section>
      {r.open_count > 0 ? <ResolveForm /> : null}
      {c.hidden ? <RestoreForm /> : null}
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
