import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MemberIdentity } from "~/components/admin/member-identity";
import { RiskSignals } from "~/components/admin/risk-signals";
import { ActionPanel, ChoiceField, DaysField, TableCard } from "~/components/admin/ui";
import { TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDate, formatDateTime, formatMoney } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { SANCTIONS } from "~/lib/moderation";
import { currentYear, FIRST_INFORME_YEAR } from "~/services/fiscal/informe.server";
import { getMember } from "~/services/operator/members.server";
import { riskSignals } from "~/services/operator/risk-signals.server";
import { sanctionUser } from "~/services/operator/sanctions.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";
import { orRefusal } from "~/web/errors.server";
import { pageId } from "~/web/params.server";
import { redirectWithAdminToast, requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.user");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOperator(request);
  const id = pageId(params, "id", "user_not_found");
  // Seven statements whatever the data: the person's five and the risk signals' two.
  const [member, risk] = await orRefusal(Promise.all([getMember(id), riskSignals(id)]));
  // The years of the freelancer's informe de rendimentos: from the account's year to this one.
  const last = currentYear();
  const since = Math.max(FIRST_INFORME_YEAR, Math.min(last, Number(member.created_at.slice(0, 4)) || last));
  const years = Array.from({ length: last - since + 1 }, (_, i) => last - i);
  return json({ member, risk, years });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  const id = pageId(params, "id", "user_not_found");
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await sanctionUser(operator, id, {
      action: values.action,
      reason: values.reason,
      days: values.action === "suspend" ? values.days : undefined,
    });
    return redirectWithAdminToast(request, `/admin/users/${id}`, `users.done.${values.action}`);
  } catch (error) {
    return formError(request, error, values);
  }
}

function SanctionForm({ sanctioned }: { sanctioned: boolean }) {
  const { t } = useTranslation("admin");
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors = data?.errors ?? {};
  const choices = SANCTIONS.filter((s) => (sanctioned ? s !== "suspend" : s !== "lift"));
  const chosen = data?.values?.action ?? choices[0];
  return (
    <ActionPanel
      name="sanction"
      title={t("users.act")}
      intro={t("users.act_intro")}
      refusal={data}
      submit={t("reports.submit")}
      busy={busy}
    >
      <ChoiceField
        name="action"
        legend={t("reports.action")}
        choices={choices.map((a) => ({ value: a, label: t(`users.sanctions.${a}`) }))}
        chosen={chosen}
        error={errors.action}
      />
      <TextAreaField
        name="reason"
        label={t("reports.reason")}
        hint={t("users.reason_hint")}
        rows={3}
        maxLength={LIMITS.moderation_reason.max}
        defaultValue={data?.values?.reason}
        error={errors.reason}
      />
      {sanctioned ? null : <DaysField value={data?.values?.days} error={errors.days} />}
    </ActionPanel>
  );
}

export default function MemberPage() {
  const { t, i18n } = useTranslation("admin");
  const { member: m, risk, years } = useLoaderData<typeof loader>();
  const date = (iso: string) => formatDateTime(iso, i18n.language);
  const sanctioned = m.status !== "active";
  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/admin/users" className="link">
          ← {t("users.back")}
        </Link>
      </Breadcrumb>
      <PageHeader title={m.name} intro={`${m.email} · ${t(`users.roles.${m.account_type}`)}`} />
      <div className="admin-grid">
        <section className="card queue-item" aria-labelledby="standing-title">
          <h3 id="standing-title">{t("users.standing")}</h3>
          <dl className="admin-facts">
            <dt>{t("users.standing")}</dt>
            <dd>
              <span className={`state-tag${sanctioned ? " is-danger" : ""}`}>
                {m.status === "suspended" && m.suspended_until
                  ? t("users.suspended_until", { date: date(m.suspended_until) })
                  : t(`users.statuses.${m.status}`)}
              </span>
            </dd>
            {m.sanction_reason ? (
              <>
                <dt>{t("reports.reason")}</dt>
                <dd className="prewrap">{m.sanction_reason}</dd>
              </>
            ) : null}
            <dt>{t("users.since")}</dt>
            <dd>{formatDate(m.created_at, i18n.language)}</dd>
            <dt>{t("users.profile")}</dt>
            <dd>{m.profile_hidden ? t("users.statuses.profile_hidden") : t("users.profile_visible")}</dd>
            <dt>{t("users.reports")}</dt>
            <dd>{t("users.reports_text", m.reports)}</dd>
          </dl>
          {m.open_reports.length ? (
            <ul className="context-list" aria-label={t("users.open_reports")}>
              {m.open_reports.map((r) => (
                <li key={`${r.type}:${r.id}`}>
                  <Link to={`/admin/reports/${r.type}/${r.id}`} className="link">
                    {t(`reports.targets.${r.type}`)} · {t("reports.count", { count: r.count })}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
        {m.account_type === "operator" ? null : <SanctionForm sanctioned={sanctioned} />}
      </div>
      {m.account_type === "operator" ? null : <MemberIdentity userId={m.id} identity={m.identity} />}
      {m.account_type === "operator" ? null : <RiskSignals userId={m.id} risk={risk} />}
      {m.account_type === "freelancer" ? (
        <section className="card queue-item" aria-labelledby="informe-title">
          <h2 id="informe-title">{t("users.informe")}</h2>
          <ul className="inline-links notas-counts">
            {years.map((year) => (
              <li key={year}>
                <a href={`/admin/users/${m.id}/informe/${year}.pdf`} className="link" download>
                  {t("users.informe_year", { year })}
                </a>{" "}
                ·{" "}
                <a href={`/admin/users/${m.id}/informe/${year}.csv`} className="link" download>
                  CSV
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {m.contracts.length ? (
        <TableCard caption={t("users.contracts")}>
          <thead>
            <tr>
              <th scope="col">{t("users.contract")}</th>
              <th scope="col">{t("users.role")}</th>
              <th scope="col">{t("reports.status")}</th>
              <th scope="col" className="num">
                {t("users.value")}
              </th>
              <th scope="col">{t("users.flag")}</th>
            </tr>
          </thead>
          <tbody>
            {m.contracts.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to={`/admin/contracts/${c.id}`} className="link">
                    {c.title}
                  </Link>
                </td>
                <td>{t(`users.roles.${c.role}`)}</td>
                <td>{t(`contracts.statuses.${c.status}`)}</td>
                <td className="num">{formatMoney(c.price_cents, i18n.language)}</td>
                <td>
                  {c.flagged_at ? (
                    <span className="state-tag is-warning">{t(`contracts.flags.${c.flag_reason}`)}</span>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableCard>
      ) : null}
      <section className="card queue-item" aria-labelledby="history-title">
        <h3 id="history-title">{t("users.history")}</h3>
        {m.audit.length ? (
          <ul className="context-list">
            {m.audit.map((a) => (
              <li key={a.id}>
                <strong>{t(`audit.actions.${a.action}`, { defaultValue: a.action })}</strong>{" "}
                <span className="muted small">
                  {date(a.created_at)} · {a.actor.id ? a.actor.name : t("audit.command_line")}
                </span>
                {a.reason ? <p className="prewrap small">{a.reason}</p> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t("users.no_history")}</p>
        )}
        <Link to={`/admin/audit?target_type=user&target_id=${m.id}`} className="link small">
          {t("users.full_history")}
        </Link>
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
