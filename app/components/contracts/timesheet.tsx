import { useTranslation } from "react-i18next";
import { ConfirmLink, ConfirmPanel } from "~/components/ui/confirm";
import { Facts } from "~/components/ui/facts";
import {
  Field,
  FormActions,
  FormCard,
  IntentButton,
  SelectField,
  TextAreaField,
  useRefusal,
} from "~/components/ui/form";
import { formatDate } from "~/lib/format";
import { formatMoney } from "~/lib/money";
import { usePending } from "~/lib/pending";
import type { WeekDetailJson } from "~/services/contracts/hourly.server";

// The week of an hourly contract on its page (docs/payments.md, "Contratos por hora"): what was
// logged and what it is worth, the freelancer's quick entry (a plain form: day, hours and
// minutes, what was done), sending the week, and the merchant's approval with the money it moves.
// Every move is a form posting an intent, so all of it works without JavaScript.

type Week = WeekDetailJson;

/** "2 h 35 min", "45 min", "3 h". */
export function duration(minutes: number, t: (key: string, values: Record<string, unknown>) => string) {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h && m) return t("work.hours_minutes", { h, m });
  return h ? t("work.hours", { h }) : t("work.minutes", { m });
}

/** The money lines of the approval: released, fee, what the freelancer receives, what returns. */
export function weekMoneyFacts(week: Week, lng: string, t: (key: string, values: Record<string, unknown>) => string) {
  const money = (cents: number) => formatMoney(cents, lng);
  return [
    t("work.facts_released", { amount: money(week.money.released_cents), time: duration(week.minutes_total, t) }),
    t("work.facts_net", { amount: money(week.money.net_cents), fee: money(week.money.fee_cents) }),
    ...(week.money.refunded_cents > 0 ? [t("work.facts_refund", { amount: money(week.money.refunded_cents) })] : []),
  ];
}

export function Timesheet({
  contractId,
  week,
  viewer,
  today,
  here,
}: {
  contractId: string;
  week: Week;
  viewer: "merchant" | "freelancer";
  /** Today in São Paulo (YYYY-MM-DD): no entry for a day after it. */
  today: string;
  here: string;
}) {
  const { t, i18n } = useTranslation("market");
  const lng = i18n.language;
  const money = (cents: number) => formatMoney(cents, lng);
  const day = (iso: string) => formatDate(`${iso}T12:00:00Z`, lng);
  const actions = week.allowed_actions;
  const canLog = actions.includes("log_time");
  const facts = weekMoneyFacts(week, lng, t);
  const funded = week.status !== "awaiting_funding" && week.status !== "lapsed";
  return (
    <section className="card" aria-labelledby="week-title" id="week">
      <h3 id="week-title">{t("work.week_title", { start: day(week.week_start), end: day(week.week_end) })}</h3>
      <p className="notice notice-info">
        {t(`work.status_${week.status}_${viewer}`, {
          date: week.review_due_at ? formatDate(week.review_due_at, lng) : "",
          amount: money(week.money.amount_cents),
        })}
      </p>
      <Facts
        items={[
          {
            label: t("work.logged"),
            value: t("work.logged_of_cap", {
              time: duration(week.minutes_total, t),
              cap: duration(week.cap_minutes, t),
            }),
            valueClass: "fact-strong",
          },
          // The money moves only for a paid week (without payments, nothing comes back).
          ...(funded
            ? [
                { label: t("work.released"), value: money(week.money.released_cents), valueClass: "fact-strong" },
                {
                  label: t("work.net"),
                  value: `${money(week.money.net_cents)} (${t("payments.fee_of", { fee: money(week.money.fee_cents) })})`,
                },
                { label: t("work.refund"), value: money(week.money.refunded_cents) },
              ]
            : []),
        ]}
      />
      {week.entries.length ? (
        <div className="table-wrap">
          <table className="data-table cards-sm">
            <caption className="visually-hidden">{t("work.entries")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("work.day")}</th>
                <th scope="col">{t("work.duration")}</th>
                <th scope="col">{t("work.description")}</th>
                {canLog ? <th scope="col">{t("work.actions")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {week.entries.map((e) => (
                <tr key={e.id}>
                  <td data-label={t("work.day")}>{day(e.day)}</td>
                  <td data-label={t("work.duration")}>{duration(e.minutes, t)}</td>
                  <td data-label={t("work.description")}>{e.description}</td>
                  {canLog ? (
                    <td data-label={t("work.actions")}>
                      <IntentButton
                        intent="delete_entry"
                        fields={{ entry_id: e.id }}
                        className="btn btn-danger-ghost btn-sm"
                        label={t("work.delete_entry", { day: day(e.day), time: duration(e.minutes, t) })}
                      >
                        {t("work.delete")}
                      </IntentButton>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">{t("work.no_entries")}</p>
      )}
      <p>
        <a href={`/api/contracts/${contractId}/weeks/${week.week_start}/entries.csv`}>{t("work.csv")}</a>
      </p>
      {canLog ? <QuickEntry week={week} today={today} /> : null}
      <div className="action-row">
        {actions.includes("submit") ? (
          <ConfirmLink from={here} intent="submit_week" className="btn btn-primary" preventScrollReset>
            {t("work.submit")}
          </ConfirmLink>
        ) : null}
        {actions.includes("approve") ? (
          <ConfirmLink from={here} intent="approve_week" className="btn btn-primary" preventScrollReset>
            {t("work.approve", { amount: money(week.money.released_cents) })}
          </ConfirmLink>
        ) : null}
      </div>
      <ConfirmPanel
        intent="submit_week"
        tone="primary"
        cancelHref={here}
        allowed={actions.includes("submit")}
        params={{ time: duration(week.minutes_total, t) }}
        facts={facts}
      >
        <input type="hidden" name="week" value={week.week_start} />
      </ConfirmPanel>
      <ConfirmPanel
        intent="approve_week"
        tone="primary"
        cancelHref={here}
        allowed={actions.includes("approve")}
        params={{ amount: money(week.money.released_cents) }}
        facts={facts}
      >
        <input type="hidden" name="week" value={week.week_start} />
      </ConfirmPanel>
    </section>
  );
}

/** The freelancer's quick entry: a day of the week up to today, hours and minutes, what was done. */
function QuickEntry({ week, today }: { week: Week; today: string }) {
  const { t, i18n } = useTranslation("market");
  const mine = useRefusal("log_time");
  const busy = usePending("log_time");
  const days = week.days.filter((d) => d <= today);
  const fallback = days.at(-1) ?? week.week_start;
  return (
    <FormCard
      name="log-time"
      className="stack"
      clearOnSuccess
      title={t("work.log_title")}
      refusal={mine}
      intent="log_time"
      preventScrollReset
    >
      <input type="hidden" name="week" value={week.week_start} />
      <SelectField
        name="day"
        label={t("work.day")}
        value={mine?.values?.day ?? fallback}
        error={mine?.errors?.day}
        options={days.map((d) => ({ value: d, label: formatDate(`${d}T12:00:00Z`, i18n.language) }))}
      />
      <div className="grid-2">
        <Field
          name="hours"
          label={t("work.hours_field")}
          type="number"
          inputMode="numeric"
          min={0}
          max={24}
          defaultValue={mine?.values?.hours ?? ""}
        />
        <Field
          name="minutes"
          label={t("work.minutes_field")}
          type="number"
          inputMode="numeric"
          min={0}
          max={59}
          defaultValue={mine?.values?.minutes ?? ""}
          error={mine?.errors?.minutes}
        />
      </div>
      <TextAreaField
        name="description"
        label={t("work.description")}
        rows={2}
        minLength={10}
        maxLength={2000}
        required
        defaultValue={mine?.values?.description ?? ""}
        error={mine?.errors?.description}
      />
      <FormActions busy={busy} label={t("work.log_submit")} />
    </FormCard>
  );
}
