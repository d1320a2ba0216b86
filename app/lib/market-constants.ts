// The marketplace's fixed values, without zod: browser code imports them from here, so the
// schemas (and zod, ~15 kB gzipped) stay out of the pages' JavaScript. market-schemas.ts
// re-exports everything.

export const CATEGORIES = [
  "desenvolvimento",
  "design",
  "marketing",
  "redacao",
  "traducao",
  "video",
  "dados",
  "suporte",
  "outros",
] as const;
export const BUDGET_TYPES = ["fixed", "hourly"] as const;
export const LOCATION_TYPES = ["remote", "onsite", "hybrid"] as const;
export const OPPORTUNITY_STATUSES = ["open", "closed", "filled"] as const;
export const APPLICATION_STATUSES = ["pending", "countered", "accepted", "rejected", "withdrawn"] as const;
export const CONTRACT_STATUSES = ["in_progress", "delivered", "completed", "cancelled"] as const;
/** How a list of opportunities can be ordered; "relevance" is the default of a text search. */
export const SORTS = ["relevance", "newest", "budget_desc", "budget_asc", "deadline"] as const;

export type Category = (typeof CATEGORIES)[number];
export type BudgetType = (typeof BUDGET_TYPES)[number];
export type LocationType = (typeof LOCATION_TYPES)[number];
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export type Sort = (typeof SORTS)[number];

/** Application statuses still under negotiation: an offer on the table, waiting for one side. */
export const NEGOTIATING_STATUSES = ["pending", "countered"] as const satisfies readonly ApplicationStatus[];

export function isNegotiating(status: string): status is (typeof NEGOTIATING_STATUSES)[number] {
  return (NEGOTIATING_STATUSES as readonly string[]).includes(status);
}

export const MAX_CENTS = 100_000_000;
export const MAX_OFFERS = 30;
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;
export const TIME_ZONE = "America/Sao_Paulo";

/** Files per delivery, and how long a delivery may wait for review before it is completed. */
export const MAX_DELIVERY_FILES = 10;
/** What a contract file picker offers (deliveries, disputes, time entries); the server checks every file by its content anyway. */
export const FILE_ACCEPT = ".pdf,.png,.jpg,.jpeg,.webp,.gif,.zip,.docx,.xlsx,.pptx,.odt,.ods,.odp";
export const REVIEW_DAYS = 14;
/** The merchant is reminded of a delivery waiting for review when this many days are left. */
export const REMINDER_DAYS_LEFT = 5;

/** Files per message, and how long a conversation stays open after its application or contract ends. */
export const MAX_MESSAGE_FILES = 5;
export const MESSAGES_OPEN_DAYS = 30;
