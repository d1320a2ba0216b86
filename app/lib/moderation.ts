// Moderation's fixed values and the notices it sends, shared by the server and the pages (no zod,
// no server code).

import { EMAIL_KIND_GROUPS } from "./email-kinds";

/**
 * What may be reported: ids are the opportunity's uuid, the user's id, the message's, review's or
 * ready-made service's id.
 */
export const REPORT_TARGETS = ["opportunity", "profile", "message", "review", "reply", "service"] as const;
export type ReportTargetType = (typeof REPORT_TARGETS)[number];

export const REPORT_REASONS = ["spam", "fraud", "offensive", "inappropriate", "off_platform", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;

/** How long reports have waited, for the queue's filter. */
export const REPORT_AGES = ["day", "week", "older"] as const;
export type ReportAge = (typeof REPORT_AGES)[number];

/** What an operator may do with the reports of one target. */
export const REPORT_ACTIONS = ["dismiss", "hide", "warn", "suspend", "ban"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** Sanctions on a user, from the user's page in the console. */
export const SANCTIONS = ["warn", "suspend", "ban", "lift"] as const;
export type Sanction = (typeof SANCTIONS)[number];

export const MAX_SUSPENSION_DAYS = 365;
export const MAX_PREMODERATION_DAYS = 365;
/** Reports a user may send per hour. */
export const REPORTS_PER_HOUR = 10;

/** A notice of moderation: what it is about, the operator's reason, and until when (suspensions). */
export type ModerationDetail = {
  what?: ReportTargetType;
  reason?: string;
  until?: string | null;
  /** A dispute's decision with payments: what went to the freelancer (before the fee) and back to the merchant. */
  released_cents?: number;
  refunded_cents?: number;
  /** A milestone released before the last one: its title and amount. */
  milestone?: string;
  amount_cents?: number;
  /** A notice about a ready-made service (hidden, shown again, ordered): its id and title. */
  service_id?: string;
  service_title?: string;
  /** An order of a ready-made service: the package bought. */
  package?: string;
};

/**
 * The `money` part of a notice (a dispute decided with money held): the amounts as its reader's
 * language writes them, or nothing. `t` is the market namespace's.
 */
export function noticeMoney(
  detail: ModerationDetail | null | undefined,
  t: (key: string, params: Record<string, string>) => string,
  money: (cents: number) => string,
): string {
  if (typeof detail?.released_cents !== "number" || typeof detail.refunded_cents !== "number") return "";
  return t("notifications.dispute_money", {
    released: money(detail.released_cents),
    refunded: money(detail.refunded_cents),
  });
}

export function parseDetail(text: string | null | undefined): ModerationDetail | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as ModerationDetail) : null;
  } catch {
    return null;
  }
}

/** The notices of moderation: the settings' group of that name. */
export function isModerationKind(kind: string) {
  return (EMAIL_KIND_GROUPS.moderation as readonly string[]).includes(kind);
}

/**
 * Where a notice of moderation leads: the content it is about (its owner sees why it is hidden
 * there too), else the notifications.
 */
export function moderationPath(
  kind: string,
  detail: ModerationDetail | null,
  ids: { application_id: string | null; opportunity_uuid: string | null },
): string {
  if (kind === "opportunity_published" && ids.opportunity_uuid) return `/opportunities/${ids.opportunity_uuid}`;
  if (kind !== "moderation_hidden" && kind !== "moderation_restored") return "/notifications";
  switch (detail?.what) {
    case "opportunity":
      return ids.opportunity_uuid ? `/opportunities/${ids.opportunity_uuid}` : "/notifications";
    case "message":
      return ids.application_id ? `/applications/${ids.application_id}/messages` : "/notifications";
    case "review":
    case "reply":
      return ids.application_id ? `/contracts/${ids.application_id}` : "/notifications";
    case "profile":
      return "/profile";
    case "service":
      return detail.service_id ? `/meus-servicos/${detail.service_id}` : "/notifications";
    default:
      return "/notifications";
  }
}
