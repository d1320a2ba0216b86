import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { formatDate, formatDateTime, numberFormat } from "~/lib/format";
import { REVIEW_DAYS } from "~/lib/market-constants";
import type { Role } from "~/components/marketplace/badges";
import { Price, usePriceText, type PriceBasis } from "~/components/marketplace/price";

type Person = { id: string; display_name: string | null; photo_url: string | null };

export type ContractCardData = {
  id: string;
  opportunity: { uuid: string; title: string; budget_type: PriceBasis };
  merchant: Person;
  freelancer: Person;
  price_cents: number;
  delivery_days: number;
  status: string;
  /** With payments: the milestone in hand is not paid yet (no work under way, no deadline running). */
  awaiting_funding: boolean;
  due_at: string;
  overdue: boolean;
  review_due_at: string | null;
  cancel_request: { by: Role; reason: string } | null;
  ended_at: string | null;
  updated_at: string;
};

export type ContractEventData = {
  id: string;
  kind: string;
  author: Role | "system";
  message: string | null;
  /** The amount the line names, as it was then (older lines: none). */
  amount_cents?: number | null;
  created_at: string;
  files: { id: string; name: string; content_type: string; size_bytes: number }[];
};

const DAY_MS = 86_400_000;

/** Whole days from `now` to `iso`, rounded up (a deadline later today is 1 day away); negative when past. */
export function daysUntil(iso: string, now: number) {
  const ms = Date.parse(iso) - now;
  return ms >= 0 ? Math.ceil(ms / DAY_MS) : -Math.ceil(-ms / DAY_MS);
}

/** Whether the viewer has the next move: a milestone to pay, a delivery to make or review, a cancellation to answer. */
export function isYourMove(c: Pick<ContractCardData, "status" | "cancel_request" | "awaiting_funding">, viewer: Role) {
  if (c.status !== "in_progress" && c.status !== "delivered") return false;
  if (c.cancel_request && c.cancel_request.by !== viewer) return true;
  if (c.awaiting_funding) return viewer === "merchant";
  return c.status === (viewer === "merchant" ? "delivered" : "in_progress");
}

/**
 * Why an ended contract ended, as its last event and its dispute tell: approved by the merchant,
 * approved by time (a delivery left unanswered), decided by the operator after a dispute, or
 * cancelled by one side, by both (an accepted request) or by that decision.
 */
export function endCause(c: {
  status: string;
  ended_by: Role | "system" | null;
  ended_at: string | null;
  dispute: { decision: string | null; decided_at: string | null } | null;
  events: { kind: string; seq: number }[];
}) {
  // A decision that ended the contract (one that released a milestone with more to follow did not).
  const decided = Boolean(c.dispute?.decided_at) && c.dispute?.decided_at === c.ended_at;
  const last = [...c.events].sort((a, b) => b.seq - a.seq)[0]?.kind;
  if (c.status === "completed")
    return decided ? "completed_dispute" : c.ended_by === "system" ? "completed_auto" : "completed";
  if (decided) return c.dispute?.decision === "split" ? "split_dispute" : "cancelled_dispute";
  if (last === "cancel_accepted") return "cancelled_agreed";
  return c.ended_by === "freelancer" ? "cancelled_freelancer" : "cancelled_merchant";
}

export function ContractStatusBadge({
  status,
  overdue = false,
  awaitingFunding = false,
}: {
  status: string;
  overdue?: boolean;
  awaitingFunding?: boolean;
}) {
  const { t } = useTranslation("market");
  // Nothing is under way before the money is held: the contract waits for the payment.
  const shown = awaitingFunding ? "awaiting_funding" : status;
  return (
    <span className="status-line">
      <span className={`badge contract-${shown}`}>{t(`contract_status.${shown}`)}</span>
      {overdue ? <span className="badge contract-overdue">{t("contract.overdue")}</span> : null}
    </span>
  );
}

/** The time left before the due date (or how late the work is), computed against the server's clock. */
export function DueCountdown({ dueAt, now }: { dueAt: string; now: number }) {
  const { t } = useTranslation("market");
  const days = daysUntil(dueAt, now);
  if (days < 0) return <span className="countdown late">{t("contract.late", { count: -days })}</span>;
  if (days === 0) return <span className="countdown late">{t("contract.due_today")}</span>;
  return <span className="countdown">{t("contract.due_in", { count: days })}</span>;
}

export function ContractCard({ item, viewer, now }: { item: ContractCardData; viewer: Role; now: number }) {
  const { t, i18n } = useTranslation("market");
  const other = viewer === "merchant" ? item.freelancer : item.merchant;
  const yourMove = isYourMove(item, viewer);
  return (
    <article className={`card app-card${yourMove ? " app-card-turn" : ""}`}>
      <Avatar user={{ full_name: other.display_name ?? "?", photo_url: other.photo_url }} size="md" />
      <div className="app-card-body">
        <h3 className="app-card-title">
          <Link to={`/contracts/${item.id}`}>{item.opportunity.title}</Link>
        </h3>
        <p className="app-card-sub">
          {t(viewer === "merchant" ? "contracts.with_freelancer" : "contracts.with_merchant", {
            name: other.display_name ?? "?",
          })}
        </p>
        <div className="app-card-meta">
          <ContractStatusBadge status={item.status} overdue={item.overdue} awaitingFunding={item.awaiting_funding} />
          {yourMove ? <span className="badge your-turn app-pending">{t("contracts.your_move")}</span> : null}
          <span className="terms">
            <Price cents={item.price_cents} basis={item.opportunity.budget_type} />
          </span>
          {item.awaiting_funding ? (
            <span className="muted small">
              {t("contract.due_after_funding", { days: t("applications.days", { count: item.delivery_days }) })}
            </span>
          ) : item.status === "in_progress" ? (
            <span className="muted small">
              {t("contract.due_at")}: {formatDate(item.due_at, i18n.language)} ·{" "}
              <DueCountdown dueAt={item.due_at} now={now} />
            </span>
          ) : item.ended_at ? (
            <span className="muted small">{formatDate(item.ended_at, i18n.language)}</span>
          ) : null}
        </div>
      </div>
      <div className="app-card-actions">
        <Link to={`/contracts/${item.id}`} className={`btn btn-sm ${yourMove ? "btn-primary" : "btn-secondary"}`}>
          {t("contracts.open")}
        </Link>
      </div>
    </article>
  );
}

function fileSize(bytes: number, locale: string) {
  const mb = bytes / (1024 * 1024);
  return mb >= 1
    ? `${numberFormat(locale, { maximumFractionDigits: 1 }).format(mb)} MB`
    : `${numberFormat(locale, {}).format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

type ContractFile = ContractEventData["files"][number];

const PREVIEWED = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** A delivery's (or statement's) files: images as thumbnails, other files as named links with their size. */
export function FileList({ files, href }: { files: ContractFile[]; href: (fileId: string) => string }) {
  const { t, i18n } = useTranslation("market");
  return (
    <ul className="file-list" aria-label={t("contract.files_count", { count: files.length })}>
      {files.map((file) => (
        <li key={file.id} className={PREVIEWED.includes(file.content_type) ? "file-preview" : undefined}>
          <a href={href(file.id)} className="link" download={file.name}>
            {PREVIEWED.includes(file.content_type) ? (
              <img src={href(file.id)} alt="" width={96} height={96} loading="lazy" className="file-thumb" />
            ) : null}
            {file.name}
          </a>{" "}
          <span className="muted small">{fileSize(file.size_bytes, i18n.language)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The contract's history, oldest first, each event with its message and files. */
export function ContractTimeline({
  contract,
  events,
  viewer,
  fileHref = (fileId) => `/contracts/${contract.id}/files/${fileId}`,
}: {
  contract: Pick<ContractCardData, "id" | "price_cents" | "delivery_days" | "opportunity">;
  events: ContractEventData[];
  /** The side reading it; the operator reads it as neither (`null`). */
  viewer: Role | null;
  /** Where a file is downloaded from (the console has its own route). */
  fileHref?: (fileId: string) => string;
}) {
  const { t, i18n } = useTranslation("market");
  const priceText = usePriceText();
  return (
    <ol className="timeline">
      {events.map((event, i) => {
        const mine = event.author === viewer;
        const who =
          event.author === "system" ? t("contract.system") : mine ? t("authors.you") : t(`authors.${event.author}`);
        return (
          <li
            key={event.id}
            className={`timeline-item ${event.author === "system" ? "system" : mine ? "mine" : "theirs"}${i === events.length - 1 ? " latest" : ""}`}
          >
            <div className="timeline-dot" aria-hidden="true" />
            <div className="timeline-card">
              <div className="timeline-head">
                <strong>{who}</strong>
                <span>
                  {t(`contract.events.${event.kind}`, {
                    // The value of its moment (a milestone added later does not rewrite the hire's line).
                    price: priceText(event.amount_cents ?? contract.price_cents, contract.opportunity.budget_type),
                    days:
                      event.kind === "auto_completed"
                        ? REVIEW_DAYS
                        : t("applications.days", { count: contract.delivery_days }),
                  })}
                </span>
                <time className="muted small" dateTime={event.created_at}>
                  {formatDateTime(event.created_at, i18n.language)}
                </time>
              </div>
              {event.message ? <p className="timeline-message">{event.message}</p> : null}
              {event.files.length ? <FileList files={event.files} href={fileHref} /> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
