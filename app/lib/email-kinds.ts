// The kinds of e-mail notification, in the groups the settings form shows them in. Every kind is
// on until the user turns it off (settings page, JSON API or an e-mail's unsubscribe link).
export const EMAIL_KIND_GROUPS = {
  applications: [
    "application_received",
    "offer_received",
    "application_accepted",
    "application_rejected",
    "application_withdrawn",
  ],
  contracts: [
    "contract_delivered",
    "contract_changes_requested",
    "contract_review_reminder",
    "contract_completed",
    "contract_auto_completed",
    "contract_cancel_requested",
    "contract_cancel_declined",
    "contract_cancelled",
    "contract_overdue",
    "contract_dispute_opened",
    "contract_dispute_statement",
    "contract_dispute_reminder",
    "contract_dispute_decided",
    "contract_week_submitted",
    "contract_week_approved",
    "contract_week_questioned",
    "contract_week_answered",
    "contract_week_lapsed",
    "contract_cap_changed",
    "contract_paused",
    "contract_resumed",
  ],
  messages: ["message_received"],
  reputation: ["contract_reviewed", "invitation_received"],
  payments: [
    "milestone_proposed",
    "milestone_funded",
    "milestone_released",
    "payout_paid",
    "payout_failed",
    "contract_amount_proposed",
    "contract_amount_accepted",
    "contract_amount_declined",
    "month_charge_refused",
    "month_not_funded",
  ],
  moderation: [
    "moderation_hidden",
    "moderation_restored",
    "moderation_warning",
    "account_suspended",
    "account_banned",
    "account_restored",
    "opportunity_published",
  ],
  // A ready-made service's orders (docs/product.md, "Contratar um serviço"): the freelancer's.
  services: ["service_ordered", "service_answered"],
} as const;

export type EmailKindGroup = keyof typeof EMAIL_KIND_GROUPS;
export type EmailKindName = (typeof EMAIL_KIND_GROUPS)[EmailKindGroup][number];

export const EMAIL_KINDS: readonly EmailKindName[] = Object.values(EMAIL_KIND_GROUPS).flat();

/**
 * The kinds only one side of the marketplace ever receives (who is notified of what:
 * docs/product.md); the others reach both. The settings form offers each person their own.
 */
const ONE_SIDE: Partial<Record<EmailKindName, "merchant" | "freelancer">> = {
  application_received: "merchant",
  application_withdrawn: "merchant",
  contract_delivered: "merchant",
  contract_review_reminder: "merchant",
  application_rejected: "freelancer",
  contract_changes_requested: "freelancer",
  contract_completed: "freelancer",
  invitation_received: "freelancer",
  service_ordered: "freelancer",
  service_answered: "freelancer",
  contract_week_submitted: "merchant",
  contract_week_answered: "merchant",
  contract_week_approved: "freelancer",
  contract_week_questioned: "freelancer",
  contract_cap_changed: "freelancer",
  month_charge_refused: "merchant",
  month_not_funded: "freelancer",
};

/** The kinds of e-mail an account of this type can receive. */
export function emailKindsFor(role: "merchant" | "freelancer"): EmailKindName[] {
  return EMAIL_KINDS.filter((kind) => (ONE_SIDE[kind] ?? role) === role);
}

/** EMAIL_KIND_GROUPS with only the kinds an account of this type can receive (empty groups left out). */
export function emailKindGroupsFor(role: "merchant" | "freelancer") {
  const mine = new Set(emailKindsFor(role));
  return (Object.keys(EMAIL_KIND_GROUPS) as EmailKindGroup[])
    .map((group) => ({ group, kinds: EMAIL_KIND_GROUPS[group].filter((kind) => mine.has(kind)) }))
    .filter(({ kinds }) => kinds.length > 0);
}

export function isEmailKind(value: unknown): value is EmailKindName {
  return typeof value === "string" && (EMAIL_KINDS as readonly string[]).includes(value);
}

/** New messages of one conversation make at most one e-mail per this many minutes. */
export const MESSAGE_EMAIL_MINUTES = 10;

/**
 * Whether a kind may go out by WhatsApp: new messages are told in the app, by e-mail (gathered per
 * conversation) and by push, never by a paid template per message (docs/product.md, section 6).
 */
export const isWhatsappKind = (kind: EmailKindName) => kind !== "message_received";
