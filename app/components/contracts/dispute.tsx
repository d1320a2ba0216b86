import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ChoiceField, FormActions, FormMessage, TextAreaField, useRefusal } from "~/components/ui/form";
import { FilesField } from "~/components/ui/files-field";
import { DISPUTE_REASONS, DISPUTE_RESPONSE_DAYS, MAX_DISPUTE_FILES } from "~/lib/disputes";
import { formatDate } from "~/lib/format";
import { FILE_ACCEPT } from "~/lib/market-constants";
import { disputeOpenInputSchema, disputeStatementInputSchema } from "~/lib/dispute-schemas";
import { formFields } from "~/lib/form-fields";
import { usePending } from "~/lib/pending";
import type { Role } from "~/components/marketplace/badges";

export type DisputeData = {
  opened_by: Role;
  reason: string;
  status: "open" | "decided";
  respond_by: string;
  answered_at: string | null;
  decision: string | null;
  decision_reason: string | null;
  decided_at: string | null;
};

function DisputeFiles({ error }: { error?: string }) {
  const { t } = useTranslation("market");
  return (
    <FilesField
      id="dispute-files"
      label={t("dispute.files")}
      error={error}
      accept={FILE_ACCEPT}
      max={MAX_DISPUTE_FILES}
    />
  );
}

/**
 * The contract's dispute: its state (open, waiting for the operator; or the decision and why),
 * the form to open one (when the contract allows it) and the form to add a statement while open.
 */
export function DisputeSection({
  dispute,
  viewer,
  canOpen,
  canAddStatement,
  milestone,
  week,
  here,
}: {
  dispute: DisputeData | null;
  viewer: Role;
  canOpen: boolean;
  canAddStatement: boolean;
  /** The milestone a dispute opened now is about (its title and amount, as the reader says them), with payments. */
  milestone: { title: string; amount: string } | null;
  /** An hourly contract's dispute: the questioned week it is about (its Monday, and what the reader is told). */
  week?: DisputedWeek;
  /** The contract page's address (the confirmation's "cancel"). */
  here: string;
}) {
  const { t, i18n } = useTranslation("market");
  const data = useActionData<{ confirming?: string; values?: Record<string, string> }>();
  const opening = usePending("open_dispute");
  const sending = usePending("dispute_statement");
  const opened = useRefusal("open_dispute");
  const added = useRefusal("dispute_statement");
  if (!dispute && !canOpen) return null;
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : "");

  // The first submit checked the reason and the statement: now what opening does, to confirm.
  const confirming =
    !dispute &&
    data?.values?.intent === "open_dispute" &&
    (data.confirming === "open_dispute" || data.values.confirmed === "1");
  if (confirming) {
    return (
      <DisputeConfirm
        values={data.values ?? {}}
        milestone={milestone}
        week={week}
        here={here}
        busy={opening}
        refusal={opened}
      />
    );
  }

  if (!dispute) {
    const form = opened;
    const f = formFields(disputeOpenInputSchema, form);
    return (
      <details className="card" id="dispute-title" open={form ? true : undefined}>
        <summary>
          <strong>{t("dispute.open_heading")}</strong>
        </summary>
        <p className="muted">{t("dispute.open_intro")}</p>
        {week ? <p>{week.intro}</p> : null}
        <FormMessage data={form} />
        {/* To the confirmation (or this form's errors) where it is drawn, far down on a phone without JavaScript. */}
        <Form method="post" action={`${here}#dispute-title`} className="stack" noValidate>
          <input type="hidden" name="intent" value="open_dispute" />
          {week ? <input type="hidden" name="week" value={week.start} /> : null}
          <ChoiceField
            {...f.reason}
            id="dispute-reason"
            label={t("dispute.reason")}
            options={DISPUTE_REASONS.map((reason) => ({ value: reason, label: t(`dispute.reasons.${reason}`) }))}
          />
          <TextAreaField
            {...f.statement}
            id="dispute-statement"
            label={t("dispute.statement")}
            hint={t("dispute.statement_hint")}
            rows={5}
          />
          <FormActions busy={opening} label={t("dispute.open_submit")} className="btn btn-danger" />
        </Form>
      </details>
    );
  }

  const form = added;
  const f = formFields(disputeStatementInputSchema, form);
  const waitingForMe = dispute.status === "open" && !dispute.answered_at && dispute.opened_by !== viewer;
  return (
    <section className="card" aria-labelledby="dispute-title">
      <h3 id="dispute-title">{t("dispute.heading")}</h3>
      {dispute.status === "decided" ? (
        <div className="notice notice-info">
          <p>
            <strong>{t(`dispute.decisions.${dispute.decision}`, { defaultValue: dispute.decision ?? "" })}</strong>{" "}
            {t("dispute.decided_on", { date: date(dispute.decided_at) })}
          </p>
          <p>{t("dispute.decision_reason", { reason: dispute.decision_reason })}</p>
        </div>
      ) : (
        <p className="notice notice-warning">
          {t(dispute.opened_by === viewer ? "dispute.open_mine" : "dispute.open_theirs", {
            reason: t(`dispute.reasons.${dispute.reason}`),
          })}{" "}
          {waitingForMe ? <strong>{t("dispute.answer_by", { date: date(dispute.respond_by) })}</strong> : null}
        </p>
      )}
      {canAddStatement ? (
        <>
          <FormMessage data={form} />
          <Form method="post" encType="multipart/form-data" className="stack" noValidate>
            <input type="hidden" name="intent" value="dispute_statement" />
            <TextAreaField {...f.statement} id="dispute-statement" label={t("dispute.add_statement")} rows={4} />
            <DisputeFiles error={form?.errors?.files} />
            <FormActions busy={sending} label={t("dispute.statement_submit")} className="btn btn-secondary" />
          </Form>
        </>
      ) : null}
    </section>
  );
}

type DisputedWeek = { start: string; intro: string };

/** What opening a dispute does, before it is opened: the second submit opens it. */
function DisputeConfirm({
  values,
  milestone,
  week,
  here,
  busy,
  refusal,
}: {
  values: Record<string, string>;
  milestone: { title: string; amount: string } | null;
  week?: DisputedWeek;
  here: string;
  busy: boolean;
  refusal: ReturnType<typeof useRefusal>;
}) {
  const { t } = useTranslation("market");
  const facts = [
    ...(week ? [week.intro] : []),
    milestone ? t("dispute.confirm_freezes_milestone", milestone) : t("dispute.confirm_freezes"),
    t("dispute.confirm_operator"),
    t("dispute.confirm_deadline", { count: DISPUTE_RESPONSE_DAYS }),
  ];
  return (
    <section className="card confirm-panel confirm-danger" id="dispute-title" aria-labelledby="dispute-confirm-title">
      <h3 id="dispute-confirm-title">{t("dispute.confirm_title")}</h3>
      <ul className="confirm-facts">
        {facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <p className="muted small">
        {t("dispute.confirm_summary", { reason: t(`dispute.reasons.${values.reason}`, { defaultValue: "" }) })}
      </p>
      <blockquote className="prose">{values.statement}</blockquote>
      <FormMessage data={refusal} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="open_dispute" />
        <input type="hidden" name="confirmed" value="1" />
        <input type="hidden" name="reason" value={values.reason ?? ""} />
        <input type="hidden" name="statement" value={values.statement ?? ""} />
        {week ? <input type="hidden" name="week" value={week.start} /> : null}
        <DisputeFiles error={refusal?.errors?.files} />
        <FormActions busy={busy} label={t("dispute.confirm_submit")} className="btn btn-danger">
          <Link to={here} className="btn btn-ghost" preventScrollReset>
            {t("confirm.cancel")}
          </Link>
        </FormActions>
      </Form>
    </section>
  );
}
