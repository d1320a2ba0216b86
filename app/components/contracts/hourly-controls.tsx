import { useTranslation } from "react-i18next";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Field, FormActions, FormCard, IntentButton, useRefusal } from "~/components/ui/form";
import { formatDate } from "~/lib/format";
import { usePending } from "~/lib/pending";

// The controls of an hourly contract beside its week (docs/product.md, "Contrato por hora
// (semanas)"): the merchant's weekly cap, changed from the next week not opened yet, what an
// approved week's unused money does (kept for the next week or refunded), and the pause of
// either side. Plain forms posting an intent of the contract's page, so they work
// without JavaScript.

/** The merchant changes the weekly cap (1 to 60 hours) while the contract runs. */
export function CapForm({ capMinutes }: { capMinutes: number }) {
  const { t } = useTranslation("market");
  const mine = useRefusal("change_cap");
  const busy = usePending("change_cap");
  const hours = capMinutes / 60;
  return (
    <FormCard
      name="cap"
      id="cap"
      title={t("work.cap_title")}
      intro={t("work.cap_intro", { hours })}
      refusal={mine}
      intent="change_cap"
      preventScrollReset
    >
      <Field
        name="weekly_cap_hours"
        label={t("work.cap_field")}
        type="number"
        inputMode="numeric"
        min={1}
        max={60}
        defaultValue={mine?.values?.weekly_cap_hours ?? String(hours)}
        error={mine?.errors?.weekly_cap_hours}
      />
      <FormActions busy={busy} label={t("work.cap_submit")} className="btn btn-secondary" />
    </FormCard>
  );
}

/**
 * Either side pauses the running contract from the next week (the week in hand goes on), or
 * resumes it; each through its confirmation step (`?confirm=`), so it works without JavaScript.
 * While paused, the week from which no week opens is shown.
 */
export function PauseControls({ pausedFrom, here }: { pausedFrom: string | null; here: string }) {
  const { t, i18n } = useTranslation("market");
  const intent = pausedFrom === null ? "pause_hourly" : "resume_hourly";
  return (
    <div id="pause" className="stack">
      {pausedFrom !== null ? (
        <p className="notice notice-info">
          {t("work.paused_from", { date: formatDate(`${pausedFrom}T12:00:00Z`, i18n.language) })}
        </p>
      ) : null}
      <p>
        <ConfirmLink from={here} intent={intent} className="btn btn-secondary" preventScrollReset>
          {t(pausedFrom === null ? "work.pause" : "work.resume")}
        </ConfirmLink>
      </p>
      <ConfirmPanel intent={intent} cancelHref={here} tone={pausedFrom === null ? "danger" : "primary"} />
    </div>
  );
}

/**
 * The merchant's choice for an approved week's unused money (with payments): kept for the next
 * week, which then costs less to pay, or refunded (the default). One button that turns it over.
 */
export function KeepUnusedForm({ keep }: { keep: boolean }) {
  const { t } = useTranslation("market");
  return (
    <section className="card stack" id="unused" aria-labelledby="unused-title">
      <h3 id="unused-title">{t("work.unused_title")}</h3>
      <p>{t(keep ? "work.unused_keep_on" : "work.unused_keep_off")}</p>
      <IntentButton intent="keep_unused" fields={{ keep: keep ? "0" : "1" }}>
        {t(keep ? "work.unused_refund_submit" : "work.unused_keep_submit")}
      </IntentButton>
    </section>
  );
}
