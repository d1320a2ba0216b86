import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field, TextAreaField } from "~/components/ui/form";
import { LIMITS } from "~/lib/limits";
import { formatDateTime, formatMoney } from "~/lib/format";
import { feePercent, netOf } from "~/lib/fees";
import { centsToInput, HOURS_PER_DAY, parseMoney } from "~/lib/money";
import type { Role } from "./badges";
import { Price, useEstimateText, usePriceText, type PriceBasis } from "./price";

export type OfferData = {
  id: string;
  author: Role;
  price_cents: number;
  delivery_days: number;
  message: string | null;
  created_at: string;
};

/**
 * What the freelancer receives of a price after the platform's fee, before anyone commits: live
 * as the price is typed, and without JavaScript from the price sent back with the form.
 */
export function NetLine({
  cents,
  basis,
  feeBps,
  viewer,
}: {
  cents: number | null;
  basis: PriceBasis;
  feeBps: number;
  viewer: Role;
}) {
  const { t, i18n } = useTranslation("market");
  const priced = cents !== null && Number.isFinite(cents) && cents > 0;
  const percent = feePercent(feeBps, i18n.language);
  const suffix = basis === "hourly" ? t("budget_suffix.hourly") : "";
  return (
    <p className="net-line" aria-live="polite">
      {priced
        ? t(`price.net_${viewer}`, { net: `${formatMoney(netOf(cents, feeBps), i18n.language)}${suffix}`, percent })
        : t("price.net_pending", { percent })}
    </p>
  );
}

/** The whole negotiation, oldest first, each offer with its author and the latest one marked. */
export function OfferHistory({ offers, viewer, basis }: { offers: OfferData[]; viewer: Role; basis: PriceBasis }) {
  const { t, i18n } = useTranslation("market");
  return (
    <ol className="timeline">
      {offers.map((offer, i) => {
        const mine = offer.author === viewer;
        const latest = i === offers.length - 1;
        return (
          <li key={offer.id} className={`timeline-item ${mine ? "mine" : "theirs"}${latest ? " latest" : ""}`}>
            <div className="timeline-dot" aria-hidden="true" />
            <div className="timeline-card">
              <div className="timeline-head">
                <strong>{mine ? t("authors.you") : t(`authors.${offer.author}`)}</strong>
                {latest ? <span className="badge badge-latest">{t("negotiate.latest")}</span> : null}
                <time className="muted small" dateTime={offer.created_at}>
                  {formatDateTime(offer.created_at, i18n.language)}
                </time>
              </div>
              <p className="timeline-terms">
                <Price cents={offer.price_cents} basis={basis} /> ·{" "}
                {t("applications.days", { count: offer.delivery_days })}
              </p>
              {offer.message ? <p className="timeline-message">{offer.message}</p> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** The terms on the table beside the ones before them, with what changed. */
export function TermsCompare({
  current,
  previous,
  viewer,
  basis,
}: {
  current: OfferData;
  previous: OfferData | null;
  viewer: Role;
  basis: PriceBasis;
}) {
  const { t } = useTranslation("market");
  const price = usePriceText();
  const estimate = useEstimateText();
  const priceDelta = previous ? current.price_cents - previous.price_cents : 0;
  const daysDelta = previous ? current.delivery_days - previous.delivery_days : 0;
  const who = (o: OfferData) => (o.author === viewer ? t("authors.you") : t(`authors.${o.author}`));
  return (
    <div className="compare">
      <div className="compare-col compare-current">
        <p className="compare-label">
          {t("negotiate.current")} <span className="muted">· {who(current)}</span>
        </p>
        <p className="compare-price">{price(current.price_cents, basis)}</p>
        <p className="compare-days">{t("applications.days", { count: current.delivery_days })}</p>
        {basis === "hourly" ? (
          <p className="compare-estimate">{estimate(current.price_cents, current.delivery_days)}</p>
        ) : null}
        {previous && (priceDelta || daysDelta) ? (
          <p className="compare-delta">
            {priceDelta ? (
              <span className={priceDelta > 0 ? "delta-up" : "delta-down"}>
                {priceDelta > 0
                  ? t("negotiate.change_up", { value: price(priceDelta, basis) })
                  : t("negotiate.change_down", { value: price(-priceDelta, basis) })}
              </span>
            ) : null}
            {daysDelta ? (
              <span className={daysDelta > 0 ? "delta-up" : "delta-down"}>
                {t("negotiate.days_change", {
                  from: previous.delivery_days,
                  to: t("applications.days", { count: current.delivery_days }),
                })}
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
      <div className="compare-col compare-previous">
        <p className="compare-label">
          {t("negotiate.previous")}
          {previous ? <span className="muted"> · {who(previous)}</span> : null}
        </p>
        {previous ? (
          <>
            <p className="compare-price">{price(previous.price_cents, basis)}</p>
            <p className="compare-days">{t("applications.days", { count: previous.delivery_days })}</p>
          </>
        ) : (
          <p className="muted">{t("negotiate.no_previous")}</p>
        )}
      </div>
    </div>
  );
}

/**
 * The two terms every offer names: price in reais (typed the Brazilian way) and delivery days.
 * Used by the apply form and the counter-offer form. On an hourly opportunity the price is per
 * hour and says so, with the estimated total for the days typed (as typed, with JavaScript).
 */
export function TermsFields({
  counter = false,
  basis,
  values,
  errors,
  defaultCents,
  defaultDays,
  defaultCap,
  defaultIncludes = null,
  feeBps = null,
  viewer = "freelancer",
}: {
  /** The platform's fee a hire on these terms would take (null: payments off, nothing shown). */
  feeBps?: number | null;
  /** Who types the terms: the freelancer reads "você recebe", the merchant "o freelancer recebe". */
  viewer?: Role;
  /** The counter-offer form ("Preço"), else the application ("Seu preço"). */
  counter?: boolean;
  basis: PriceBasis;
  values?: Record<string, string>;
  errors: Record<string, string>;
  /** The terms the fields start with (the counter-offer form starts with the current ones). */
  defaultCents?: number;
  defaultDays?: number;
  /**
   * An hourly proposal's weekly cap: the field is offered on an hourly application, and on a
   * counter-offer of a negotiation that has one (null: a negotiation priced without it).
   */
  defaultCap?: number | null;
  /**
   * What a month includes, on a counter-offer of a monthly negotiation (null: not monthly): the
   * field is offered with it, to be kept or changed.
   */
  defaultIncludes?: string | null;
}) {
  const { t } = useTranslation("market");
  const hourly = basis === "hourly";
  const capField = hourly && (counter ? defaultCap !== undefined && defaultCap !== null : true);
  const startPrice = values?.price ?? (defaultCents === undefined ? "" : centsToInput(defaultCents));
  const startDays = values?.delivery_days ?? (defaultDays === undefined ? "" : String(defaultDays));
  const [typed, setTyped] = useState({ price: startPrice, days: startDays });
  const fields = useRef<HTMLDivElement>(null);
  // What was typed before the page came to life (a slow phone) counts too, not only later changes.
  useEffect(() => {
    const value = (name: string) => fields.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? "";
    setTyped({ price: value("price"), days: value("delivery_days") });
  }, []);
  const estimate = useEstimateText();
  const cents = parseMoney(typed.price);
  const days = Number(typed.days);
  const estimated =
    hourly &&
    cents !== null &&
    Number.isFinite(cents) &&
    cents > 0 &&
    Number.isInteger(days) &&
    days >= 1 &&
    days <= 365
      ? estimate(cents, days)
      : null;
  const label = `fields.${counter ? "offer_price" : "price"}${hourly ? "_hourly" : ""}`;
  return (
    <>
      <div className="grid-2" ref={fields}>
        <Field
          name="price"
          label={t(label)}
          hint={t(hourly ? "fields.price_hint_hourly" : "fields.price_hint")}
          inputMode="decimal"
          placeholder={hourly ? "60,00" : "1.500,00"}
          required
          defaultValue={startPrice || undefined}
          onChange={(event) => {
            const price = event.currentTarget.value;
            setTyped((v) => ({ ...v, price }));
          }}
          error={errors.price}
        />
        <Field
          name="delivery_days"
          type="number"
          min={1}
          max={365}
          label={t("fields.delivery_days")}
          hint={t(hourly ? "fields.delivery_days_hint_hourly" : "fields.delivery_days_hint")}
          required
          defaultValue={startDays || undefined}
          onChange={(event) => {
            const days = event.currentTarget.value;
            setTyped((v) => ({ ...v, days }));
          }}
          error={errors.delivery_days}
        />
        {capField ? (
          <Field
            name="weekly_cap_hours"
            type="number"
            min={1}
            max={60}
            label={t("fields.weekly_cap_hours")}
            hint={t("fields.weekly_cap_hours_hint")}
            defaultValue={values?.weekly_cap_hours ?? (defaultCap ? String(defaultCap) : undefined)}
            error={errors.weekly_cap_hours}
          />
        ) : null}
      </div>
      {basis === "fixed" && !counter ? (
        // A proposal with what a month includes is monthly (docs/product.md, "Contrato mensal").
        <TextAreaField
          name="month_includes"
          label={t("retainer.proposal_includes")}
          hint={t("retainer.proposal_includes_hint")}
          rows={3}
          maxLength={LIMITS.month_includes.max}
          defaultValue={values?.month_includes}
          error={errors.month_includes}
        />
      ) : null}
      {counter && defaultIncludes !== null ? (
        // A monthly negotiation's counter-offer says what the month includes (docs/product.md, "Contrato mensal").
        <TextAreaField
          name="month_includes"
          label={t("retainer.includes")}
          rows={3}
          required
          minLength={LIMITS.month_includes.min}
          maxLength={LIMITS.month_includes.max}
          defaultValue={values?.month_includes ?? defaultIncludes}
          error={errors.month_includes}
        />
      ) : null}
      {hourly ? (
        <p className="price-estimate-line" aria-live="polite">
          {estimated ?? t("price.estimate_pending", { hours: HOURS_PER_DAY })}
        </p>
      ) : null}
      {feeBps !== null ? <NetLine cents={cents} basis={basis} feeBps={feeBps} viewer={viewer} /> : null}
    </>
  );
}
