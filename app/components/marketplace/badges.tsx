import { useTranslation } from "react-i18next";

export type Role = "merchant" | "freelancer";
export type ApplicationStatus = "pending" | "countered" | "accepted" | "rejected" | "withdrawn";
export type OpportunityStatus = "open" | "closed" | "filled";
export type RejectionReason = "declined" | "filled" | "closed";

export function OpportunityStatusBadge({ status }: { status: OpportunityStatus | string }) {
  const { t } = useTranslation("market");
  return <span className={`badge status-${status}`}>{t(`opportunity_status.${status}`)}</span>;
}

/**
 * An application's status as the viewer reads it: "Contraproposta · aguardando você" when it is
 * the viewer's turn, whose turn it is otherwise, and the reason of a rejection.
 */
export function ApplicationStatusBadge({
  status,
  awaiting,
  viewer,
  reason,
  rounds = 1,
  compact = false,
}: {
  status: ApplicationStatus | string;
  /** How many offers the negotiation has had: "pending" after a counter-offer is a counter-offer. */
  rounds?: number;
  awaiting?: Role | null;
  viewer?: Role;
  reason?: RejectionReason | string | null;
  compact?: boolean;
}) {
  const { t } = useTranslation("market");
  // The status names whose move it is (docs/product.md §3), so a list without `awaiting` still knows.
  awaiting ??= status === "pending" ? "merchant" : status === "countered" ? "freelancer" : null;
  const yourTurn = awaiting && viewer && awaiting === viewer;
  const turn = awaiting ? (yourTurn ? t("awaiting.you") : t(`awaiting.${awaiting}`)) : null;
  // Closed because the opportunity filled or closed is not a refusal; a reply to a counter-offer is one too.
  const shown =
    status === "rejected" && (reason === "filled" || reason === "closed")
      ? "ended"
      : status === "pending" && rounds > 1
        ? "countered"
        : status;
  return (
    <span className="status-line">
      <span className={`badge app-${status}${yourTurn ? " your-turn" : ""}`}>
        {t(`application_status.${shown}`)}
        {turn && !compact ? <span className="badge-sub"> · {turn}</span> : null}
      </span>
      {status === "rejected" && reason ? <span className="status-reason">{t(`reasons.${reason}`)}</span> : null}
    </span>
  );
}

/** The status badge of a whole application as the service returns it (card, detail, negotiation). */
export function ApplicationBadge({
  application: a,
  viewer,
}: {
  application: {
    status: string;
    awaiting?: Role | null;
    rejection_reason?: RejectionReason | string | null;
    offers_count?: number;
  };
  viewer: Role;
}) {
  return (
    <ApplicationStatusBadge
      status={a.status}
      awaiting={a.awaiting}
      viewer={viewer}
      reason={a.rejection_reason}
      rounds={a.offers_count}
    />
  );
}
