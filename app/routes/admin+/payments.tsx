import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { Field, FormMessage, TextAreaField } from "~/components/ui/form";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { config } from "~/config.server";
import { adminTitleMeta } from "~/lib/admin-meta";
import { formatDateTime } from "~/lib/format";
import { formFields } from "~/lib/form-fields";
import { confirmChargeSchema, payoutFailedSchema } from "~/lib/payments-schemas";
import { formatMoney, parseMoney } from "~/lib/money";
import {
  confirmPixReceipt,
  failPayout,
  PAYMENT_QUEUE_LIMIT,
  paymentQueues,
  payPayout,
  payRefund,
} from "~/services/operator/payments.server";
import { AppError } from "~/services/platform/errors.server";
import { intentAction } from "~/web/intent-action.server";
import { requireOperator } from "~/web/operator.server";

export const meta = adminTitleMeta("titles.payments");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return json({ payments: config.PAYMENTS, ...(await paymentQueues()) });
}

const refuseMove = () => {
  throw new AppError(400, "payment_move_invalid");
};

/** The page's moves by `intent`: each the operator's service with the form's fields. */
export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  const done = (intent: string) => `payments.done.${intent}`;
  return intentAction(
    request,
    { here: "/admin/payments", toasts: "admin", otherwise: { run: refuseMove, toast: "" } },
    {
      confirm: {
        run: ({ values: v }) =>
          confirmPixReceipt(operator, v.id ?? "", {
            e2e_id: v.e2e_id,
            // Typed in reais ("1.530,00"); what does not read as money goes on as typed, and is refused.
            amount_cents: parseMoney(v.amount) ?? v.amount,
          }),
        toast: done("confirm"),
      },
      pay: { run: ({ values: v }) => payPayout(operator, v.id ?? "", { e2e_id: v.e2e_id }), toast: done("pay") },
      fail: { run: ({ values: v }) => failPayout(operator, v.id ?? "", { reason: v.reason }), toast: done("fail") },
      refund: { run: ({ values: v }) => payRefund(operator, v.id ?? "", { e2e_id: v.e2e_id }), toast: done("refund") },
    },
  );
}

/** The refusal of the form posting `intent` for item `id`, if that is what came back. */
function useRefusalOf(id: string, intent: string) {
  const data = useActionData<typeof action>();
  return data && data.values?.id === id && data.values?.intent === intent ? data : null;
}

function MoveForm({
  id,
  intent,
  label,
  danger,
  children,
}: {
  id: string;
  intent: string;
  label: string;
  danger?: boolean;
  children: (refusal: ReturnType<typeof useRefusalOf>) => ReactNode;
}) {
  const refusal = useRefusalOf(id, intent);
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="admin-form" noValidate>
      <FormMessage data={refusal} />
      <input type="hidden" name="id" value={id} />
      {children(refusal)}
      <div className="form-actions">
        <button
          type="submit"
          name="intent"
          value={intent}
          className={danger ? "btn btn-danger-ghost" : "btn btn-primary"}
          disabled={busy}
        >
          {label}
        </button>
      </div>
    </Form>
  );
}

function E2eField({ id, intent, refusal }: { id: string; intent: string; refusal: ReturnType<typeof useRefusalOf> }) {
  const { t } = useTranslation("admin");
  return (
    <Field
      {...formFields(confirmChargeSchema, refusal).e2e_id}
      id={`${intent}-e2e-${id}`}
      label={t("payments.e2e_id")}
      hint={t("payments.e2e_hint")}
      autoComplete="off"
      spellCheck={false}
      // The identifier's pattern (E2E_ID) is 32 characters long.
      maxLength={32}
    />
  );
}

function Queue({
  title,
  intro,
  empty,
  count,
  children,
}: {
  title: string;
  intro: string;
  empty: string;
  count: number;
  children: ReactNode;
}) {
  const { t } = useTranslation("admin");
  const id = `queue-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="admin-section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title} ({count})
      </h2>
      <p className="muted small">{intro}</p>
      {count ? (
        <ul className="admin-list" aria-labelledby={id}>
          {children}
        </ul>
      ) : (
        <EmptyState title={empty} />
      )}
      {count >= PAYMENT_QUEUE_LIMIT ? <p className="muted small">{t("payments.more", { count })}</p> : null}
    </section>
  );
}

type PayoutRow = SerializeFrom<typeof loader>["payouts"][number];

/** A payout to send: the key, its holder and how it compares with the verified identity. */
function PayoutItem({ payout: p }: { payout: PayoutRow }) {
  const { t, i18n } = useTranslation("admin");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const date = (at: string) => formatDateTime(at, i18n.language);
  return (
    <li className="card queue-item">
      <div className="queue-head">
        <h3 className="small">
          {money(p.amount_cents)} · {p.freelancer.name}
        </h3>
        <span className="muted small">{t("payments.requested_at", { date: date(p.created_at) })}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>{t("payments.key", { type: p.key_type.toUpperCase() })}</dt>
          <dd className="mono">{p.pix_key}</dd>
        </div>
        <div>
          <dt>{t("payments.holder")}</dt>
          <dd>
            {p.holder_name} · {p.holder_document}
          </dd>
        </div>
        <div>
          <dt>{t("payments.freelancer")}</dt>
          <dd>{p.freelancer.email}</dd>
        </div>
        <div>
          <dt>{t("payments.holder_check")}</dt>
          <dd className={p.holder_check === "mismatch" ? "field-error" : undefined}>
            {t(`payments.holder_checks.${p.holder_check}`, {
              document: p.verified_document ?? "—",
              name: p.verified_name ?? "—",
            })}
          </dd>
        </div>
      </dl>
      <MoveForm id={p.id} intent="pay" label={t("payments.pay")}>
        {(refusal) => <E2eField id={p.id} intent="pay" refusal={refusal} />}
      </MoveForm>
      <MoveForm id={p.id} intent="fail" label={t("payments.fail")} danger>
        {(refusal) => (
          <TextAreaField
            {...formFields(payoutFailedSchema, refusal).reason}
            id={`fail-reason-${p.id}`}
            label={t("payments.failure_reason")}
            rows={2}
          />
        )}
      </MoveForm>
    </li>
  );
}

export default function PaymentsPage() {
  const { t, i18n } = useTranslation("admin");
  const { payments, receipts, payouts, refunds } = useLoaderData<typeof loader>();
  const lng = i18n.language;
  const money = (cents: number) => formatMoney(cents, lng);
  const date = (at: string) => formatDateTime(at, lng);
  return (
    <div className="page">
      <PageHeader title={t("payments.heading")} intro={t("payments.intro")} />
      {payments === "off" ? <p className="notice notice-info">{t("payments.off")}</p> : null}

      <Queue
        title={t("payments.receipts")}
        intro={t("payments.receipts_intro")}
        empty={t("payments.receipts_empty")}
        count={receipts.length}
      >
        {receipts.map((c) => (
          <li key={c.id} className="card queue-item">
            <div className="queue-head">
              <h3 className="small">
                {money(c.amount_cents)} · {c.contract.title}
              </h3>
              <span className="muted small">
                {t("payments.issued_at", { date: date(c.created_at), expires: date(c.expires_at) })}
              </span>
            </div>
            <dl className="facts">
              <div>
                <dt>{t("payments.merchant")}</dt>
                <dd>
                  {c.merchant.name} · {c.merchant.email}
                </dd>
              </div>
              <div>
                <dt>{t("payments.txid")}</dt>
                <dd className="mono">{c.txid}</dd>
              </div>
            </dl>
            <MoveForm id={c.id} intent="confirm" label={t("payments.confirm")}>
              {(refusal) => (
                <>
                  <E2eField id={c.id} intent="confirm" refusal={refusal} />
                  <Field
                    name="amount"
                    id={`confirm-amount-${c.id}`}
                    label={t("payments.amount_received")}
                    inputMode="decimal"
                    autoComplete="off"
                    required
                    defaultValue={refusal?.values?.amount}
                    error={refusal?.errors?.amount_cents}
                  />
                </>
              )}
            </MoveForm>
          </li>
        ))}
      </Queue>

      <Queue
        title={t("payments.payouts")}
        intro={t("payments.payouts_intro")}
        empty={t("payments.payouts_empty")}
        count={payouts.length}
      >
        {payouts.map((p) => (
          <PayoutItem key={p.id} payout={p} />
        ))}
      </Queue>

      <Queue
        title={t("payments.refunds")}
        intro={t("payments.refunds_intro")}
        empty={t("payments.refunds_empty")}
        count={refunds.length}
      >
        {refunds.map((r) => (
          <li key={r.id} className="card queue-item">
            <div className="queue-head">
              <h3 className="small">
                {money(r.amount_cents)} · {r.contract.title}
              </h3>
              <span className="muted small">{date(r.created_at)}</span>
            </div>
            <dl className="facts">
              <div>
                <dt>{t("payments.merchant")}</dt>
                <dd>
                  {r.merchant.name} · {r.merchant.email}
                </dd>
              </div>
              {r.charge_e2e_id ? (
                <div>
                  <dt>{t("payments.charge_e2e")}</dt>
                  <dd className="mono">{r.charge_e2e_id}</dd>
                </div>
              ) : null}
            </dl>
            <MoveForm id={r.id} intent="refund" label={t("payments.refund")}>
              {(refusal) => <E2eField id={r.id} intent="refund" refusal={refusal} />}
            </MoveForm>
          </li>
        ))}
      </Queue>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
