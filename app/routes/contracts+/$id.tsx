import { LIMITS } from "~/lib/limits";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { ConfirmPanel } from "~/components/ui/confirm";
import { ContractStatusBadge, ContractTimeline, DueCountdown, daysUntil } from "~/components/contracts/contract";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { DisputeSection } from "~/components/contracts/dispute";
import { ContractReviewsSection } from "~/components/reputation/reviews";
import { Breadcrumb } from "~/components/ui/page-header";
import { formatDate } from "~/lib/format";
import { MAX_DELIVERY_FILES, REVIEW_DAYS } from "~/lib/market-constants";
import { marketFormError, redirectWithMarketToast, requireConfirmed } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { formatMoney } from "~/lib/money";
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
import { DELIVERY_FORM, readFilesForm } from "~/web/bodies.server";
import { getContractReviews, replyToReview, writeReview } from "~/services/reputation/reviews.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.contract");

/** What the file picker offers; the server checks every file by its content anyway. */
const ACCEPT = ".pdf,.png,.jpg,.jpeg,.webp,.gif,.zip,.docx,.xlsx,.pptx,.odt,.ods,.odp";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  const [contract, reviews] = await Promise.all([
    orRefusal(getContract(user, id)),
    orRefusal(getContractReviews(user, id)),
  ]);
  const viewer: "merchant" | "freelancer" = contract.freelancer.id === user.id ? "freelancer" : "merchant";
  // One clock for the server render and the browser's, so countdowns agree when hydrating.
  return json({ contract, reviews, viewer, now: Date.now() });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  const here = `/contracts/${id}`;
  let values: Record<string, string> = {};
  try {
    const form = await readFilesForm(request, DELIVERY_FORM);
    values = form.values;
    switch (values.intent) {
      case "deliver":
        await deliverContract(user, id, { message: values.message }, form.files);
        return redirectWithMarketToast(request, here, "toasts.delivered");
      case "request_changes":
        await requestChanges(user, id, { message: values.message });
        return redirectWithMarketToast(request, here, "toasts.changes_requested");
      case "approve":
        await approveContract(user, id);
        return redirectWithMarketToast(request, here, "toasts.approved");
      case "cancel_contract":
        requireConfirmed(values, `${here}?confirm=cancel_contract`);
        await cancelContract(user, id, { reason: values.reason });
        return redirectWithMarketToast(request, here, "toasts.contract_cancelled");
      case "request_cancellation":
        requireConfirmed(values, `${here}?confirm=request_cancellation`);
        await requestCancellation(user, id, { reason: values.reason });
        return redirectWithMarketToast(request, here, "toasts.cancellation_requested");
      case "accept_cancellation":
        requireConfirmed(values, `${here}?confirm=accept_cancellation`);
        await acceptCancellation(user, id);
        return redirectWithMarketToast(request, here, "toasts.cancellation_accepted");
      case "decline_cancellation":
        await declineCancellation(user, id);
        return redirectWithMarketToast(request, here, "toasts.cancellation_declined");
      case "open_dispute":
        await openDispute(user, id, { reason: values.reason, statement: values.statement }, form.files);
        return redirectWithMarketToast(request, here, "toasts.dispute_opened");
      case "dispute_statement":
        await addDisputeStatement(user, id, { statement: values.statement }, form.files);
        return redirectWithMarketToast(request, here, "toasts.dispute_statement");
      case "review":
        await writeReview(user, id, { rating: values.rating, comment: values.comment });
        return redirectWithMarketToast(request, here, "toasts.review_saved");
      case "reply":
        await replyToReview(user, values.review_id ?? "", { reply: values.reply });
        return redirectWithMarketToast(request, here, "toasts.review_reply_saved");
      default:
        return redirect(here);
    }
  } catch (error) {
    return marketFormError(request, error, values);
  }
}

function DeliverForm() {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  const busy = usePending("deliver");
  // A delivery too large to read comes back without its fields, but with the error on the files.
  const mine = data?.values?.intent === "deliver" || data?.errors?.files ? data : null;
  const errors = mine?.errors ?? {};
  return (
    <section className="card" aria-labelledby="deliver-title">
      <h3 id="deliver-title">{t("contract.deliver_heading")}</h3>
      <p className="muted">{t("contract.deliver_intro")}</p>
      <FormMessage data={mine} />
      <Form method="post" encType="multipart/form-data" className="stack" noValidate>
        <input type="hidden" name="intent" value="deliver" />
        <TextAreaField
          name="message"
          label={t("contract.deliver_message")}
          rows={4}
          maxLength={LIMITS.delivery_message.max}
          required
          defaultValue={mine?.values?.message}
          error={errors.message}
        />
        <div className={`field${errors.files ? " has-error" : ""}`}>
          <label htmlFor="files">{t("contract.deliver_files")}</label>
          <input
            id="files"
            name="files"
            type="file"
            multiple
            accept={ACCEPT}
            aria-invalid={errors.files ? true : undefined}
            aria-describedby={errors.files ? "files-error" : "files-hint"}
          />
          {errors.files ? (
            <p className="field-error" id="files-error">
              {errors.files}
            </p>
          ) : (
            <p className="field-hint" id="files-hint">
              {t("contract.files_hint", { max: MAX_DELIVERY_FILES })}
            </p>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("contract.deliver_submitting") : t("contract.deliver_submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

function ChangesForm() {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  const busy = usePending("request_changes");
  const mine = data?.values?.intent === "request_changes" ? data : null;
  return (
    <section className="card" aria-labelledby="changes-title">
      <h3 id="changes-title">{t("contract.changes_heading")}</h3>
      <p className="muted">{t("contract.changes_intro")}</p>
      <FormMessage data={mine} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="request_changes" />
        <TextAreaField
          name="message"
          label={t("contract.changes_message")}
          rows={4}
          maxLength={LIMITS.change_request_message.max}
          required
          defaultValue={mine?.values?.message}
          error={mine?.errors?.message}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            {t("contract.changes_submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The reason asked for by a confirmation step, with what was typed and its error. */
function ReasonField({ intent }: { intent: string }) {
  const { t } = useTranslation("market");
  const data = useActionData<typeof action>();
  const mine = data?.values?.intent === intent ? data : null;
  return (
    <TextAreaField
      name="reason"
      label={t("contract.reason")}
      rows={3}
      maxLength={LIMITS.cancel_reason.max}
      required
      defaultValue={mine?.values?.reason}
      error={mine?.errors?.reason}
    />
  );
}

export default function ContractPage() {
  const { contract: c, reviews, viewer, now } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t, i18n } = useTranslation("market");
  const [params] = useSearchParams();
  const approving = usePending("approve");
  const declining = usePending("decline_cancellation");
  const here = `/contracts/${c.id}`;
  const confirm = params.get("confirm");
  const actions = c.allowed_actions;
  const other = viewer === "merchant" ? c.freelancer : c.merchant;
  const formIntents = ["deliver", "request_changes", "review", "reply", "open_dispute", "dispute_statement"];
  const pageError =
    data && !formIntents.includes(data.values?.intent ?? "") && !data.errors?.files && !data.errors?.reason
      ? data
      : null;
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : "");

  return (
    <div className="page">
      <Breadcrumb>
        <Link to="/contracts" className="link">
          ← {t("contract.back")}
        </Link>
        <Link to={`/applications/${c.application_id}`} className="link">
          {t("contract.application_link")}
        </Link>
      </Breadcrumb>
      <header className="page-header">
        <div>
          <h2>{t("contract.heading")}</h2>
          <p className="muted">
            <Link to={`/opportunities/${c.opportunity.uuid}`} className="link">
              {c.opportunity.title}
            </Link>{" "}
            ·{" "}
            {t(viewer === "merchant" ? "contracts.with_freelancer" : "contracts.with_merchant", {
              name: other.display_name ?? "?",
            })}
          </p>
        </div>
        <div className="page-header-actions">
          <ContractStatusBadge status={c.status} overdue={c.overdue} />
        </div>
      </header>

      <FormMessage data={pageError} />
      {confirm === "cancel_contract" && actions.includes("cancel") ? (
        <ConfirmPanel intent="cancel_contract" cancelHref={here}>
          <ReasonField intent="cancel_contract" />
        </ConfirmPanel>
      ) : null}
      {confirm === "request_cancellation" && actions.includes("request_cancellation") ? (
        <ConfirmPanel intent="request_cancellation" cancelHref={here}>
          <ReasonField intent="request_cancellation" />
        </ConfirmPanel>
      ) : null}
      {confirm === "accept_cancellation" && actions.includes("accept_cancellation") ? (
        <ConfirmPanel intent="accept_cancellation" cancelHref={here} />
      ) : null}

      <div className="detail-layout">
        <div className="detail-main">
          <section className="card" aria-labelledby="terms-title">
            <h3 id="terms-title">{t("contract.terms")}</h3>
            {c.status === "completed" ? (
              <p className="notice notice-success">
                {c.ended_by === "system"
                  ? t("contract.state_completed_auto", { date: date(c.ended_at), days: REVIEW_DAYS })
                  : t("contract.state_completed", { date: date(c.ended_at) })}
              </p>
            ) : c.status === "cancelled" ? (
              <p className="notice notice-danger">
                {t("contract.state_cancelled", { date: date(c.ended_at) })}
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
                {c.disputed ? t("contract.state_disputed") : t(`contract.state_${c.status}_${viewer}`)}
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
            <dl className="facts">
              <div>
                <dt>{t("contract.price")}</dt>
                <dd className="fact-strong">{formatMoney(c.price_cents, i18n.language)}</dd>
              </div>
              <div>
                <dt>{t("contract.delivery")}</dt>
                <dd className="fact-strong">{t("applications.days", { count: c.delivery_days })}</dd>
              </div>
              <div>
                <dt>{t("contract.hired_at")}</dt>
                <dd>{date(c.created_at)}</dd>
              </div>
              <div>
                <dt>{t("contract.due_at")}</dt>
                <dd>
                  {date(c.due_at)}
                  {c.status === "in_progress" ? (
                    <>
                      <br />
                      <DueCountdown dueAt={c.due_at} now={now} />
                    </>
                  ) : null}
                </dd>
              </div>
              <div>
                <dt>{t("contract.deliveries")}</dt>
                <dd>{c.deliveries_count}</dd>
              </div>
            </dl>
          </section>

          <section className="card" aria-labelledby="actions-title">
            <h3 id="actions-title">{t("contract.actions")}</h3>
            {actions.length === 0 ? (
              <p className="muted">{t("contract.no_actions")}</p>
            ) : (
              <div className="action-row">
                {actions.includes("approve") ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="approve" />
                    <button
                      type="submit"
                      className="btn btn-primary"
                      disabled={approving}
                      title={t("contract.approve_hint")}
                    >
                      ✓ {t("contract.approve")}
                    </button>
                  </Form>
                ) : null}
                {actions.includes("deliver") ? (
                  <a href="#deliver-title" className="btn btn-secondary">
                    {t("contract.deliver_heading")}
                  </a>
                ) : null}
                {actions.includes("request_changes") ? (
                  <a href="#changes-title" className="btn btn-secondary">
                    {t("contract.changes_heading")}
                  </a>
                ) : null}
                {actions.includes("accept_cancellation") ? (
                  <Link to={`${here}?confirm=accept_cancellation`} className="btn btn-danger-ghost">
                    {t("contract.accept_cancellation")}
                  </Link>
                ) : null}
                {actions.includes("decline_cancellation") ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="decline_cancellation" />
                    <button type="submit" className="btn btn-secondary" disabled={declining}>
                      {t("contract.decline_cancellation")}
                    </button>
                  </Form>
                ) : null}
                {actions.includes("cancel") ? (
                  <Link to={`${here}?confirm=cancel_contract`} className="btn btn-danger-ghost">
                    {viewer === "merchant" ? t("contract.cancel") : t("contract.withdraw")}
                  </Link>
                ) : null}
                {actions.includes("request_cancellation") ? (
                  <Link to={`${here}?confirm=request_cancellation`} className="btn btn-danger-ghost">
                    {t("contract.request_cancellation")}
                  </Link>
                ) : null}
                {actions.includes("open_dispute") ? (
                  <a href="#dispute-title" className="btn btn-danger-ghost">
                    {t("dispute.open_heading")}
                  </a>
                ) : null}
              </div>
            )}
          </section>

          {actions.includes("deliver") ? <DeliverForm /> : null}
          {actions.includes("request_changes") ? <ChangesForm /> : null}
          <DisputeSection
            dispute={c.dispute}
            viewer={viewer}
            canOpen={actions.includes("open_dispute")}
            canAddStatement={actions.includes("add_dispute_statement")}
            data={data}
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
