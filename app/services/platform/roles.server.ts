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
} as const satisfies Record<string, Role>;

export type Operation = keyof typeof ROLE_OF;

export function mayDo(user: Pick<UserRow, "account_type">, operation: Operation) {
  return user.account_type === ROLE_OF[operation];
}

/** The wrong account type is refused with 403, whichever door called. */
export function assertRoleFor(user: Pick<UserRow, "account_type">, operation: Operation) {
  if (!mayDo(user, operation)) throw new AppError(403, "forbidden_role");
}
