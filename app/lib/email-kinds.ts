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
  ],
  messages: ["message_received"],
  reputation: ["contract_reviewed", "invitation_received"],
  payments: ["milestone_proposed", "milestone_funded", "payout_paid", "payout_failed"],
  moderation: [
    "moderation_hidden",
    "moderation_restored",
    "moderation_warning",
    "account_suspended",
    "account_banned",
    "account_restored",
    "opportunity_published",
  ],
} as const;

export type EmailKindGroup = keyof typeof EMAIL_KIND_GROUPS;
export type EmailKindName = (typeof EMAIL_KIND_GROUPS)[EmailKindGroup][number];

export const EMAIL_KINDS: readonly EmailKindName[] = Object.values(EMAIL_KIND_GROUPS).flat();

export function isEmailKind(value: unknown): value is EmailKindName {
  return typeof value === "string" && (EMAIL_KINDS as readonly string[]).includes(value);
}

/** New messages of one conversation make at most one e-mail per this many minutes. */
export const MESSAGE_EMAIL_MINUTES = 10;
