import { useTranslation } from "react-i18next";
import type { MonthsJson } from "~/services/contracts/monthly.server";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Facts } from "~/components/ui/facts";
import { formatDate } from "~/lib/format";
import { formatMoney } from "~/lib/money";

// A monthly contract's box on its page (docs/product.md, "Contrato mensal"): the month's terms,
// the months with their money state, and ending the contract from the next month (with its
// confirmation step, a plain form).

type Months = Pick<
  MonthsJson,
  "monthly_day" | "month_includes" | "amount_cents" | "net_cents" | "ends_from" | "can_end"
> & {
  months: Pick<
    MonthsJson["months"][number],
    "month" | "starts_on" | "ends_on" | "status" | "amount_cents" | "lapses_on"
  >[];
};

export function RetainerBox({ data, here }: { data: Months; here: string }) {
  const { t, i18n } = useTranslation("market");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const day = (d: string) => formatDate(`${d}T12:00:00.000Z`, i18n.language);
  const monthName = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;
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
