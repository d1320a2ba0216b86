import { Form, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MonthsJson } from "~/services/contracts/monthly.server";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Facts } from "~/components/ui/facts";
import { Field, IntentButton, useRefusal } from "~/components/ui/form";
import { feeOf } from "~/lib/fees";
import { formatDate } from "~/lib/format";
import { formatMoney, parseMoney } from "~/lib/money";

// A monthly contract's box on its page (docs/product.md, "Contrato mensal"): the month's terms,
// the months with their money state, changing the month's amount (proposed by one side, accepted
// or refused by the other) and ending the contract from the next month. Plain forms, each binding
// move with its confirmation step: the new amount is typed first (a GET form opening the step,
// which shows what it settles and keeps the amount to correct), then proposed.

type Months = Pick<
  MonthsJson,
  | "monthly_day"
  | "month_includes"
  | "amount_cents"
  | "net_cents"
  | "ends_from"
  | "can_end"
  | "fee_bps"
  | "next_month"
  | "amount_change"
  | "can_change_amount"
  | "can_accept_amount"
> & {
  months: Pick<
    MonthsJson["months"][number],
    "month" | "starts_on" | "ends_on" | "status" | "amount_cents" | "lapses_on"
  >[];
};

const monthName = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

type BoxProps = {
  data: Months;
  here: string;
  viewer: "merchant" | "freelancer";
  /** The amount of Pix Automático authorised (pending or active), if any: a new amount cancels it. */
  recurrenceCents: number | null;
};

export function RetainerBox({ data, here, viewer, recurrenceCents }: BoxProps) {
  const { t, i18n } = useTranslation("market");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const day = (d: string) => formatDate(`${d}T12:00:00.000Z`, i18n.language);
  return (
    <section className="card" aria-labelledby="retainer-title" id="retainer">
      <h3 id="retainer-title">{t("retainer.heading")}</h3>
      <Facts
        items={[
          { label: t("retainer.amount"), value: money(data.amount_cents), valueClass: "fact-strong" },
          { label: t("retainer.net"), value: money(data.net_cents) },
          { label: t("retainer.day"), value: t("retainer.day_value", { day: data.monthly_day }) },
          { label: t("retainer.includes"), value: data.month_includes, wide: true },
        ]}
      />
      {data.ends_from ? (
        <p className="notice notice-info">{t("retainer.ends_from", { month: monthName(data.ends_from) })}</p>
      ) : null}
      <div className="table-wrap">
        <table className="data-table cards-sm">
          <caption className="visually-hidden">{t("retainer.months")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("retainer.month")}</th>
              <th scope="col">{t("retainer.period")}</th>
              <th scope="col">{t("retainer.status")}</th>
            </tr>
          </thead>
          <tbody>
            {data.months.map((m) => (
              <tr key={m.month}>
                <td data-label={t("retainer.month")}>
                  <span>
                    {monthName(m.month)}
                    <br />
                    <span className="muted small">{money(m.amount_cents)}</span>
                  </span>
                </td>
                <td data-label={t("retainer.period")}>
                  {t("retainer.period_value", { start: day(m.starts_on), end: day(m.ends_on) })}
                </td>
                <td data-label={t("retainer.status")}>
                  <span>
                    <span className={`badge month-${m.status}`}>{t(`retainer.status_${m.status}`)}</span>
                    {m.lapses_on ? (
                      <span className="muted small"> · {t("retainer.lapses_on", { date: day(m.lapses_on) })}</span>
                    ) : null}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AmountChange data={data} here={here} viewer={viewer} recurrenceCents={recurrenceCents} />
      {data.can_end ? (
        <p>
          <ConfirmLink from={here} intent="end_monthly" preventScrollReset>
            {t("retainer.end")}
          </ConfirmLink>
        </p>
      ) : null}
      <ConfirmPanel intent="end_monthly" cancelHref={here} allowed={data.can_end} />
    </section>
  );
}

/**
 * The month's amount: the change waiting for an answer (accept with its confirmation step, refuse,
 * or withdraw one's own), or the form proposing one (its step confirms the amount typed).
 */
function AmountChange({ data, here, viewer, recurrenceCents }: BoxProps) {
  const { t, i18n } = useTranslation("market");
  const [params] = useSearchParams();
  const mine = useRefusal("propose_amount");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const change = data.amount_change;
  // What a new amount settles, one line each (the confirmation steps' facts).
  const facts = (cents: number | null) =>
    cents === null || !Number.isSafeInteger(cents) || cents <= 0
      ? []
      : [
          t("retainer.amount_fact_new", { amount: money(cents) }),
          t("retainer.amount_fact_net", { amount: money(cents - feeOf(cents, data.fee_bps)) }),
          t("retainer.amount_fact_from", { month: monthName(data.next_month) }),
          ...(recurrenceCents !== null && recurrenceCents !== cents
            ? [t("retainer.amount_fact_recurrence", { amount: money(recurrenceCents) })]
            : []),
        ];
  if (change) {
    const words = {
      amount: money(change.amount_cents),
      net: money(change.net_cents),
      from: money(data.amount_cents),
      month: monthName(change.from_month),
    };
    return (
      <>
        <div className="notice notice-warning" id="amount-change">
          <p>{t(change.by === viewer ? "retainer.amount_pending_mine" : "retainer.amount_pending_theirs", words)}</p>
          <div className="action-row">
            {data.can_accept_amount ? (
              <ConfirmLink from={here} intent="accept_amount" className="btn btn-primary btn-sm" preventScrollReset>
                {t("retainer.amount_accept")}
              </ConfirmLink>
            ) : null}
            <IntentButton intent="decline_amount" className="btn btn-secondary btn-sm">
              {t(change.by === viewer ? "retainer.amount_withdraw" : "retainer.amount_decline")}
            </IntentButton>
          </div>
        </div>
        <ConfirmPanel
          intent="accept_amount"
          cancelHref={here}
          allowed={data.can_accept_amount}
          tone="primary"
          facts={facts(change.amount_cents)}
        />
      </>
    );
  }
  if (!data.can_change_amount) return null;
  const typed = mine?.values?.amount ?? params.get("amount") ?? "";
  const amountField = (id: string) => (
    <Field
      name="amount"
      id={id}
      label={t("retainer.amount_field")}
      inputMode="decimal"
      required
      defaultValue={typed}
      error={mine?.errors?.amount ?? mine?.errors?.amount_cents}
    />
  );
  // While its step is open, the amount is typed (and corrected) there.
  const stepOpen = params.get("confirm") === "propose_amount";
  return (
    <>
      {stepOpen ? null : (
        <details className="stack" id="amount-change">
          <summary>{t("retainer.amount_change")}</summary>
          <p className="muted">{t("retainer.amount_change_intro", { month: monthName(data.next_month) })}</p>
          <Form method="get" action={here} className="stack" preventScrollReset>
            <input type="hidden" name="confirm" value="propose_amount" />
            {amountField("amount-new")}
            <div className="form-actions">
              <button type="submit" className="btn btn-secondary">
                {t("retainer.amount_continue")}
              </button>
            </div>
          </Form>
        </details>
      )}
      <ConfirmPanel intent="propose_amount" cancelHref={here} tone="primary" facts={facts(parseMoney(typed.trim()))}>
        {amountField("amount")}
      </ConfirmPanel>
    </>
  );
}
