import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/form";
import { formatDateTime } from "~/lib/format";
import { centsToInput, formatMoney } from "~/lib/money";
import type { Role } from "./badges";

export type OfferData = {
  id: string;
  author: Role;
  price_cents: number;
  delivery_days: number;
  message: string | null;
  created_at: string;
};

/** The whole negotiation, oldest first, each offer with its author and the latest one marked. */
export function OfferHistory({ offers, viewer }: { offers: OfferData[]; viewer: Role }) {
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
                <strong>{formatMoney(offer.price_cents, i18n.language)}</strong> ·{" "}
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
}: {
  current: OfferData;
  previous: OfferData | null;
  viewer: Role;
}) {
  const { t, i18n } = useTranslation("market");
  const priceDelta = previous ? current.price_cents - previous.price_cents : 0;
  const daysDelta = previous ? current.delivery_days - previous.delivery_days : 0;
  const who = (o: OfferData) => (o.author === viewer ? t("authors.you") : t(`authors.${o.author}`));
  return (
    <div className="compare">
      <div className="compare-col compare-current">
        <p className="compare-label">
          {t("negotiate.current")} <span className="muted">· {who(current)}</span>
        </p>
        <p className="compare-price">{formatMoney(current.price_cents, i18n.language)}</p>
        <p className="compare-days">{t("applications.days", { count: current.delivery_days })}</p>
        {previous && (priceDelta || daysDelta) ? (
          <p className="compare-delta">
            {priceDelta ? (
              <span className={priceDelta > 0 ? "delta-up" : "delta-down"}>
                {priceDelta > 0
                  ? t("negotiate.change_up", { value: formatMoney(priceDelta, i18n.language) })
                  : t("negotiate.change_down", { value: formatMoney(-priceDelta, i18n.language) })}
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
            <p className="compare-price">{formatMoney(previous.price_cents, i18n.language)}</p>
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
 * Used by the apply form and the counter-offer form.
 */
export function TermsFields({
  priceLabel,
  values,
  errors,
  defaultCents,
  defaultDays,
}: {
  priceLabel: string;
  values?: Record<string, string>;
  errors: Record<string, string>;
  /** The terms the fields start with (the counter-offer form starts with the current ones). */
  defaultCents?: number;
  defaultDays?: number;
}) {
  const { t } = useTranslation("market");
  return (
    <div className="grid-2">
      <Field
        name="price"
        label={priceLabel}
        hint={t("fields.price_hint")}
        inputMode="decimal"
        placeholder="1.500,00"
        required
        defaultValue={values?.price ?? (defaultCents === undefined ? undefined : centsToInput(defaultCents))}
        error={errors.price}
      />
      <Field
        name="delivery_days"
        type="number"
        min={1}
        max={365}
        label={t("fields.delivery_days")}
        hint={t("fields.delivery_days_hint")}
        required
        defaultValue={values?.delivery_days ?? (defaultDays === undefined ? undefined : String(defaultDays))}
        error={errors.delivery_days}
      />
    </div>
  );
}
