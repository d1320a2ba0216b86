import { config } from "~/config.server";
import type { UserRow } from "../../../db/schema";
import { AppError } from "./errors.server";

export type Role = UserRow["account_type"];

/**
 * Who may do what, by account type: the one table of role rules. Services check it on every
 * call (whichever door called them); the API checks the same rule before it reads a body, and
 * pages use it to send the other account type elsewhere. Rules that depend on the record (the
 * owner, one of the two sides of an application or contract) are the services' own.
 */
export const ROLE_OF = {
  "opportunity.create": "merchant",
  "opportunity.manage": "merchant",
  "opportunity.applications": "merchant",
  "opportunity.invite": "merchant",
  "application.apply": "freelancer",
  "application.reject": "merchant",
  "application.withdraw": "freelancer",
  "applications.mine": "freelancer",
  "invitation.decline": "freelancer",
  "portfolio.manage": "freelancer",
  "payout.manage": "freelancer",
  "saved_search.manage": "freelancer",
  "fiscal.manage": "freelancer",
  "service.manage": "freelancer",
  "service.publish": "freelancer",
  "service.order": "merchant",
} as const satisfies Record<string, Role>;

export type Operation = keyof typeof ROLE_OF;

export function mayDo(user: Pick<UserRow, "account_type">, operation: Operation) {
  return user.account_type === ROLE_OF[operation];
}

/**
 * Writes that reach other people wait for a confirmed e-mail (EMAIL_VERIFICATION=required, the
 * default): publishing (an opportunity or a service), applying, inviting and buying a service here, and sending a message (messages.server.ts).
 */
const NEEDS_VERIFIED_EMAIL: ReadonlySet<Operation> = new Set([
  "opportunity.create",
  "application.apply",
  "opportunity.invite",
  "service.publish",
  "service.order",
]);

type Actor = Pick<UserRow, "account_type" | "email_verified_at">;

/** Whether the user may write to others: e-mail confirmed, or no confirmation asked. */
export function emailVerifiedEnough(user: Pick<UserRow, "email_verified_at">) {
  return config.EMAIL_VERIFICATION === "off" || user.email_verified_at !== null;
}

/** 403 with the reason (confirm the e-mail first) for a user whose e-mail is not confirmed yet. */
export function assertVerifiedEmail(user: Pick<UserRow, "email_verified_at">) {
  if (!emailVerifiedEnough(user)) throw new AppError(403, "email_unverified");
}

/** The wrong account type is refused with 403, whichever door called; so is an unconfirmed e-mail where it counts. */
export function assertRoleFor(user: Actor, operation: Operation) {
  if (!mayDo(user, operation)) throw new AppError(403, "forbidden_role");
  if (NEEDS_VERIFIED_EMAIL.has(operation)) assertVerifiedEmail(user);
}
