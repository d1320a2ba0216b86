import { Link, useSearchParams } from "@remix-run/react";
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
import { FILE_ACCEPT } from "~/lib/market-constants";
import { formatMoney } from "~/lib/money";
import { usePending } from "~/lib/pending";
import type { WeekDetailJson } from "~/services/contracts/hourly.server";

// The week of an hourly contract on its page (docs/payments.md, "Contratos por hora"): what was
// logged and what it is worth, the freelancer's quick entry (a plain form: day, hours and
// minutes, what was done), sending the week, and the merchant's approval with the money it moves.
// Every move is a form posting an intent, so all of it works without JavaScript. The merchant
// questions an entry of a submitted week; the freelancer answers it or amends the entry (the edit
// form, opened by ?editar=<entry> on the page, is also the open week's).

type Week = WeekDetailJson;
type Entry = Week["entries"][number];
type T = (key: string, values?: Record<string, unknown>) => string;

/** "2 h 35 min", "45 min", "3 h". */
export function duration(minutes: number, t: (key: string, values: Record<string, unknown>) => string) {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h && m) return t("work.hours_minutes", { h, m });
  return h ? t("work.hours", { h }) : t("work.minutes", { m });
}

/**
 * The money lines of the approval: released, fee, what the freelancer receives, what returns (or,
 * when the merchant keeps it, what goes to the next week waiting for its money).
 */
export function weekMoneyFacts(
  week: Week,
  lng: string,
  t: (key: string, values: Record<string, unknown>) => string,
  keepUnused = false,
) {
  const money = (cents: number) => formatMoney(cents, lng);
  const rest = keepUnused ? "work.facts_refund_kept" : "work.facts_refund";
  return [
    t("work.facts_released", { amount: money(week.money.released_cents), time: duration(week.minutes_total, t) }),
    t("work.facts_net", { amount: money(week.money.net_cents), fee: money(week.money.fee_cents) }),
    ...(week.money.refunded_cents > 0 ? [t(rest, { amount: money(week.money.refunded_cents) })] : []),
  ];
}

/**
 * The week's facts: the hours logged of the cap and, for a paid week, its money on both sides
 * (paid for it, released on approval, what the freelancer receives, what goes back).
 */
function weekFacts(week: Week, escrow: boolean, lng: string, t: T) {
  const money = (cents: number) => formatMoney(cents, lng);
  const funded = week.status !== "awaiting_funding" && week.status !== "lapsed";
  const logged = t("work.logged_of_cap", { time: duration(week.minutes_total, t), cap: duration(week.cap_minutes, t) });
  const m = week.money;
  return [
    { label: t("work.logged"), value: logged, valueClass: "fact-strong" },
    // Money kept from an earlier week (the merchant's choice): the week's Pix was (or is) for the rest.
    ...(m.carried_in_cents > 0 && m.carried_from
      ? [{ label: t("work.carried_in"), value: carriedIn(week, lng, t) }]
      : []),
    // The money moves only for a paid week (without payments, nothing comes back).
    ...(funded
      ? [
          ...(escrow ? [{ label: t("work.funded"), value: money(week.money.amount_cents) }] : []),
          { label: t("work.released"), value: money(week.money.released_cents), valueClass: "fact-strong" },
          {
            label: t("work.net"),
            value: `${money(week.money.net_cents)} (${t("payments.fee_of", { fee: money(week.money.fee_cents) })})`,
          },
          { label: t("work.refund"), value: money(week.money.refunded_cents) },
          ...(m.kept_cents > 0 ? [{ label: t("work.kept"), value: money(m.kept_cents) }] : []),
        ]
      : []),
  ];
}

/** "R$ 150,00 guardados da semana de 02/11/2026 (R$ 250,00 a pagar)". */
function carriedIn(week: Pick<Week, "money" | "status">, lng: string, t: T) {
  const money = (cents: number) => formatMoney(cents, lng);
  const from = formatDate(`${week.money.carried_from}T12:00:00Z`, lng);
  const kept = t("work.carried_from", { amount: money(week.money.carried_in_cents), date: from });
  return week.status === "awaiting_funding"
    ? `${kept} (${t("work.money_to_fund", { amount: money(week.money.due_cents) })})`
    : kept;
}

export function Timesheet({
  contractId,
  week,
  viewer,
  today,
  here,
  escrow,
  keepUnused = false,
}: {
  contractId: string;
  week: Week;
  /** The merchant keeps an approved week's unused money for the next week (the approval says so). */
  keepUnused?: boolean;
  /** Payments held by the platform: the week was paid for (its money shown as funded). */
  escrow: boolean;
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
  const canAnswer = actions.includes("answer");
  const [search] = useSearchParams();
  const editing = week.entries.find((e) => e.id === search.get("editar") && (canLog || (canAnswer && e.question_open)));
  // The page's address keeps the week it names (?semana) when an entry's form opens.
  const editHref = (e: Entry) => `${here}${here.includes("?") ? "&" : "?"}editar=${e.id}#edit-entry`;
  const facts = weekMoneyFacts(week, lng, t, keepUnused);
  return (
    <section className="card" aria-labelledby="week-title" id="week">
      <h3 id="week-title">{t("work.week_title", { start: day(week.week_start), end: day(week.week_end) })}</h3>
      <p className="notice notice-info">
        {t(`work.status_${week.status}_${viewer}`, {
          date: week.review_due_at ? formatDate(week.review_due_at, lng) : "",
          amount: money(week.status === "awaiting_funding" ? week.money.due_cents : week.money.amount_cents),
        })}
      </p>
      <Facts items={weekFacts(week, escrow, lng, t)} />
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
                  <td data-label={t("work.description")}>
                    {/* One block: the phone's card lays the cell's children beside its label. */}
                    <div>
                      {e.description}
                      <EntryFile entry={e} />
                      <EntryQuestion entry={e} />
                    </div>
                  </td>
                  {canLog ? (
                    <td data-label={t("work.actions")}>
                      <Link
                        to={editHref(e)}
                        preventScrollReset
                        className="btn btn-secondary btn-sm"
                        aria-label={t("work.edit_entry", { day: day(e.day), time: duration(e.minutes, t) })}
                      >
                        {t("work.edit")}
                      </Link>
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
      {editing ? <EditEntry week={week} entry={editing} today={today} here={here} /> : null}
      {canAnswer ? <Answers week={week} editHref={editHref} /> : null}
      {actions.includes("question") ? <QuestionEntry week={week} /> : null}
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

/** A week of the contract as its list shows it (weekSummaries). */
type WeekSummary = Pick<Week, "week_start" | "week_end" | "status" | "minutes_total" | "cap_minutes" | "money">;

/**
 * The contract's weeks (the pending ones and the newest settled ones): each with its state, its
 * hours and its money, and a link to it (?semana=<its Monday>), the week shown marked.
 */
export function WeekList({
  weeks,
  shown,
  escrow,
  here,
}: {
  weeks: WeekSummary[];
  shown: string | null;
  escrow: boolean;
  here: string;
}) {
  const { t, i18n } = useTranslation("market");
  const lng = i18n.language;
  const money = (cents: number) => formatMoney(cents, lng);
  const day = (iso: string) => formatDate(`${iso}T12:00:00Z`, lng);
  if (weeks.length < 2) return null;
  return (
    <section className="card" aria-labelledby="weeks-title" id="weeks">
      <h3 id="weeks-title">{t("work.weeks_title")}</h3>
      <div className="table-wrap">
        <table className="data-table cards-sm">
          <caption className="visually-hidden">{t("work.weeks_title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("work.weeks_col_week")}</th>
              <th scope="col">{t("work.weeks_col_status")}</th>
              <th scope="col">{t("work.weeks_col_hours")}</th>
              <th scope="col">{t("work.weeks_col_money")}</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.week_start}>
                <td data-label={t("work.weeks_col_week")}>
                  <span>
                    <Link
                      to={`${here}?semana=${w.week_start}#week`}
                      className="link"
                      aria-current={w.week_start === shown ? "true" : undefined}
                    >
                      {t("work.week_link", { start: day(w.week_start), end: day(w.week_end) })}
                    </Link>
                    {w.week_start === shown ? <span className="muted small"> {t("work.weeks_shown")}</span> : null}
                  </span>
                </td>
                <td data-label={t("work.weeks_col_status")}>
                  <span className={`badge week-${w.status}`}>{t(`work.badge_${w.status}`)}</span>
                </td>
                <td data-label={t("work.weeks_col_hours")}>
                  {t("work.logged_of_cap", { time: duration(w.minutes_total, t), cap: duration(w.cap_minutes, t) })}
                </td>
                <td data-label={t("work.weeks_col_money")}>
                  <WeekMoneyCell week={w} escrow={escrow} money={money} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * A week's money in the list: with payments, what was paid (or is to pay) and, once approved,
 * what was released (with the fee) and what went back; without, what the hours are worth.
 */
function WeekMoneyCell({
  week: w,
  escrow,
  money,
}: {
  week: WeekSummary;
  escrow: boolean;
  money: (c: number) => string;
}) {
  const { t, i18n } = useTranslation("market");
  const m = w.money;
  if (w.status === "lapsed") return <>—</>;
  if (!escrow) return <>{t("work.money_hours", { amount: money(m.released_cents) })}</>;
  const carried =
    m.carried_in_cents > 0 && m.carried_from ? (
      <>
        <br />
        <span className="muted small">{carriedIn(w, i18n.language, t)}</span>
      </>
    ) : null;
  if (w.status === "awaiting_funding") {
    return (
      <span>
        {t("work.money_to_fund", { amount: money(m.due_cents) })}
        {carried}
      </span>
    );
  }
  return (
    <span>
      {t("work.money_funded", { amount: money(m.amount_cents) })}
      {carried}
      <br />
      <span className="muted small">
        {w.status === "approved"
          ? t("work.money_settled", {
              released: money(m.released_cents),
              fee: money(m.fee_cents),
              refund: money(m.refunded_cents),
            })
          : t("work.money_to_release", { amount: money(m.released_cents) })}
        {w.status === "approved" && m.kept_cents > 0
          ? ` · ${t("work.money_kept", { amount: money(m.kept_cents) })}`
          : null}
      </span>
    </span>
  );
}

/**
 * The freelancer's quick entry: a day of the week up to today, hours and minutes, what was done,
 * and an optional file (multipart; a file too large to read comes back with its error alone).
 */
function QuickEntry({ week, today }: { week: Week; today: string }) {
  const { t, i18n } = useTranslation("market");
  const data = useRefusal();
  const mine = data?.values?.intent === "log_time" || data?.errors?.file ? data : null;
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
      encType="multipart/form-data"
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
      <Field
        name="file"
        type="file"
        accept={FILE_ACCEPT}
        label={t("work.file_field")}
        hint={t("work.file_hint")}
        error={mine?.errors?.file}
      />
      <FormActions busy={busy} label={t("work.log_submit")} />
    </FormCard>
  );
}

/** Under an entry's description: its file, if it has one (both sides may open it). */
function EntryFile({ entry: e }: { entry: Entry }) {
  const { t } = useTranslation("market");
  if (!e.file) return null;
  return (
    <p className="small">
      <a href={e.file.url} className="link">
        {t("work.file_link", { name: e.file.name })}
      </a>
    </p>
  );
}

/** Under an entry's description: the merchant's question and how it was settled. */
function EntryQuestion({ entry: e }: { entry: Entry }) {
  const { t } = useTranslation("market");
  if (e.question === null) return null;
  return (
    <dl className="entry-question">
      <dt className="muted">{t("work.question_label")}</dt>
      <dd>{e.question}</dd>
      {e.answer !== null ? (
        <>
          <dt className="muted">{t("work.answer_label")}</dt>
          <dd>{e.answer}</dd>
        </>
      ) : (
        <dd className="muted">{t(e.question_open ? "work.question_open" : "work.amended")}</dd>
      )}
    </dl>
  );
}

/** The days an entry may take: those of the week up to today. */
const daysUpTo = (week: Week, today: string) => week.days.filter((d) => d <= today);

/** Minutes as the hours and minutes fields show them. */
const split = (minutes: number) => ({ hours: String(Math.floor(minutes / 60)), minutes: String(minutes % 60) });

/** Hours and minutes, typed apart (the page's action adds them up). */
function DurationFields({ values, error }: { values: { hours?: string; minutes?: string }; error?: string }) {
  const { t } = useTranslation("market");
  return (
    <div className="grid-2">
      <Field
        name="hours"
        label={t("work.hours_field")}
        type="number"
        inputMode="numeric"
        min={0}
        max={24}
        defaultValue={values.hours ?? ""}
      />
      <Field
        name="minutes"
        label={t("work.minutes_field")}
        type="number"
        inputMode="numeric"
        min={0}
        max={59}
        defaultValue={values.minutes ?? ""}
        error={error}
      />
    </div>
  );
}

/**
 * The freelancer edits an entry of the open week, or amends a questioned one (its day stays):
 * one form, the entry's values typed in, what was typed kept on a refusal.
 */
function EditEntry({ week, entry, today, here }: { week: Week; entry: Entry; today: string; here: string }) {
  const { t, i18n } = useTranslation("market");
  const refused = useRefusal("edit_entry");
  const mine = refused?.values?.entry_id === entry.id ? refused : null;
  const busy = usePending("edit_entry");
  const day = (iso: string) => formatDate(`${iso}T12:00:00Z`, i18n.language);
  const amending = week.status === "questioned";
  const values = mine?.values ?? { ...split(entry.minutes), description: entry.description, day: entry.day };
  return (
    <FormCard
      name="edit-entry"
      id="edit-entry"
      className="stack"
      title={t(amending ? "work.amend_title" : "work.edit_title", { day: day(entry.day) })}
      intro={amending ? t("work.amend_intro") : undefined}
      refusal={mine}
      intent="edit_entry"
      preventScrollReset
    >
      <input type="hidden" name="entry_id" value={entry.id} />
      {amending ? (
        <input type="hidden" name="day" value={entry.day} />
      ) : (
        <SelectField
          name="day"
          label={t("work.day")}
          value={values.day ?? entry.day}
          error={mine?.errors?.day}
          options={daysUpTo(week, today).map((d) => ({ value: d, label: day(d) }))}
        />
      )}
      <DurationFields values={values} error={mine?.errors?.minutes} />
      <TextAreaField
        name="description"
        label={t("work.description")}
        rows={2}
        minLength={10}
        maxLength={2000}
        required
        defaultValue={values.description ?? ""}
        error={mine?.errors?.description}
      />
      <FormActions busy={busy} label={t("work.edit_submit")}>
        <Link to={`${here.split("#")[0]}#week`} className="btn btn-ghost" preventScrollReset>
          {t("work.cancel")}
        </Link>
      </FormActions>
    </FormCard>
  );
}

/** The freelancer's open questions: each with its answer form and the way to amend the entry instead. */
function Answers({ week, editHref }: { week: Week; editHref: (e: Entry) => string }) {
  const { t, i18n } = useTranslation("market");
  const refused = useRefusal("answer_entry");
  const busy = usePending("answer_entry");
  const open = week.entries.filter((e) => e.question_open);
  if (!open.length) return null;
  return (
    <section className="stack" aria-labelledby="questions-title">
      <h4 id="questions-title">{t("work.questions_title")}</h4>
      {open.map((e) => {
        const mine = refused?.values?.entry_id === e.id ? refused : null;
        const prefix = `answer-${e.id}-`;
        const params = { day: formatDate(`${e.day}T12:00:00Z`, i18n.language), time: duration(e.minutes, t as T) };
        return (
          <FormCard
            key={e.id}
            name={`answer-${e.id}`}
            className="card stack"
            heading="h3"
            title={t("work.answer_title", params)}
            intro={e.question}
            refusal={mine}
            idPrefix={prefix}
            intent="answer_entry"
            preventScrollReset
            footer={
              <p>
                <Link to={editHref(e)} preventScrollReset>
                  {t("work.amend_link")}
                </Link>
              </p>
            }
          >
            <input type="hidden" name="entry_id" value={e.id} />
            <TextAreaField
              id={`${prefix}answer`}
              name="answer"
              label={t("work.answer_field")}
              rows={2}
              minLength={2}
              maxLength={2000}
              required
              defaultValue={mine?.values?.answer ?? ""}
              error={mine?.errors?.answer}
            />
            <FormActions busy={busy} label={t("work.answer_submit")} />
          </FormCard>
        );
      })}
    </section>
  );
}

/** The merchant questions an entry of the submitted week, with the reason. */
function QuestionEntry({ week }: { week: Week }) {
  const { t, i18n } = useTranslation("market");
  const mine = useRefusal("question_entry");
  const busy = usePending("question_entry");
  const short = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
  if (!week.entries.length) return null;
  return (
    <FormCard
      name="question-entry"
      className="stack"
      title={t("work.question_title")}
      intro={t("work.question_intro")}
      refusal={mine}
      intent="question_entry"
      preventScrollReset
    >
      <input type="hidden" name="week" value={week.week_start} />
      <SelectField
        name="entry_id"
        label={t("work.question_entry")}
        value={mine?.values?.entry_id ?? week.entries[0]!.id}
        error={mine?.errors?.entry_id}
        options={week.entries.map((e) => ({
          value: e.id,
          label: t("work.entry_option", {
            day: formatDate(`${e.day}T12:00:00Z`, i18n.language),
            time: duration(e.minutes, t as T),
            description: short(e.description),
          }),
        }))}
      />
      <TextAreaField
        name="reason"
        label={t("work.question_reason")}
        rows={2}
        minLength={10}
        maxLength={1000}
        required
        defaultValue={mine?.values?.reason ?? ""}
        error={mine?.errors?.reason}
      />
      <FormActions busy={busy} label={t("work.question_submit")} />
    </FormCard>
  );
}
