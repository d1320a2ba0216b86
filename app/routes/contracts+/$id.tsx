import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormActions, FormCard, PageRefusal, TextAreaField, useRefusal } from "~/components/ui/form";
import { ActionsCard } from "~/components/ui/actions";
import { ConfirmPanel } from "~/components/ui/confirm";
import { Facts } from "~/components/ui/facts";
import { FilesField } from "~/components/ui/files-field";
import {
  ContractStatusBadge,
  ContractTimeline,
  DueCountdown,
  FileList,
  daysUntil,
  endCause,
} from "~/components/contracts/contract";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { DisputeSection } from "~/components/contracts/dispute";
import { ContractReviewsSection } from "~/components/reputation/reviews";
import { NotasTable } from "~/components/fiscal/notas";
import { contractNotas } from "~/services/fiscal/nota-views.server";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
import { formatDate } from "~/lib/format";
import { FILE_ACCEPT, MAX_DELIVERY_FILES, REVIEW_DAYS } from "~/lib/market-constants";
import { intentAction, withResult, type PageIntent } from "~/web/intent-action.server";
import { approvalWords, milestoneTitle, workedOn } from "~/lib/approval";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "~/web/i18n.server";
import { formatMoney, parseMoney } from "~/lib/money";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { Price, usePriceText } from "~/components/marketplace/price";
import { requireUser } from "~/web/auth.server";
import {
  acceptCancellation,
  approveContract,
  cancelContract,
  declineCancellation,
  deliverContract,
  getContract,
  requestCancellation,
  requestChanges,
} from "~/services/contracts/contracts.server";
import { addDisputeStatement, openDispute } from "~/services/contracts/disputes.server";
import {
  answerEntry,
  approveWeek,
  deleteEntry,
  editEntry,
  changeWeeklyCap,
  setKeepUnused,
  endHourlyContract,
  logEntry,
  pauseHourlyContract,
  questionEntries,
  resumeHourlyContract,
  submitWeek,
} from "~/services/contracts/hourly.server";
import { Timesheet, WeekList } from "~/components/contracts/timesheet";
import { shownWeek, weekSummaries } from "~/services/contracts/weeks-read.server";
import { CapForm, KeepUnusedForm, PauseControls } from "~/components/contracts/hourly-controls";
import { ContractOrder } from "~/components/catalog/orders";
import { answerOrder, answerOrderFile, answersOnFields } from "~/services/catalog/orders.server";
import { answersFromForm } from "~/lib/order-schemas";
import { RetainerBox } from "~/components/contracts/retainer";
import { RecurrenceBox } from "~/components/contracts/recurrence";
import { authoriseRecurrence, cancelRecurrence, getRecurrence } from "~/services/payments/recurring.server";
import { answerAmount, endMonthlyContract, listMonths, proposeAmount } from "~/services/contracts/monthly.server";
import { ConfirmLink } from "~/components/ui/confirm";
import { dayInSaoPaulo } from "~/lib/work-weeks";
import { getContractReviews, replyToReview, writeReview } from "~/services/reputation/reviews.server";
import { ContractPayments, splitRowCount } from "~/components/payments/contract-payments";
import { claimPaid, getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { MAX_MILESTONES, milestoneInputSchema } from "~/lib/payments-schemas";
import { checkFields } from "~/lib/schemas";
import { AppError, parseInput } from "~/services/platform/errors.server";
import { disputeOpenInputSchema } from "~/lib/dispute-schemas";
import { formFields } from "~/lib/form-fields";
import { cancelInputSchema, changeRequestInputSchema, deliveryInputSchema } from "~/lib/market-schemas";
import { marketFormError } from "~/web/market-forms.server";
import { config } from "~/config.server";
import { fileOf, formValues, readForm } from "~/web/bodies.server";
import { answerMilestone, proposeMilestone, splitMilestones } from "~/services/payments/milestones.server";
import { priceInput } from "~/web/market-forms.server";
import { DELIVERY_FORM } from "~/web/bodies.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.contract");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  const [contract, reviews, charge, notas] = await Promise.all([
    orRefusal(getContract(user, id)),
    orRefusal(getContractReviews(user, id)),
    orRefusal(getCurrentCharge(user, id)),
    // The freelancer's notas fiscais to the merchant (one statement, for the merchant only).
    contractNotas(user, id),
  ]);
  const viewer: "merchant" | "freelancer" = contract.freelancer.id === user.id ? "freelancer" : "merchant";
  const weeks = contract.kind === "hourly" ? await orRefusal(weekSummaries(user, id)) : null;
  const week = weeks ? await orRefusal(shownWeek(user, id, viewer, weeks, namedWeek(request))) : null;
  const months = contract.kind === "monthly" ? await listMonths(user, id) : null;
  const recurrence = contract.kind === "monthly" ? await getRecurrence(user, id) : null;
  // One clock for the server render and the browser's, so countdowns agree when hydrating.
  return json({
    contract,
    reviews,
    charge,
    notas,
    viewer,
    weeks,
    week,
    months,
    recurrence,
    today: dayInSaoPaulo(new Date()),
    now: Date.now(),
    pixHours: config.MANUAL_PIX_HOURS,
  });
}

/** The week the address names (?semana=YYYY-MM-DD), if any: anything else than a date is no week (the 404 of getWeek). */
function namedWeek(request: Request) {
  return new URL(request.url).searchParams.get("semana");
}

/** Hours and minutes typed apart, as the minutes the service takes (anything else is refused there). */
function typedMinutes(values: Record<string, string>) {
  const hours = (values.hours ?? "").trim();
  const minutes = (values.minutes ?? "").trim();
  if (!hours && !minutes) return undefined;
  if (!/^\d{1,4}$/.test(hours || "0") || !/^\d{1,4}$/.test(minutes || "0")) return "invalid";
  return Number(hours || 0) * 60 + Number(minutes || 0);
}

/**
 * The page's question form names one entry: the API's list, with a refusal of it landing on the
 * form's fields (the entry chosen, or the reason).
 */
async function questionOne(user: Awaited<ReturnType<typeof requireUser>>, id: string, values: Record<string, string>) {
  try {
    return await questionEntries(user, id, values.week ?? "", {
      entries: [{ id: values.entry_id, reason: values.reason }],
    });
  } catch (error) {
    const key = error instanceof AppError ? error.fieldErrors?.entries : undefined;
    if (!(error instanceof AppError) || !key) throw error;
    const field = key === "entry_question_entry" ? "entry_id" : "reason";
    throw new AppError(error.status, error.key, { [field]: key }, error.params);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  const payments = `/contracts/${id}#payments-title`;
  const step = await formStep(request);
  if (step) return step;
  return intentAction(
    request,
    // A price typed in reais (a milestone proposed, the month's new amount): its refusal lands on it.
    { here: `/contracts/${id}`, body: DELIVERY_FORM, prices: { amount: "amount_cents" } },
    {
      deliver: {
        toast: "toasts.delivered",
        run: ({ values, files }) => deliverContract(user, id, { message: values.message }, files),
      },
      request_changes: {
        toast: "toasts.changes_requested",
        run: ({ values }) => requestChanges(user, id, { message: values.message }),
      },
      approve: withResult({
        confirm: true,
        // The toast names the milestone released and its amount, and says the contract ended only when it did.
        toast: (contract, lng) => {
          const released = contract.milestones.filter((m) => m.status === "released").at(-1);
          const words = approvalWords(contract, released, lng, fixedT(lng, "market"));
          return ["toasts.approved", { ...words, context: words.context }];
        },
        run: async () => {
          await approveContract(user, id);
          return getContract(user, id);
        },
      }),
      cancel_contract: {
        confirm: true,
        toast: "toasts.contract_cancelled",
        run: ({ values }) => cancelContract(user, id, { reason: values.reason }),
      },
      request_cancellation: {
        confirm: true,
        toast: "toasts.cancellation_requested",
        run: ({ values }) => requestCancellation(user, id, { reason: values.reason }),
      },
      accept_cancellation: {
        confirm: true,
        toast: "toasts.cancellation_accepted",
        run: () => acceptCancellation(user, id),
      },
      decline_cancellation: { toast: "toasts.cancellation_declined", run: () => declineCancellation(user, id) },
      open_dispute: {
        toast: "toasts.dispute_opened",
        run: ({ values, files }) =>
          openDispute(user, id, { reason: values.reason, statement: values.statement, week: values.week }, files),
      },
      dispute_statement: {
        toast: "toasts.dispute_statement",
        run: ({ values, files }) => addDisputeStatement(user, id, { statement: values.statement }, files),
      },
      order_answers: {
        toast: "services:order_answered",
        to: `/contracts/${id}#order`,
        run: ({ values }) => answersOnFields(answerOrder(user, id, { answers: answersFromForm(values) ?? [] })),
      },
      order_file: {
        toast: "services:order_file_sent",
        to: `/contracts/${id}#order`,
        run: ({ values, files }) => answerOrderFile(user, id, { question: values.question }, files[0]),
      },
      review: {
        toast: "toasts.review_saved",
        run: ({ values }) => writeReview(user, id, { rating: values.rating, comment: values.comment }),
      },
      reply: {
        toast: "toasts.review_reply_saved",
        run: ({ values }) => replyToReview(user, values.review_id ?? "", { reply: values.reply }),
      },
      fund: {
        toast: "toasts.charge_issued",
        to: payments,
        run: ({ values }) => issueCharge(user, id, undefined, values),
      },
      claim_paid: {
        toast: "toasts.charge_claimed",
        to: payments,
        run: ({ values }) => claimPaid(user, id, values.charge_id ?? ""),
      },
      split_milestones: {
        toast: "toasts.milestones_saved",
        to: payments,
        run: ({ values }) => splitMilestones(user, id, { milestones: splitRows(values) }),
      },
      propose_milestone: {
        toast: "toasts.milestone_proposed",
        to: payments,
        run: ({ values }) =>
          proposeMilestone(user, id, priceInput(values, { amount: "amount_cents" }, { required: true })),
      },
      accept_milestone: {
        toast: "toasts.milestone_accepted",
        to: payments,
        run: ({ values }) => answerMilestone(user, id, values.milestone_id ?? "", true),
      },
      decline_milestone: {
        toast: "toasts.milestone_declined",
        to: payments,
        run: ({ values }) => answerMilestone(user, id, values.milestone_id ?? "", false),
      },
      ...hourlyIntents(user, id, namedWeek(request)),
      // A monthly contract (monthly.server.ts): from the next month.
      end_monthly: {
        confirm: true,
        toast: "retainer.ended_toast",
        to: `/contracts/${id}#retainer`,
        run: () => endMonthlyContract(user, id),
      },
      // The month's amount (monthly.server.ts): proposed by one side, answered by the other.
      propose_amount: {
        confirm: true,
        toast: "retainer.amount_proposed_toast",
        to: `/contracts/${id}#retainer`,
        run: ({ values }) =>
          proposeAmount(user, id, priceInput(values, { amount: "amount_cents" }, { required: true })),
      },
      accept_amount: {
        confirm: true,
        toast: "retainer.amount_accepted_toast",
        to: `/contracts/${id}#retainer`,
        run: () => answerAmount(user, id, true),
      },
      decline_amount: {
        toast: "retainer.amount_declined_toast",
        to: `/contracts/${id}#retainer`,
        run: () => answerAmount(user, id, false),
      },
      // Pix Automático on a monthly contract (recurring.server.ts).
      authorise_recurrence: {
        confirm: true,
        toast: "retainer.recurrence_authorised_toast",
        to: `/contracts/${id}#recurrence`,
        run: () => authoriseRecurrence(user, id),
      },
      cancel_recurrence: {
        confirm: true,
        toast: "retainer.recurrence_cancelled_toast",
        to: `/contracts/${id}#recurrence`,
        run: () => cancelRecurrence(user, id),
      },
    },
  );
}

/**
 * The moves on an hourly contract's weeks (hourly.server.ts), each back to the week on the page:
 * the one the form was posted from when its address named it (?semana).
 */
function hourlyIntents(user: Awaited<ReturnType<typeof requireUser>>, id: string, named: string | null) {
  const week =
    named && /^\d{4}-\d{2}-\d{2}$/.test(named) ? `/contracts/${id}?semana=${named}#week` : `/contracts/${id}#week`;
  return {
    log_time: {
      toast: "toasts.entry_logged",
      to: week,
      // The quick entry is multipart, with its optional file (entry-files.server.ts).
      run: ({ values, form }) => logEntry(user, id, values.week ?? "", entryFields(values), fileOf(form, "file")),
    },
    edit_entry: {
      toast: "work.toast_saved",
      to: week,
      run: ({ values }) => editEntry(user, id, values.entry_id ?? "", entryFields(values)),
    },
    question_entry: {
      toast: "work.toast_questioned",
      to: week,
      run: ({ values }) => questionOne(user, id, values),
    },
    answer_entry: {
      toast: "work.toast_answered",
      to: week,
      run: ({ values }) => answerEntry(user, id, values.entry_id ?? "", { answer: values.answer }),
    },
    delete_entry: {
      toast: "toasts.entry_deleted",
      to: week,
      run: ({ values }) => deleteEntry(user, id, values.entry_id ?? ""),
    },
    submit_week: {
      confirm: true,
      toast: "toasts.week_submitted",
      to: week,
      run: ({ values }) => submitWeek(user, id, values.week ?? ""),
    },
    approve_week: {
      confirm: true,
      toast: "toasts.week_approved",
      to: week,
      run: ({ values }) => approveWeek(user, id, values.week ?? ""),
    },
    end_hourly: { confirm: true, toast: "toasts.hourly_ended", run: () => endHourlyContract(user, id) },
    pause_hourly: {
      confirm: true,
      toast: "work.toast_paused",
      to: `/contracts/${id}#pause`,
      run: () => pauseHourlyContract(user, id),
    },
    resume_hourly: {
      confirm: true,
      toast: "work.toast_resumed",
      to: `/contracts/${id}#pause`,
      run: () => resumeHourlyContract(user, id),
    },
    change_cap: {
      toast: "work.toast_cap",
      to: `/contracts/${id}#cap`,
      run: ({ values }) => changeWeeklyCap(user, id, { weekly_cap_hours: values.weekly_cap_hours }),
    },
    keep_unused: {
      toast: "work.toast_unused",
      to: `/contracts/${id}#unused`,
      run: ({ values }) => setKeepUnused(user, id, { keep: values.keep }),
    },
  } satisfies Record<string, PageIntent<unknown>>;
}

type Loaded = SerializeFrom<typeof loader>;

/**
 * A monthly contract's boxes: its months (with the amount's change, which tells what it does to
 * Pix Automático authorised, pending or active), and Pix Automático.
 */
function MonthlyBoxes({
  months,
  recurrence,
  here,
  viewer,
}: Pick<Loaded, "months" | "recurrence" | "viewer"> & { here: string }) {
  const r = recurrence?.recurrence;
  const live = r && (r.status === "pending" || r.status === "active") ? r.amount_cents : null;
  return (
    <>
      {months ? <RetainerBox data={months} here={here} viewer={viewer} recurrenceCents={live} /> : null}
      {recurrence ? <RecurrenceBox data={recurrence} here={here} /> : null}
    </>
  );
}

/** An entry as the quick entry and its edit form post it. */
const entryFields = (values: Record<string, string>) => ({
  day: values.day,
  minutes: typedMinutes(values),
  description: values.description,
});

/**
 * The steps of a form that come back to the page instead of moving anything (plain forms only):
 * - the dispute's first submit: its reason and statement are checked, and the page shows what
 *   opening it does, to confirm (with the files to attach); the second submit opens it;
 * - the split form's "adicionar etapa" and "recalcular" (without JavaScript): the form comes back
 *   with what was typed, one more row for the first (up to MAX_MILESTONES), the total worked out.
 */
async function formStep(request: Request) {
  if (!/^application\/x-www-form-urlencoded/i.test(request.headers.get("Content-Type") ?? "")) return null;
  const form = formValues(await readForm(request.clone()).catch(() => new FormData()));
  if (form.intent === "open_dispute" && form.confirmed !== "1") {
    try {
      parseInput(disputeOpenInputSchema, form);
    } catch (error) {
      return marketFormError(request, error, form);
    }
    return json({ values: form, confirming: "open_dispute" as const });
  }
  if (form.intent !== "split_milestones" || (form.step !== "add" && form.step !== "recalc")) return null;
  const rows = splitRowCount(form);
  if (form.step === "add" && rows >= MAX_MILESTONES) {
    const { t } = await getRequestT(request);
    return json({ message: t("milestones_rows_max"), values: form }, { status: 422 });
  }
  return json({ values: { ...form, rows: String(form.step === "add" ? rows + 1 : rows) } });
}

/**
 * The split form's filled rows as milestones (reais typed → centavos); blank rows are left out.
 * Every row posted counts, however many (the service refuses more than MAX_MILESTONES), and a
 * row's problems land on its own fields.
 */
function splitRows(values: Record<string, string>) {
  const rows = [];
  const errors: Record<string, string> = {};
  const indexes = Object.keys(values)
    .map((key) => /^(?:title|amount|days)_(\d{1,3})$/.exec(key)?.[1])
    .filter((i): i is string => i !== undefined)
    .map(Number);
  for (let i = 0; i <= Math.max(-1, ...indexes); i++) {
    const row = {
      title: values[`title_${i}`] ?? "",
      amount: values[`amount_${i}`] ?? "",
      days: values[`days_${i}`] ?? "",
    };
    if (!row.title.trim() && !row.amount.trim() && !row.days.trim()) continue;
    const input = priceInput({ [`amount_${i}`]: row.amount }, { [`amount_${i}`]: "amount_cents" }, { required: true });
    const milestone = { title: row.title, amount_cents: input.amount_cents, days: row.days };
    const checked = checkFields(milestoneInputSchema, milestone);
    for (const [field, key] of Object.entries(checked.errors)) {
      errors[`${field === "amount_cents" ? "amount" : field}_${i}`] =
        field === "amount_cents" && parseMoney(row.amount.trim()) === null ? "money_invalid" : key;
    }
    rows.push(milestone);
  }
  if (rows.length <= MAX_MILESTONES && Object.keys(errors).length) throw new AppError(422, "validation_failed", errors);
  return rows;
}

function DeliverForm({ heading }: { heading: string }) {
  const { t } = useTranslation("market");
  const data = useRefusal();
  const busy = usePending("deliver");
  // A delivery too large to read comes back without its fields, but with the error on the files.
  const mine = data?.values?.intent === "deliver" || data?.errors?.files ? data : null;
  return (
    <FormCard
      name="deliver"
      clearOnSuccess
      title={heading}
      intro={t("contract.deliver_intro")}
      refusal={mine}
      intent="deliver"
      encType="multipart/form-data"
    >
      <TextAreaField
        {...formFields(deliveryInputSchema, mine).message}
        label={t("contract.deliver_message")}
        rows={4}
      />
      <FilesField error={mine?.errors?.files} accept={FILE_ACCEPT} max={MAX_DELIVERY_FILES} />
      <FormActions busy={busy} label={t("contract.deliver_submit")} busyLabel={t("contract.deliver_submitting")} />
    </FormCard>
  );
}

function ChangesForm() {
  const { t } = useTranslation("market");
  const busy = usePending("request_changes");
  const mine = useRefusal("request_changes");
  return (
    <FormCard
      name="changes"
      clearOnSuccess
      title={t("contract.changes_heading")}
      intro={t("contract.changes_intro")}
      refusal={mine}
      intent="request_changes"
    >
      <TextAreaField
        {...formFields(changeRequestInputSchema, mine).message}
        label={t("contract.changes_message")}
        rows={4}
      />
      <FormActions busy={busy} label={t("contract.changes_submit")} className="btn btn-secondary" />
    </FormCard>
  );
}

/** The reason asked for by a confirmation step, with what was typed and its error. */
function ReasonField({ intent }: { intent: string }) {
  const { t } = useTranslation("market");
  const mine = useRefusal(intent);
  return <TextAreaField {...formFields(cancelInputSchema, mine).reason} label={t("contract.reason")} rows={3} />;
}

type Contract = SerializeFrom<typeof loader>["contract"];

/** The terms: where the contract stands (and what the viewer is to do), price, dates, deliveries. */
function ContractTerms({
  contract: c,
  viewer,
  now,
  changesAsked,
}: {
  contract: Contract;
  viewer: SerializeFrom<typeof loader>["viewer"];
  now: number;
  changesAsked: Contract["events"][number] | null;
}) {
  const { t, i18n } = useTranslation("market");
  const actions = c.allowed_actions;
  const other = viewer === "merchant" ? c.freelancer : c.merchant;
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : "");
  const working = workedOn(c.milestones);
  return (
    <section className="card" aria-labelledby="terms-title">
      <h3 id="terms-title">{t("contract.terms")}</h3>
      {c.status === "completed" ? (
        <p className="notice notice-success">
          {t(`contract.ended_${endCause(c)}`, { date: date(c.ended_at), days: REVIEW_DAYS })}
        </p>
      ) : c.status === "cancelled" ? (
        <p className="notice notice-danger">
          {t(`contract.ended_${endCause(c)}`, { date: date(c.ended_at), name: other.display_name ?? "?" })}
          {c.end_reason ? (
            <>
              <br />
              {t("contract.cancel_reason", { reason: c.end_reason })}
            </>
          ) : null}
        </p>
      ) : (
        <p
          className={`notice ${actions.includes("deliver") || actions.includes("approve") ? "notice-warning" : "notice-info"}`}
        >
          {c.disputed
            ? t("contract.state_disputed")
            : c.kind === "hourly" && !c.awaiting_funding
              ? t(`contract.state_hourly_${viewer}`)
              : c.awaiting_funding && working
                ? t(`contract.state_awaiting_funding_${viewer}`, {
                    title: milestoneTitle(working, t),
                    amount: formatMoney(working.due_cents, i18n.language),
                  })
                : t(changesAsked ? `contract.state_changes_${viewer}` : `contract.state_${c.status}_${viewer}`)}
          {/* A pending cancellation request, or a dispute, holds the automatic approval. */}
          {c.status === "delivered" && c.review_due_at && !c.cancel_request && !c.disputed ? (
            <>
              <br />
              <strong>
                {t("contract.review_countdown", {
                  count: Math.max(0, daysUntil(c.review_due_at, now)),
                  date: formatDate(c.review_due_at, i18n.language),
                })}
              </strong>
            </>
          ) : null}
        </p>
      )}
      {c.cancel_request && (c.status === "in_progress" || c.status === "delivered") ? (
        <p className="notice notice-danger">
          {c.cancel_request.by === viewer
            ? t("contract.cancel_request_mine", { reason: c.cancel_request.reason })
            : t("contract.cancel_request_theirs", {
                name: other.display_name ?? "?",
                reason: c.cancel_request.reason,
              })}
        </p>
      ) : null}
      {c.kind === "monthly" ? (
        // A monthly contract has months, not a delivery date: its terms are in the retainer box.
        <Facts
          items={[
            {
              label: t("retainer.amount"),
              value: formatMoney(c.price_cents, i18n.language),
              valueClass: "fact-strong",
            },
            { label: t("contract.hired_at"), value: date(c.created_at) },
          ]}
        />
      ) : c.kind === "hourly" ? (
        // An hourly contract has weeks, not a delivery date: its rate and weekly cap.
        <Facts
          items={[
            {
              label: t("contract.price"),
              value: <Price cents={c.price_cents} basis="hourly" />,
              valueClass: "fact-strong",
            },
            {
              label: t("contract.weekly_cap"),
              value: t("contract.weekly_cap_hours", { count: (c.weekly_cap_minutes ?? 0) / 60 }),
              valueClass: "fact-strong",
            },
            { label: t("contract.hired_at"), value: date(c.created_at) },
          ]}
        />
      ) : (
        <Facts
          items={[
            {
              label: t("contract.price"),
              value: <Price cents={c.price_cents} basis={c.opportunity.budget_type} days={c.delivery_days} />,
              valueClass: "fact-strong",
            },
            {
              label: t("contract.delivery"),
              value: t("applications.days", { count: c.delivery_days }),
              valueClass: "fact-strong",
            },
            { label: t("contract.hired_at"), value: date(c.created_at) },
            {
              label: t("contract.due_at"),
              // With payments, the milestone's days count from its funding: no date before it.
              value: c.awaiting_funding ? (
                t("contract.due_after_funding", { days: t("applications.days", { count: working?.days ?? 0 }) })
              ) : (
                <>
                  {date(c.due_at)}
                  {c.status === "in_progress" ? (
                    <>
                      <br />
                      <DueCountdown dueAt={c.due_at} now={now} />
                    </>
                  ) : null}
                </>
              ),
            },
            { label: t("contract.deliveries"), value: c.deliveries_count },
          ]}
        />
      )}
    </section>
  );
}

type ContractEvent = SerializeFrom<typeof loader>["contract"]["events"][number];

/** A card about one of the contract's events, headed by what it is and its date (`title`'s `date`). */
function EventCard({
  event,
  className,
  titleId,
  title,
  children,
}: {
  event: ContractEvent;
  className: string;
  titleId: string;
  title: string;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation("market");
  return (
    <section className={`card ${className}`} aria-labelledby={titleId}>
      <h3 id={titleId}>{t(title, { date: formatDate(event.created_at, i18n.language) })}</h3>
      {children}
    </section>
  );
}

/** The changes asked for after the last delivery, while the work on them is under way. */
function ChangesAsked({ event, viewer }: { event: ContractEvent; viewer: "merchant" | "freelancer" }) {
  const { t } = useTranslation("market");
  return (
    <EventCard event={event} className="changes-asked" titleId="changes-title" title="contract.changes_asked_title">
      <blockquote className="prose changes-asked-text">{event.message}</blockquote>
      <p className="muted small">{t(`contract.changes_asked_next_${viewer}`)}</p>
    </EventCard>
  );
}

/** The delivery waiting for review, with its files, beside where the approval is decided. */
function DeliveryReview({ event, contractId }: { event: ContractEvent; contractId: string }) {
  const { t } = useTranslation("market");
  return (
    <EventCard
      event={event}
      className="delivery-review"
      titleId="delivery-review-title"
      title="contract.delivery_review_title"
    >
      {event.message ? <blockquote className="prose">{event.message}</blockquote> : null}
      {event.files.length ? (
        <FileList files={event.files} href={(file) => `/contracts/${contractId}/files/${file}`} />
      ) : (
        <p className="muted small">{t("contract.delivery_no_files")}</p>
      )}
    </EventCard>
  );
}

/** The confirmation steps of the contract's moves (cancel, cancellation, approve), each when allowed. */
function ContractConfirmations({
  here,
  actions,
  approval,
  facts,
}: {
  here: string;
  actions: string[];
  approval: Record<string, string>;
  facts: string[];
}) {
  return (
    <>
      <ConfirmPanel intent="cancel_contract" cancelHref={here} allowed={actions.includes("cancel")}>
        <ReasonField intent="cancel_contract" />
      </ConfirmPanel>
      <ConfirmPanel intent="request_cancellation" cancelHref={here} allowed={actions.includes("request_cancellation")}>
        <ReasonField intent="request_cancellation" />
      </ConfirmPanel>
      <ConfirmPanel intent="accept_cancellation" cancelHref={here} allowed={actions.includes("accept_cancellation")} />
      {/* Approving releases the milestone and ends the contract with the last: the step says which. */}
      <ConfirmPanel
        intent="approve"
        tone="primary"
        cancelHref={here}
        allowed={actions.includes("approve")}
        params={approval}
        facts={facts}
      />
    </>
  );
}

/**
 * An hourly contract's work: the week in hand (its entries, quick entry, sending, approval) and
 * ending the contract while it runs; once it ended, the moves left (`actions`: the reviews).
 */
function HourlyWork({
  contract: c,
  weeks,
  week,
  viewer,
  today,
  here,
  children: actions,
}: {
  contract: Contract;
  weeks: NonNullable<SerializeFrom<typeof loader>["weeks"]>;
  week: SerializeFrom<typeof loader>["week"];
  viewer: SerializeFrom<typeof loader>["viewer"];
  today: string;
  here: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("market");
  const running = c.status === "in_progress" && c.paused_from === null;
  // A week named by the address (?semana) keeps it in the week's links and confirmation steps.
  const [search] = useSearchParams();
  const named = search.get("semana") === week?.week_start ? `${here}?semana=${week.week_start}` : here;
  const escrow = c.payments === "escrow";
  return (
    <>
      {week ? (
        <Timesheet
          contractId={c.id}
          week={week}
          viewer={viewer}
          today={today}
          here={named}
          escrow={escrow}
          keepUnused={escrow && c.hourly_keep_unused}
        />
      ) : null}
      <WeekList weeks={weeks} shown={week?.week_start ?? null} escrow={escrow} here={here} />
      {c.status !== "in_progress" ? actions : null}
      {running && viewer === "merchant" && c.weekly_cap_minutes !== null && !c.disputed ? (
        <CapForm capMinutes={c.weekly_cap_minutes} />
      ) : null}
      {running && viewer === "merchant" && escrow && !c.disputed ? (
        <KeepUnusedForm keep={c.hourly_keep_unused} />
      ) : null}
      {running && !c.disputed ? <PauseControls pausedFrom={c.hourly_paused_from} here={here} /> : null}
      {running ? (
        <p>
          <ConfirmLink from={here} intent="end_hourly" preventScrollReset>
            {t("work.end")}
          </ConfirmLink>
        </p>
      ) : null}
      <ConfirmPanel intent="end_hourly" cancelHref={here} allowed={running} />
    </>
  );
}

/**
 * What a dispute opened now is about: the milestone being worked on (with payments), or an hourly
 * contract's week in hand once it is questioned (its moves say so), named in the form.
 */
function disputeTerms(
  c: Contract,
  week: SerializeFrom<typeof loader>["week"],
  working: Contract["milestones"][number] | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
  lng: string,
) {
  const disputable = week?.allowed_actions.includes("dispute") ? week : null;
  const milestone = disputable ? c.milestones.find((m) => m.id === disputable.milestone_id) : working;
  const day = (iso: string) => formatDate(`${iso}T12:00:00Z`, lng);
  return {
    milestone:
      c.payments === "escrow" && milestone
        ? { title: milestoneTitle(milestone, t), amount: formatMoney(milestone.amount_cents, lng) }
        : null,
    week: disputable
      ? {
          start: disputable.week_start,
          intro: t("work.dispute_week", { start: day(disputable.week_start), end: day(disputable.week_end) }),
        }
      : undefined,
  };
}

/** What the viewer may do next, each a jump to its form, a confirmation or a post. */
function ContractActions({
  contract: c,
  reviews,
  viewer,
  here,
  approval,
  deliverHeading,
}: {
  contract: Contract;
  reviews: SerializeFrom<typeof loader>["reviews"];
  viewer: SerializeFrom<typeof loader>["viewer"];
  here: string;
  approval: Record<string, string>;
  deliverHeading: string;
}) {
  const { t } = useTranslation("market");
  const actions = c.allowed_actions;
  const otherName = (viewer === "merchant" ? c.freelancer : c.merchant).display_name ?? "?";
  return (
    <ActionsCard
      title={t("contract.actions")}
      empty={t("contract.no_actions")}
      here={here}
      // Reviewing (or answering a review) is what is left to do once the work ended.
      open={[
        ...(reviews.can_review ? ["review" as const] : []),
        ...(reviews.can_reply ? ["reply" as const] : []),
        ...actions,
      ]}
      moves={{
        review: {
          jump: "review-form",
          primary: true,
          label: t("contract.review", { name: otherName }),
        },
        reply: { jump: "reply-form", label: t("contract.reply") },
        approve: {
          confirm: "approve",
          primary: true,
          title: t("contract.approve_hint", approval),
          label: `✓ ${t("contract.approve", approval)}`,
        },
        deliver: { jump: "deliver-title", label: deliverHeading },
        request_changes: { jump: "changes-title", label: t("contract.changes_heading") },
        accept_cancellation: { confirm: "accept_cancellation", label: t("contract.accept_cancellation") },
        decline_cancellation: { post: "decline_cancellation", label: t("contract.decline_cancellation") },
        cancel: {
          confirm: "cancel_contract",
          label: viewer === "merchant" ? t("contract.cancel") : t("contract.withdraw"),
        },
        request_cancellation: { confirm: "request_cancellation", label: t("contract.request_cancellation") },
        open_dispute: { jump: "dispute-title", label: t("dispute.open_heading") },
      }}
    />
  );
}

/** The notas fiscais of the contract's fees and payments. */
function ContractNotas({ notas }: { notas: ComponentProps<typeof NotasTable>["notas"] }) {
  const { t } = useTranslation("market");
  return (
    <section className="card" aria-labelledby="notas-title">
      <h2 id="notas-title">{t("notas.contract_heading")}</h2>
      <p className="muted small">{t("notas.contract_intro")}</p>
      <NotasTable
        notas={notas}
        caption={t("notas.contract_heading")}
        xmlHref={(n) => `/financeiro/notas/${n.id}.xml`}
        showContract={false}
      />
    </section>
  );
}

/** The intents whose refusals their own forms show (the page's notice shows the others'). */
const SHOWN_BY_FORMS = [
  "deliver",
  "request_changes",
  "review",
  "reply",
  "open_dispute",
  "dispute_statement",
  "fund",
  "split_milestones",
  "propose_milestone",
  "log_time",
  "order_answers",
  "edit_entry",
  "question_entry",
  "answer_entry",
  "change_cap",
  "order_file",
];

export default function ContractPage() {
  const {
    contract: c,
    reviews,
    charge,
    notas,
    viewer,
    weeks,
    week,
    months,
    recurrence,
    today,
    now,
    pixHours,
  } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("market");
  const priceText = usePriceText();
  const here = `/contracts/${c.id}`;
  const actions = c.allowed_actions;
  const other = viewer === "merchant" ? c.freelancer : c.merchant;
  // The changes asked for after the last delivery, while the work on them is under way: shown at
  // the top, with their text, instead of only in the history.
  const lastRound = [...c.events]
    .sort((x, y) => y.seq - x.seq)
    .find((e) => e.kind === "delivered" || e.kind === "changes_requested");
  const changesAsked = c.status === "in_progress" && lastRound?.kind === "changes_requested" ? lastRound : null;
  // The delivery waiting for review, with its files, where the approval is decided.
  const delivered = c.status === "delivered" && lastRound?.kind === "delivered" ? lastRound : null;
  // What approving settles, one line each (the amount agreed; with payments, the milestone and
  // what it releases), and whether it ends the contract: the button, its title and the step agree.
  const working = workedOn(c.milestones);
  const approval = { ...approvalWords(c, working, i18n.language, t), name: other.display_name ?? "?" };
  const disputing = disputeTerms(c, week, working, t, i18n.language);
  // The delivery names its milestone when there are several: "Entregar etapa 2 de 3: <título>".
  const plan = c.milestones.filter((m) => m.status !== "cancelled" && m.status !== "proposed");
  const deliverHeading =
    c.payments === "escrow" && working && plan.length > 1
      ? t("contract.deliver_milestone_heading", {
          n: plan.indexOf(working) + 1,
          count: plan.length,
          title: milestoneTitle(working, t),
        })
      : t("contract.deliver_heading");
  const approveFacts = [
    t("confirm.approve_ends", approval),
    approval.context
      ? t("confirm.approve_releases", approval)
      : t("confirm.approve_amount", { price: priceText(c.price_cents, c.opportunity.budget_type) }),
  ];

  const actionsCard = (
    <ContractActions
      contract={c}
      reviews={reviews}
      viewer={viewer}
      here={here}
      approval={approval}
      deliverHeading={deliverHeading}
    />
  );
  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/contracts" className="link">
          ← {t("contract.back")}
        </Link>
        <Link to={`/applications/${c.application_id}`} className="link">
          {t("contract.application_link")}
        </Link>
        <Link to={`/applications/${c.application_id}/messages`} className="link">
          {t("contract.conversation_link", { name: other.display_name ?? "?" })}
        </Link>
      </Breadcrumb>
      <PageHeader
        title={t("contract.heading")}
        intro={
          <>
            <Link to={`/opportunities/${c.opportunity.uuid}`} className="link">
              {c.opportunity.title}
            </Link>{" "}
            ·{" "}
            {t(viewer === "merchant" ? "contracts.with_freelancer" : "contracts.with_merchant", {
              name: other.display_name ?? "?",
            })}
          </>
        }
        actions={<ContractStatusBadge status={c.status} overdue={c.overdue} awaitingFunding={c.awaiting_funding} />}
      />

      <PageRefusal shownBy={SHOWN_BY_FORMS} fields={["files", "reason", "amount"]} />
      <ContractConfirmations here={here} actions={actions} approval={approval} facts={approveFacts} />

      <div className="detail-layout">
        <div className="detail-main">
          {changesAsked ? <ChangesAsked event={changesAsked} viewer={viewer} /> : null}
          <ContractTerms contract={c} viewer={viewer} now={now} changesAsked={changesAsked} />
          {c.order ? (
            <ContractOrder
              order={c.order}
              escrow={c.payments === "escrow"}
              mayAnswer={viewer === "merchant" && c.status === "in_progress" && c.deliveries_count === 0}
            />
          ) : null}

          {delivered ? <DeliveryReview event={delivered} contractId={c.id} /> : null}
          {c.kind === "hourly" ? (
            <HourlyWork contract={c} weeks={weeks ?? []} week={week} viewer={viewer} today={today} here={here}>
              {actionsCard}
            </HourlyWork>
          ) : (
            actionsCard
          )}
          <MonthlyBoxes months={months} recurrence={recurrence} here={here} viewer={viewer} />

          {c.payments === "escrow" ? (
            <ContractPayments contract={c} charge={charge} viewer={viewer} pixHours={pixHours} />
          ) : null}
          {notas.length ? <ContractNotas notas={notas} /> : null}
          {actions.includes("deliver") ? <DeliverForm heading={deliverHeading} /> : null}
          {actions.includes("request_changes") ? <ChangesForm /> : null}
          <DisputeSection
            dispute={c.dispute}
            viewer={viewer}
            canOpen={actions.includes("open_dispute") || disputing.week !== undefined}
            canAddStatement={actions.includes("add_dispute_statement")}
            milestone={disputing.milestone}
            week={disputing.week}
            here={here}
          />
          <ContractReviewsSection reviews={reviews} otherName={other.display_name ?? "?"} here={here} />
        </div>

        <aside className="detail-aside">
          <section className="card" aria-labelledby="timeline-title">
            <h3 id="timeline-title">{t("contract.timeline")}</h3>
            <ContractTimeline contract={c} events={c.events} viewer={viewer} />
          </section>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
