import { useTranslation } from "react-i18next";
import type { RecurrenceStateJson } from "~/services/payments/recurring.server";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { formatMoney } from "~/lib/money";

// Pix Automático on a monthly contract's page (docs/payments.md, "Pix Automático"), beside the
// retainer box: its state, the merchant's "copia e cola" while their bank has not approved it,
// and authorising or cancelling it, each with its confirmation step (plain forms).

export function RecurrenceBox({ data, here }: { data: RecurrenceStateJson; here: string }) {
  const { t, i18n } = useTranslation("market");
  const r = data.recurrence;
  // Nothing to show before one is asked for, unless the viewer may ask (the merchant, with the capability).
  if (!r && !data.can_authorise) return null;
  return (
    <section className="card" aria-labelledby="recurrence-title" id="recurrence">
      <h3 id="recurrence-title">{t("retainer.recurrence_heading")}</h3>
      {r ? (
        <p>
          <span className={`badge recurrence-${r.status}`}>{t(`retainer.recurrence_status_${r.status}`)}</span>{" "}
          {t("retainer.recurrence_terms", { amount: formatMoney(r.amount_cents, i18n.language), day: r.day })}
        </p>
      ) : (
        <p>{t("retainer.recurrence_intro")}</p>
      )}
      {r?.br_code ? (
        <div className="field">
          <label htmlFor="recurrence-code">{t("retainer.recurrence_code")}</label>
          <textarea id="recurrence-code" readOnly rows={3} value={r.br_code} className="mono" />
          <p className="muted small">{t("retainer.recurrence_code_hint")}</p>
        </div>
      ) : null}
      {data.month?.status === "scheduled" ? (
        <p className="notice notice-info">{t("retainer.recurrence_month_scheduled")}</p>
      ) : null}
      {data.month?.status === "refused" ? (
        <p className="notice notice-warning">{t("retainer.recurrence_month_refused")}</p>
      ) : null}
      {data.can_authorise ? (
        <p>
          <ConfirmLink from={here} intent="authorise_recurrence" className="btn btn-primary" preventScrollReset>
            {t("retainer.recurrence_authorise")}
          </ConfirmLink>
        </p>
      ) : null}
      {data.can_cancel ? (
        <p>
          <ConfirmLink from={here} intent="cancel_recurrence" preventScrollReset>
            {t("retainer.recurrence_cancel")}
          </ConfirmLink>
        </p>
      ) : null}
      <ConfirmPanel intent="authorise_recurrence" cancelHref={here} allowed={data.can_authorise} tone="primary" />
      <ConfirmPanel intent="cancel_recurrence" cancelHref={here} allowed={data.can_cancel} />
    </section>
  );
}
