import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ContractStatusBadge, ContractTimeline } from "~/components/contracts/contract";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { ActionPanel, ChoiceField } from "~/components/admin/ui";
import { Field, TextAreaField } from "~/components/ui/form";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDate, formatDateTime } from "~/lib/format";
import { disputeDecisionInputSchema } from "~/lib/dispute-schemas";
import { formFields } from "~/lib/form-fields";
import { feePercent } from "~/lib/fees";
import { formatMoney, parseMoney } from "~/lib/money";
import { usePending } from "~/lib/pending";
import { decideDispute, getDisputeCase } from "~/services/operator/disputes.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError, orRefusal } from "~/web/errors.server";
import { redirectWithAdminToast, requireOperator } from "~/web/operator.server";
import { pageId } from "~/web/params.server";

export const meta = adminTitleMeta("titles.dispute");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json({ record: await orRefusal(getDisputeCase(pageId(params, "id"))) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  const id = pageId(params, "id");
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    await decideDispute(operator, id, {
      decision: values.decision,
      reason: values.reason,
      // A split's part for the freelancer, typed in reais; what does not read as money is refused as typed.
      ...(values.decision === "split"
        ? { freelancer_cents: parseMoney(values.freelancer_amount) ?? values.freelancer_amount }
        : {}),
    });
    return redirectWithAdminToast(request, `/admin/disputes/${id}`, "disputes.decided");
  } catch (error) {
    return formError(request, error, values);
  }
}

type Held = { title: string; amount_cents: number; fee_bps: number } | null;

function DecisionForm({ decisions, held, payments }: { decisions: string[]; held: Held; payments: string }) {
  const { t, i18n } = useTranslation("admin");
  const data = useActionData<typeof action>();
  const busy = usePending("decide");
  const errors = data?.errors ?? {};
  return (
    <ActionPanel
      name="decide"
      title={t("disputes.decide")}
      intro={t("disputes.decide_intro")}
      notice={
        payments === "escrow" ? (
          <p className="notice notice-info">
            {held
              ? t("disputes.held", { amount: formatMoney(held.amount_cents, i18n.language), title: held.title })
              : t("disputes.nothing_held")}
          </p>
        ) : null
      }
      intent="decide"
      refusal={data}
      submit={t("disputes.submit")}
      busy={busy}
    >
      <ChoiceField
        name="decision"
        legend={t("disputes.decision")}
        choices={decisions.map((d) => ({ value: d, label: t(`disputes.decisions.${d}`, { defaultValue: d }) }))}
        chosen={data?.values?.decision}
        error={errors.decision}
      />
      {decisions.includes("split") && held ? (
        <Field
          name="freelancer_amount"
          label={t("disputes.split_amount")}
          hint={t("disputes.split_hint", {
            held: formatMoney(held.amount_cents, i18n.language),
            title: held.title,
            fee: `${feePercent(held.fee_bps, i18n.language)}%`,
          })}
          inputMode="decimal"
          autoComplete="off"
          defaultValue={data?.values?.freelancer_amount}
          error={errors.freelancer_cents}
        />
      ) : null}
      <TextAreaField
        {...formFields(disputeDecisionInputSchema, data).reason}
        label={t("disputes.reason")}
        hint={t("disputes.reason_hint")}
        rows={4}
      />
    </ActionPanel>
  );
}

export default function DisputeCase() {
  const { record } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  const { t: tm } = useTranslation("market");
  const { dispute: d, contract: c, messages } = record;
  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/admin/disputes" className="link">
          ← {t("disputes.back")}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={t("disputes.case_heading", { title: c.opportunity.title })}
        intro={t("disputes.sides", {
          merchant: c.merchant.display_name ?? "?",
          freelancer: c.freelancer.display_name ?? "?",
        })}
      />
      <div className="detail-layout">
        <div className="detail-main">
          <section className="card admin-section" aria-labelledby="dispute-summary">
            <h3 id="dispute-summary">{t("disputes.summary")}</h3>
            <dl className="facts">
              <div>
                <dt>{t("disputes.opened_by_label")}</dt>
                <dd>{tm(`authors.${d.opened_by}`)}</dd>
              </div>
              <div>
                <dt>{t("disputes.reason_label")}</dt>
                <dd>{tm(`dispute.reasons.${d.reason}`)}</dd>
              </div>
              <div>
                <dt>{t("disputes.opened_at")}</dt>
                <dd>{formatDateTime(d.created_at, i18n.language)}</dd>
              </div>
              <div>
                <dt>{t("disputes.respond_by")}</dt>
                <dd>
                  {formatDate(d.respond_by, i18n.language)}
                  {d.answered_at ? ` · ${t("disputes.answered")}` : ""}
                </dd>
              </div>
            </dl>
            {d.status === "decided" ? (
              <div className="notice notice-info">
                <p>
                  <strong>{t(`disputes.decisions.${d.decision}`, { defaultValue: d.decision ?? "" })}</strong> ·{" "}
                  {formatDateTime(d.decided_at ?? d.created_at, i18n.language)}
                  {d.decided_by ? ` · ${d.decided_by.name}` : ""}
                </p>
                <p>{d.decision_reason}</p>
              </div>
            ) : null}
          </section>
          {d.status === "open" ? (
            <DecisionForm decisions={record.decisions} held={record.held} payments={c.payments} />
          ) : null}
          <section className="card admin-section" aria-labelledby="terms-title">
            <h3 id="terms-title">{tm("contract.terms")}</h3>
            <p>
              <ContractStatusBadge status={c.status} overdue={c.overdue} />
            </p>
            <dl className="facts">
              <div>
                <dt>{tm("contract.price")}</dt>
                <dd className="fact-strong">{formatMoney(c.price_cents, i18n.language)}</dd>
              </div>
              <div>
                <dt>{tm("contract.delivery")}</dt>
                <dd>{tm("applications.days", { count: c.delivery_days })}</dd>
              </div>
              <div>
                <dt>{tm("contract.hired_at")}</dt>
                <dd>{formatDate(c.created_at, i18n.language)}</dd>
              </div>
              <div>
                <dt>{tm("contract.due_at")}</dt>
                <dd>{formatDate(c.due_at, i18n.language)}</dd>
              </div>
              <div>
                <dt>{tm("contract.deliveries")}</dt>
                <dd>{c.deliveries_count}</dd>
              </div>
            </dl>
          </section>
          <section className="card admin-section" aria-labelledby="conversation-title">
            <h3 id="conversation-title">{t("disputes.conversation")}</h3>
            {messages.length ? (
              <ol className="admin-conversation">
                {messages.map((m) => (
                  <li key={m.id}>
                    <p className="small muted">
                      <strong>{tm(`authors.${m.author}`)}</strong> · {formatDateTime(m.created_at, i18n.language)}
                      {m.hidden ? ` · ${t("disputes.hidden_message")}` : ""}
                    </p>
                    <blockquote className={`quote${m.hidden ? " quote-hidden" : ""}`}>{m.body}</blockquote>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">{t("disputes.no_messages")}</p>
            )}
          </section>
        </div>
        <aside className="detail-aside">
          <section className="card" aria-labelledby="timeline-title">
            <h3 id="timeline-title">{tm("contract.timeline")}</h3>
            <ContractTimeline
              contract={c}
              events={c.events}
              viewer={null}
              fileHref={(file) => `/admin/disputes/${d.id}/files/${file}`}
            />
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
