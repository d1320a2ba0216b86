import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormMessage, IntentButton } from "~/components/ui/form";
import { CopyButton } from "~/components/ui/copy-button";
import { feePercent } from "~/lib/fees";
import { milestoneTitle } from "~/lib/approval";
import { formatDateTime } from "~/lib/format";
import { useHydrated } from "~/lib/hydrated";
import { useClearOnSuccess } from "~/lib/pending";
import { LIMITS } from "~/lib/limits";
import { formatMoney, parseMoney } from "~/lib/money";
import { MAX_MILESTONES } from "~/lib/payments-schemas";
import { takerSchema } from "~/lib/fiscal-schemas";
import { formFields } from "~/lib/form-fields";
import type { FormErrorData } from "~/web/errors.server";

type Milestone = {
  id: string;
  seq: number;
  title: string;
  amount_cents: number;
  days: number;
  status: string;
  proposed_by: "merchant" | "freelancer" | null;
  fee_cents: number;
  net_cents: number;
  released_cents: number;
  refunded_cents: number;
  /** What its Pix is for: the amount less what an hourly week holds kept from the week before. */
  due_cents: number;
};

type Charge = {
  id: string;
  provider: string;
  txid: string;
  amount_cents: number;
  br_code: string;
  qr_code: string;
  expires_at: string;
  claimed_at: string | null;
};

/** How many rows the split form shows at first (blank rows are left out); "adicionar etapa" adds one, up to MAX_MILESTONES. */
export const SPLIT_ROWS = 2;

/** The rows the split form shows: what the page asked for (`rows`), within 1 and MAX_MILESTONES. */
export function splitRowCount(values: Record<string, string> | undefined) {
  const asked = Number(values?.rows);
  return Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MAX_MILESTONES) : SPLIT_ROWS;
}

const ACTIVE = ["awaiting_funding", "funded", "delivered"];
const SETTLED = ["released", "refunded"];

/**
 * The merchant's CPF/CNPJ and name for the freelancer's nota: shown once the funding asked for
 * them (the freelancer issues their own notas and the merchant has no verified identity).
 */
function TakerFields({ data }: { data: FormErrorData | null }) {
  const { t } = useTranslation("market");
  if (!data?.errors?.taker_document && !data?.errors?.taker_name) return null;
  const f = formFields(takerSchema, data);
  return (
    <>
      <Field {...f.taker_document} label={t("fiscal.taker_document")} inputMode="numeric" autoComplete="off" />
      <Field {...f.taker_name} label={t("fiscal.taker_name")} autoComplete="name" />
    </>
  );
}

/** The milestones: amount, what the freelancer receives, status; the current one marked. */
function MilestonesTable({
  milestones,
  current,
  hourly,
}: {
  milestones: Milestone[];
  current: Milestone | undefined;
  /** An hourly contract's weeks release only their approved hours: before that, the figure is the most. */
  hourly: boolean;
}) {
  const { t, i18n } = useTranslation("market");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <div className="table-wrap">
      <table className="data-table cards-sm">
        <caption className="visually-hidden">{t("payments.milestones")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("payments.milestone")}</th>
            <th scope="col">{t("payments.amount")}</th>
            <th scope="col">{t("payments.freelancer_receives")}</th>
            <th scope="col">{t("payments.status")}</th>
          </tr>
        </thead>
        <tbody>
          {milestones.map((m) => (
            <tr key={m.id} className={m === current ? "row-current" : undefined}>
              <td data-label={t("payments.milestone")}>
                <span>
                  {m.seq}. {milestoneTitle(m, t)}
                  <br />
                  <span className="muted small">{t("applications.days", { count: m.days })}</span>
                </span>
              </td>
              <td data-label={t("payments.amount")}>{money(m.amount_cents)}</td>
              <td data-label={t("payments.freelancer_receives")}>
                <span>
                  {m.status === "cancelled" ? (
                    <span className="muted">{t("payments.nothing_to_receive")}</span>
                  ) : (
                    <>
                      {hourly && !SETTLED.includes(m.status)
                        ? t("payments.up_to", { amount: money(m.net_cents) })
                        : money(m.net_cents)}
                      <br />
                      <span className="muted small">{t("payments.fee_of", { fee: money(m.fee_cents) })}</span>
                    </>
                  )}
                  {m.refunded_cents > 0 ? (
                    <>
                      <br />
                      <span className="small">
                        {t("payments.refunded_to_merchant", { amount: money(m.refunded_cents) })}
                      </span>
                    </>
                  ) : null}
                </span>
              </td>
              <td data-label={t("payments.status")}>
                <span>
                  <span className={`badge milestone-${m.status}`}>{t(`milestone_status.${m.status}`)}</span>
                  {m.status === "proposed" ? (
                    <span className="muted small"> · {t(`payments.proposed_by_${m.proposed_by}`)}</span>
                  ) : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The contract's money with payments on: milestones, the Pix charge, the split and the proposals. */
export function ContractPayments({
  contract,
  charge,
  viewer,
  pixHours,
}: {
  contract: {
    id: string;
    status: string;
    /** 'hourly' or 'monthly': the milestones are its weeks or months, funded ahead, never split or proposed. */
    kind: "fixed" | "hourly" | "monthly";
    price_cents: number;
    fee_bps: number;
    deliveries_count: number;
    /** A dispute is open: the milestones are frozen too until it is decided. */
    disputed: boolean;
    allowed_actions: string[];
    milestones: Milestone[];
  };
  charge: Charge | null;
  viewer: "merchant" | "freelancer";
  /** How many hours the operator usually takes to confirm a manual Pix. */
  pixHours: number;
}) {
  const { t, i18n } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  const data = useActionData<FormErrorData>();
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const active = (contract.status === "in_progress" || contract.status === "delivered") && !contract.disputed;
  const milestones = contract.milestones.filter((m) => m.status !== "cancelled" || m.proposed_by === null);
  const hourly = contract.kind === "hourly";
  const periodic = contract.kind !== "fixed";
  // An hourly (monthly) contract funds its next week (month) while the last is reviewed: the one waiting for money first.
  const current =
    (periodic ? milestones.find((m) => m.status === "awaiting_funding") : undefined) ??
    milestones.find((m) => ACTIVE.includes(m.status));
  const proposal = milestones.find((m) => m.status === "proposed");
  const canSplit =
    !periodic &&
    viewer === "merchant" &&
    contract.status === "in_progress" &&
    contract.deliveries_count === 0 &&
    !contract.disputed &&
    // A valid Pix charge holds the split back (it would be refused): pay it, or split once it expires.
    !charge &&
    contract.milestones.every((m) => m.status === "awaiting_funding" || m.status === "cancelled");
  const intentData = (intent: string) => (data?.values?.intent === intent ? data : null);

  return (
    <section className="card" aria-labelledby="payments-title">
      <h3 id="payments-title">{t("payments.heading")}</h3>
      <p className="muted">
        {t("payments.fee_note", {
          percent: feePercent(contract.fee_bps, i18n.language),
        })}
      </p>
      <MilestonesTable milestones={milestones} current={current} hourly={hourly} />

      {active && current?.status === "awaiting_funding" ? (
        viewer === "merchant" ? (
          <div className="stack">
            <FormMessage data={intentData("fund")} />
            {charge ? (
              <PixCharge charge={charge} pixHours={pixHours} />
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="fund" />
                <p>
                  {t("payments.fund_intro", { amount: money(current.due_cents), title: milestoneTitle(current, t) })}
                </p>
                <TakerFields data={intentData("fund")} />
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {t("payments.fund", { amount: money(current.due_cents) })}
                </button>
              </Form>
            )}
          </div>
        ) : (
          <p className="notice notice-info">
            {t("payments.waiting_funding", { title: milestoneTitle(current, t) })}
            {charge?.claimed_at ? ` ${t("payments.claimed_theirs", { count: pixHours })}` : null}
          </p>
        )
      ) : null}

      {proposal && proposal.proposed_by !== viewer && active ? (
        <div className="notice notice-warning">
          <p>
            {t("payments.proposal_theirs", {
              title: proposal.title,
              amount: money(proposal.amount_cents),
              days: t("applications.days", { count: proposal.days }),
            })}
          </p>
          <div className="action-row">
            <IntentButton
              intent="accept_milestone"
              fields={{ milestone_id: proposal.id }}
              className="btn btn-primary btn-sm"
            >
              {t("payments.accept_milestone")}
            </IntentButton>
            <IntentButton
              intent="decline_milestone"
              fields={{ milestone_id: proposal.id }}
              className="btn btn-secondary btn-sm"
            >
              {t("payments.decline_milestone")}
            </IntentButton>
          </div>
        </div>
      ) : null}

      {canSplit ? <SplitForm total={contract.price_cents} data={intentData("split_milestones")} /> : null}
      {active && !periodic && !proposal && !canSplit ? <ProposeForm data={intentData("propose_milestone")} /> : null}
    </section>
  );
}

/** The BR Code: its QR image, and the "copia e cola" in a field to select (a button copies with JavaScript). */
export function PixCharge({ charge, pixHours }: { charge: Charge; pixHours: number }) {
  const { t, i18n } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  return (
    <div className="pix-charge">
      <img
        src={charge.qr_code}
        width={200}
        height={200}
        alt={t("payments.qr_alt", { amount: formatMoney(charge.amount_cents, i18n.language) })}
      />
      <div className="stack">
        <p>
          <strong>{t("payments.pay_with_pix", { amount: formatMoney(charge.amount_cents, i18n.language) })}</strong>
        </p>
        <div className="field">
          <label htmlFor={`brcode-${charge.id}`}>{t("payments.copy_paste")}</label>
          <textarea id={`brcode-${charge.id}`} readOnly rows={4} value={charge.br_code} className="brcode" />
        </div>
        <CopyButton text={charge.br_code} label={t("payments.copy")} copiedLabel={t("payments.copied")} />
        <p className="muted small" role="status">
          {t("payments.charge_expires", { date: formatDateTime(charge.expires_at, i18n.language), txid: charge.txid })}
        </p>
        {/* The manual provider: the operator confirms the receipt, so the payer says when it was paid. */}
        {charge.provider !== "manual" ? null : charge.claimed_at ? (
          <p className="notice notice-success" role="status">
            {t("payments.claimed_mine", {
              date: formatDateTime(charge.claimed_at, i18n.language),
              count: pixHours,
            })}
          </p>
        ) : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="claim_paid" />
            <input type="hidden" name="charge_id" value={charge.id} />
            <p className="muted small">{t("payments.claim_intro", { count: pixHours })}</p>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("payments.claim_submit")}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}

/** The typed amounts' total in centavos, and whether every typed amount is a price. */
function typedTotal(amounts: string[]) {
  let cents = 0;
  let valid = true;
  for (const text of amounts) {
    if (!text.trim()) continue;
    const value = parseMoney(text.trim());
    if (value === null || !Number.isFinite(value)) valid = false;
    else cents += value;
  }
  return { cents, valid };
}

/** The amounts typed in the split form's rows, in order. */
function typedAmounts(form: HTMLFormElement, rows: number) {
  return Array.from(
    { length: rows },
    (_, i) => (form.elements.namedItem(`amount_${i}`) as HTMLInputElement)?.value ?? "",
  );
}

/**
 * Dividing the contract's value into milestones: as many rows as needed up to MAX_MILESTONES, with
 * the running total and what is left to reach the contract's value. Without JavaScript,
 * "adicionar etapa" and "recalcular" send the form back with what was typed (one more row, the
 * total worked out); with it, rows are added and the total follows the typing.
 */
function SplitForm({ total, data }: { total: number; data: FormErrorData | null }) {
  const { t, i18n } = useTranslation("market");
  const clear = useClearOnSuccess();
  const hydrated = useHydrated();
  const busy = useNavigation().state === "submitting";
  const errors = data?.errors ?? {};
  const values = data?.values;
  const [rows, setRows] = useState(() => splitRowCount(values));
  const amountsOf = (n: number) => Array.from({ length: n }, (_, i) => values?.[`amount_${i}`] ?? "");
  const [amounts, setAmounts] = useState(() => amountsOf(rows));
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const sum = typedTotal(amounts);
  const left = total - sum.cents;
  const rowError = (field: string, i: number) => errors[`${field}_${i}`];
  const box = useRef<HTMLDetailsElement>(null);
  // Amounts typed before the scripts arrived count in the running total too.
  useEffect(() => {
    const form = box.current?.querySelector("form");
    if (form) setAmounts(typedAmounts(form, rows));
    // Once, when the page comes to life; later typing is followed by onInput.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <details className="stack" open={Boolean(data)} ref={box}>
      <summary>{t("payments.split_heading")}</summary>
      <p className="muted">{t("payments.split_intro", { total: money(total), max: MAX_MILESTONES })}</p>
      <FormMessage data={data?.message ? data : null} />
      <Form
        method="post"
        className="stack"
        noValidate
        preventScrollReset
        ref={clear.ref}
        onSubmit={clear.onSubmit}
        onReset={() => {
          setRows(SPLIT_ROWS);
          setAmounts(amountsOf(0));
        }}
        onInput={(event) => setAmounts(typedAmounts(event.currentTarget, rows))}
      >
        <input type="hidden" name="intent" value="split_milestones" />
        <input type="hidden" name="rows" value={rows} />
        {Array.from({ length: rows }, (_, i) => (
          <fieldset key={i} className="form-row">
            <legend>{t("payments.split_row", { n: i + 1 })}</legend>
            <Field
              name={`title_${i}`}
              id={`split-title-${i}`}
              label={t("payments.milestone_title")}
              maxLength={LIMITS.milestone_title.max}
              defaultValue={values?.[`title_${i}`]}
              error={rowError("title", i)}
            />
            <Field
              name={`amount_${i}`}
              id={`split-amount-${i}`}
              label={t("payments.amount_reais")}
              inputMode="decimal"
              defaultValue={values?.[`amount_${i}`]}
              error={rowError("amount", i)}
            />
            <Field
              name={`days_${i}`}
              id={`split-days-${i}`}
              label={t("payments.days")}
              inputMode="numeric"
              defaultValue={values?.[`days_${i}`]}
              error={rowError("days", i)}
            />
          </fieldset>
        ))}
        <p
          className={`split-total notice ${left === 0 && sum.valid ? "notice-success" : "notice-warning"}`}
          role="status"
        >
          {t("payments.split_total", { sum: money(sum.cents), total: money(total) })}{" "}
          <strong>
            {!sum.valid
              ? t("payments.split_total_invalid")
              : left === 0
                ? t("payments.split_total_ok")
                : left > 0
                  ? t("payments.split_total_missing", { amount: money(left) })
                  : t("payments.split_total_over", { amount: money(-left) })}
          </strong>
          {errors.milestones ? (
            <>
              <br />
              <span className="field-error">{errors.milestones}</span>
            </>
          ) : null}
        </p>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t("payments.split_submit")}
          </button>
          {rows < MAX_MILESTONES ? (
            <button
              type="submit"
              name="step"
              value="add"
              className="btn btn-secondary"
              disabled={busy}
              onClick={(event) => {
                // With JavaScript the row is added here, keeping what was typed in the form.
                event.preventDefault();
                setRows(rows + 1);
                setAmounts([...amounts, ""]);
              }}
            >
              {t("payments.split_add_row")}
            </button>
          ) : (
            <span className="muted small">{t("payments.split_rows_max", { max: MAX_MILESTONES })}</span>
          )}
          {hydrated ? null : (
            <button type="submit" name="step" value="recalc" className="btn btn-ghost" disabled={busy}>
              {t("payments.split_recalc")}
            </button>
          )}
        </div>
      </Form>
    </details>
  );
}

function ProposeForm({ data }: { data: FormErrorData | null }) {
  const { t } = useTranslation("market");
  const clear = useClearOnSuccess();
  const busy = useNavigation().state === "submitting";
  const errors = data?.errors ?? {};
  return (
    <details className="stack" open={Boolean(data)}>
      <summary>{t("payments.propose_heading")}</summary>
      <FormMessage data={data} />
      <Form method="post" className="stack" noValidate {...clear}>
        <input type="hidden" name="intent" value="propose_milestone" />
        <Field
          name="title"
          id="propose-title"
          label={t("payments.milestone_title")}
          maxLength={LIMITS.milestone_title.max}
          required
          defaultValue={data?.values?.title}
          error={errors.title}
        />
        <Field
          name="amount"
          id="propose-amount"
          label={t("payments.amount_reais")}
          inputMode="decimal"
          required
          defaultValue={data?.values?.amount}
          error={errors.amount ?? errors.amount_cents}
        />
        <Field
          name="days"
          id="propose-days"
          label={t("payments.days")}
          inputMode="numeric"
          required
          defaultValue={data?.values?.days}
          error={errors.days}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            {t("payments.propose_submit")}
          </button>
        </div>
      </Form>
    </details>
  );
}
