// Disputes' fixed values, shared by the server and the pages (no zod, no server code).

/** Why a side opens a dispute. */
export const DISPUTE_REASONS = ["not_delivered", "quality", "deadline", "scope", "communication", "other"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** The other side answers within this many days; the schedule reminds it when this many are left. */
export const DISPUTE_RESPONSE_DAYS = 5;
export const DISPUTE_REMINDER_DAYS_LEFT = 2;

/** Files with each statement, as with a delivery. */
export const MAX_DISPUTE_FILES = 10;

/**
 * What an operator may decide: complete the contract (the work is accepted), cancel it, or, for
 * a contract with payments, split the held money (part to the freelancer, the rest refunded).
 * The decision registry of the operator's dispute service (services/operator/disputes.server.ts)
 * does each; the console offers those that apply to the dispute's contract.
 */
export const DISPUTE_DECISIONS = ["complete", "cancel", "split"] as const;
export type DisputeDecisionKind = (typeof DISPUTE_DECISIONS)[number];

export const DISPUTE_STATUSES = ["open", "decided"] as const;
