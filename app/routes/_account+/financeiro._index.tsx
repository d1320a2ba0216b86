import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormActions, FormCard, FormMessage, SelectField } from "~/components/ui/form";
import { CodeField, PasswordField } from "~/components/accounts/fields";
import { formFields } from "~/lib/form-fields";
import type { FormErrorData } from "~/web/errors.server";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { config } from "~/config.server";
import { formatDateTime } from "~/lib/format";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
import { milestoneTitle, weekApproval } from "~/lib/approval";
import { PIX_KEY_TYPES, payoutAccountSchema } from "~/lib/payments-schemas";
import { RECEIPT_KINDS, getStatement } from "~/services/payments/finance.server";
import { isTwoFactorOn } from "~/services/accounts/two-factor.server";
import { verifiedDocument } from "~/services/accounts/identity.server";
import {
  getPayoutAccount,
  listPayouts,
  maskedKey,
  requestPayout,
  setPayoutAccount,
} from "~/services/payments/payouts.server";
import { ConfirmPanel } from "~/components/ui/confirm";
import { requireUser } from "~/web/auth.server";
import { intentAction } from "~/web/intent-action.server";
import { listFromUrl } from "~/web/market-forms.server";

export const meta = marketTitleMeta("titles.finance");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const freelancer = user.account_type === "freelancer";
  const [{ list: statement }, account, payouts, twoFactor, verified] = await Promise.all([
    listFromUrl(request, ["page"], (q) => getStatement(user, q)),
    freelancer ? getPayoutAccount(user) : Promise.resolve(null),
    freelancer ? listPayouts(user) : Promise.resolve([]),
    freelancer ? isTwoFactorOn(user.id) : Promise.resolve(false),
    freelancer ? verifiedDocument(user.id) : Promise.resolve(null),
  ]);
  return json({
    role: user.account_type,
    payments: config.PAYMENTS,
    minPayout: config.PAYOUT_MIN_CENTS,
    pixHours: config.MANUAL_PIX_HOURS,
    // The payout's destination as the confirmation shows it (masked, as in the e-mails).
    payoutKey: account
      ? { type: account.key_type, key: maskedKey(account.pix_key), holder: account.holder_name }
      : null,
    statement,
    account,
    twoFactor,
    verified: Boolean(verified),
    held: account?.held_until && account.held_until > new Date().toISOString() ? account.held_until : null,
    waiting: payouts.some((p) => p.status === "requested"),
    receiptKinds: RECEIPT_KINDS as string[],
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return intentAction(
    request,
    { here: "/financeiro" },
    {
      payout_account: { run: ({ values }) => setPayoutAccount(user, values), toast: "toasts.payout_account_saved" },
      // Asked from its confirmation step (the key and when it is paid), reached by the first submit.
      payout: { confirm: true, run: () => requestPayout(user), toast: "toasts.payout_requested" },
    },
  );
}

/** The Pix key payouts go to; changing a registered one asks for the password (and the code). */
function PayoutKeyForm({
  account,
  twoFactor,
  data,
}: {
  account: SerializeFrom<typeof loader>["account"];
  twoFactor: boolean;
  data: FormErrorData | null;
}) {
  const { t } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  const f = formFields(payoutAccountSchema, data, account);
  return (
    <FormCard name="key" heading="h2" title={t("finance.key_heading")} refusal={data} intent="payout_account">
      <SelectField
        {...f.key_type}
        label={t("finance.key_type")}
        value={f.key_type.defaultValue || "cpf"}
        options={PIX_KEY_TYPES.map((type) => ({ value: type, label: t(`finance.key_types.${type}`) }))}
      />
      <Field {...f.pix_key} label={t("finance.pix_key")} />
      <Field {...f.holder_name} label={t("finance.holder_name")} />
      <Field {...f.holder_document} label={t("finance.holder_document")} inputMode="numeric" />
      {account ? (
        // Changing a registered key is confirmed like a sign-in (never kept after a refusal).
        <>
          <PasswordField data={data} label={t("finance.key_password")} hint={t("finance.key_password_hint")} />
          {twoFactor ? <CodeField data={data} id="code" label={t("finance.key_code")} inputMode="numeric" /> : null}
        </>
      ) : null}
      <FormActions busy={busy} label={t("finance.key_submit")} className="btn btn-secondary" />
    </FormCard>
  );
}

/** Asking for the available balance: the button says why it cannot be used when it cannot. */
function PayoutRequest({
  available,
  minPayout,
  verified,
  hasKey,
  held,
  waiting,
  data,
}: {
  available: number;
  minPayout: number;
  verified: boolean;
  hasKey: boolean;
  held: string | null;
  waiting: boolean;
  data: Parameters<typeof FormMessage>[0]["data"];
}) {
  const { t, i18n } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <section className="card" aria-labelledby="payout-title">
      <h2 id="payout-title">{t("finance.payout_heading")}</h2>
      <FormMessage data={data} />
      {waiting ? (
        <p className="notice notice-info">{t("finance.payout_waiting")}</p>
      ) : (
        <Form method="post">
          <input type="hidden" name="intent" value="payout" />
          <p>{t("finance.payout_intro", { amount: money(available), min: money(minPayout) })}</p>
          {/* A button that cannot be used says why: no verified identity or Pix key yet, a key just
              changed, or too little to pay out. */}
          {!verified ? (
            <p className="notice notice-info">
              {t("finance.payout_needs_identity")} <Link to="/identidade">{t("finance.payout_identity_link")}</Link>
            </p>
          ) : !hasKey ? (
            <p className="notice notice-info">{t("finance.payout_needs_key")}</p>
          ) : held ? (
            <p className="notice notice-info">
              {t("finance.payout_key_held", { until: formatDateTime(held, i18n.language) })}
            </p>
          ) : available < minPayout ? (
            <p className="notice notice-info">{t("finance.payout_below_min", { min: money(minPayout) })}</p>
          ) : null}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !verified || !hasKey || Boolean(held) || available < minPayout}
          >
            {available > 0
              ? t("finance.payout_submit", { amount: money(available) })
              : t("finance.payout_submit_empty")}
          </button>
        </Form>
      )}
    </section>
  );
}

type Line = SerializeFrom<typeof loader>["statement"]["lines"][number];

/** What a line is: its ledger kind, but a week's approval is "Semana aprovada" (weekApproval). */
const kindOf = (line: Line, t: (key: string) => string) =>
  weekApproval(line) ? t("finance.week_approved") : t(`finance.kinds.${line.kind}`);

/** The line's contract: "Semana de dd/mm — <contract>", "Mês de MM/AAAA — <contract>", else the contract and its milestone. */
function LineContract({ line }: { line: Line }) {
  const { t } = useTranslation("market");
  if (!line.contract) return <>—</>;
  const { period, contract } = line;
  const [y, m, d] = (period?.start ?? "").split("-");
  const title = !period
    ? contract.title
    : period.kind === "week"
      ? t("finance.period_week", { date: `${d}/${m}`, contract: contract.title })
      : t("finance.period_month", { month: `${m}/${y}`, contract: contract.title });
  return (
    <span>
      <Link to={`/contracts/${contract.id}`} className="link">
        {title}
      </Link>
      {line.milestone && !period ? (
        <span className="muted small"> · {milestoneTitle({ title: line.milestone }, t)}</span>
      ) : null}
    </span>
  );
}

/** The money the line moved; for a week or a month, what reached the freelancer and what went back. */
function LineAmount({ line }: { line: Line }) {
  const { t, i18n } = useTranslation("market");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  if (!line.period || (line.freelancer_cents === 0 && line.refund_cents === 0)) return <>{money(line.amount_cents)}</>;
  return (
    <span>
      {money(line.amount_cents)}
      <br />
      <span className="muted small">
        {t("finance.period_money", { released: money(line.freelancer_cents), refund: money(line.refund_cents) })}
      </span>
    </span>
  );
}

export default function FinancePage() {
  const { t, i18n } = useTranslation("market");
  const {
    role,
    payments,
    minPayout,
    pixHours,
    payoutKey,
    statement,
    account,
    twoFactor,
    verified,
    held,
    waiting,
    receiptKinds,
  } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const b = statement.balances;
  const figures =
    role === "freelancer"
      ? [
          ["held", b.held_cents],
          ["available", b.available_cents],
          ["payout_pending", b.payout_pending_cents],
          ["paid_out", b.paid_out_cents],
        ]
      : [
          ["held", b.held_cents],
          ["paid_in", b.paid_in_cents],
          ["refund_due", b.refund_due_cents],
          ["refunded", b.refunded_cents],
        ];
  const mine = (intent: string) => (data && data.values?.intent === intent ? data : null);
  return (
    <div className="page">
      <PageHeader
        title={t("finance.heading")}
        intro={payments === "escrow" ? t(`finance.intro_${role}`) : t("finance.intro_off")}
        actions={
          <>
            <Link to="/financeiro/notas" className="btn btn-secondary">
              {t("finance.notas_link")}
            </Link>
            {role === "freelancer" ? (
              <Link to="/financeiro/notas/emissao" className="btn btn-secondary">
                {t("fiscal_own.link")}
              </Link>
            ) : null}
            <a href="/financeiro/extrato.csv" className="btn btn-secondary" download>
              {t("finance.csv")}
            </a>
          </>
        }
      />
      {payoutKey ? (
        <ConfirmPanel
          intent="payout"
          tone="primary"
          cancelHref="/financeiro"
          allowed={role === "freelancer" && verified && !held && !waiting && b.available_cents >= minPayout}
          params={{ amount: money(b.available_cents) }}
          facts={[
            t("confirm.payout_key", { ...payoutKey, type: t(`finance.key_types.${payoutKey.type}`) }),
            t("confirm.payout_when", { count: pixHours }),
          ]}
        />
      ) : null}
      <section className="figures" aria-label={t("finance.balances")}>
        {figures.map(([key, value]) => (
          <div key={key} className="card figure figure-fit">
            <span className="figure-value" style={{ "--chars": money(value as number).length } as CSSProperties}>
              {money(value as number)}
            </span>
            <span className="figure-label">{t(`finance.balance.${key}`)}</span>
          </div>
        ))}
      </section>

      {role === "freelancer" ? (
        <div className="detail-layout">
          <PayoutRequest
            available={b.available_cents}
            minPayout={minPayout}
            verified={verified}
            hasKey={Boolean(account)}
            held={held}
            waiting={waiting}
            data={mine("payout")}
          />
          <PayoutKeyForm account={account} twoFactor={twoFactor} data={mine("payout_account")} />
        </div>
      ) : null}

      <section className="card" aria-labelledby="lines-title">
        <h2 id="lines-title">{t("finance.lines")}</h2>
        {statement.lines.length === 0 ? (
          <p className="muted">{t("finance.no_lines")}</p>
        ) : (
          <div className="table-wrap">
            <table className="data-table cards-sm">
              <thead>
                <tr>
                  <th scope="col">{t("finance.date")}</th>
                  <th scope="col">{t("finance.kind")}</th>
                  <th scope="col">{t("finance.contract")}</th>
                  <th scope="col">{t("finance.amount")}</th>
                  <th scope="col">{t("finance.fee")}</th>
                  <th scope="col">{t("finance.receipt")}</th>
                </tr>
              </thead>
              <tbody>
                {statement.lines.map((line) => (
                  <tr key={line.id}>
                    <td data-label={t("finance.date")}>{formatDateTime(line.created_at, i18n.language)}</td>
                    <td data-label={t("finance.kind")}>{kindOf(line, t)}</td>
                    <td data-label={t("finance.contract")}>
                      <LineContract line={line} />
                    </td>
                    <td data-label={t("finance.amount")}>
                      <LineAmount line={line} />
                    </td>
                    <td data-label={t("finance.fee")}>{line.fee_cents ? money(line.fee_cents) : "—"}</td>
                    <td data-label={t("finance.receipt")}>
                      {receiptKinds.includes(line.kind) ? (
                        <Link to={`/financeiro/recibos/${line.id}`} className="link">
                          {t("finance.receipt_link")}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination meta={statement.meta} />
      </section>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
