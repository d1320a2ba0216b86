import { useTranslation } from "react-i18next";
import { estimatedTotalCents, formatMoney, HOURS_PER_DAY } from "~/lib/money";

/** How a price is counted: the opportunity's budget type. */
export type PriceBasis = "fixed" | "hourly" | string;

/**
 * A price as text, "/hora" after an hourly one (for sentences: the accepted terms, a contract's
 * history, a confirmation).
 */
export function usePriceText() {
  const { t, i18n } = useTranslation("market");
  return (cents: number, basis: PriceBasis) =>
    `${formatMoney(cents, i18n.language)}${basis === "hourly" ? t("budget_suffix.hourly") : ""}`;
}

/** The estimate of an hourly price over some days, as a sentence ("≈ R$ 4.800,00 em 10 dias de 8 h"). */
export function useEstimateText() {
  const { t, i18n } = useTranslation("market");
  return (hourlyCents: number, days: number) =>
    t("price.estimate", {
      total: formatMoney(estimatedTotalCents(hourlyCents, days), i18n.language),
      days: t("applications.days", { count: days }),
      hours: HOURS_PER_DAY,
    });
}

/**
 * A price as every page shows it: the amount, "/hora" after an hourly one, and for an hourly one
 * with its days known, the estimated total beside it.
 */
export function Price({
  cents,
  basis,
  days,
  className = "",
}: {
  cents: number;
  basis: PriceBasis;
  days?: number;
  className?: string;
}) {
  const { t, i18n } = useTranslation("market");
  const estimate = useEstimateText();
  const hourly = basis === "hourly";
  return (
    <span className={`price ${className}`}>
      <strong>{formatMoney(cents, i18n.language)}</strong>
      {hourly ? <span className="price-unit">{t("budget_suffix.hourly")}</span> : null}
      {hourly && days ? <span className="price-estimate"> {estimate(cents, days)}</span> : null}
    </span>
  );
}
