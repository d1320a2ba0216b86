// Where a notification leads, and which notifications a page is the target of: client-safe, so
// the bell links with it and the server marks a record's notifications read when it is opened.

import { isModerationKind, moderationPath, type ModerationDetail } from "./moderation";

type Target = {
  kind: string;
  application_id: string | null;
  opportunity_uuid: string | null;
  detail?: ModerationDetail | null;
};

/** Where a notification leads: what moderation touched, its contract or application, else its opportunity. */
export function notificationTarget(n: Target) {
  if (isModerationKind(n.kind)) return moderationPath(n.kind, n.detail ?? null, n);
  if (n.kind === "invitation_received") return "/invitations";
  // A contract has its application's id.
  // An order of a ready-made service (service_*) is a contract too.
  if (
    n.application_id &&
    (n.kind.startsWith("contract_") || n.kind.startsWith("milestone_") || n.kind.startsWith("service_"))
  ) {
    return `/contracts/${n.application_id}`;
  }
  if (n.kind.startsWith("payout_")) return "/financeiro";
  if (n.application_id) return `/applications/${n.application_id}`;
  if (n.opportunity_uuid) return `/opportunities/${n.opportunity_uuid}`;
  return "/notifications";
}

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const RECORD_PAGES = [
  // An application's page, its negotiation and its conversation are one record.
  new RegExp(`^(/applications/(${ID}))(/(negotiate|messages))?/?$`),
  new RegExp(`^(/contracts/(${ID}))/?$`),
  /^(\/invitations)\/?$/,
];

/**
 * The record a page shows, as notificationTarget names it, with its application's id (none for the
 * invitations), or null for any other page: opening a record reads the notifications leading to it.
 */
export function openedRecord(pathname: string): { target: string; id: string | null } | null {
  for (const pattern of RECORD_PAGES) {
    const match = pattern.exec(pathname);
    if (match) return { target: match[1]!, id: match[2] ?? null };
  }
  return null;
}
