// The operator console's fixed values, without zod (browser code imports them; the schemas are
// in admin-schemas.ts).

/**
 * Every kind of operator action the audit log records. An action of the console is one of these
 * (add a new one here, with its label in public/locales/<lng>/admin.json `audit.actions`).
 */
export const AUDIT_ACTIONS = [
  "operator.create",
  "operator.remove",
  "report.dismiss",
  "content.hide",
  "content.restore",
  "user.warn",
  "user.suspend",
  "user.ban",
  "user.lift",
  "opportunity.approve",
  "opportunity.reject",
  "service.approve",
  "contract.unflag",
  "setting.update",
  "dispute.decide",
  "charge.confirm",
  "payout.pay",
  "payout.fail",
  "refund.record",
  "identity.approve",
  "identity.reject",
  "nota.reissue",
  "email.unsuppress",
  "job.retry",
  "job.discard",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an operator action is about. */
export const AUDIT_TARGETS = [
  "user",
  "opportunity",
  "message",
  "review",
  "reply",
  "profile",
  "report",
  "contract",
  "dispute",
  "setting",
  "charge",
  "payout",
  "refund",
  "nota",
  "email",
  "job",
  "service",
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** A person's standing, for the console's list of users. */
export const USER_STATUSES = ["active", "suspended", "banned", "profile_hidden"] as const;
