import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AccountEmailKind, Database, OutboxRow } from "../../../db/schema";
import { displayNameOf } from "../accounts/users.server";
import { emailLocale, fixedT } from "../platform/i18n.server";
import type { Mail } from "../platform/mail.server";
import { now } from "../platform/records.server";
import { formatDateTime } from "~/lib/format";

// E-mails about the account itself (docs/product.md, "Contas e sessões"): confirmation links, the
// notice to the old address after a change, sign-in notices, a password reset link, a changed password, a new passkey, the data export's link, the goodbye
// before a deletion. They go through the outbox like every other e-mail (written in the
// transaction of what they tell about, sent by the drain, retried on failure), but they are
// always sent (no opt-out, no unsubscribe link) and carry what they say in the row's payload:
// the link and its parameters, and the address when it is not the account's (a new address to
// confirm, the old one to warn, the address of an account being deleted). The drain clears the
// payload once the e-mail has gone (outbox.server.ts), so no link stays in the table.

export const ACCOUNT_EMAIL_KINDS: readonly AccountEmailKind[] = [
  "email_verification",
  "email_change_verification",
  "email_changed",
  "sign_in_notice",
  "password_reset",
  "password_changed",
  "passkey_added",
  "payout_key_changed",
  "identity_decided",
  "data_export_ready",
  "account_deleted",
];

export function isAccountEmailKind(kind: string): kind is AccountEmailKind {
  return (ACCOUNT_EMAIL_KINDS as readonly string[]).includes(kind);
}

export type AccountEmailPayload = {
  /** The address to write to, when it is not the account's own. */
  to?: string;
  /** The name to greet, when the account's may be gone by the time it is sent. */
  name?: string;
  /** The text's parameters: the link, an address, a device, a date. */
  params: Record<string, string>;
};

/**
 * A moment for an account e-mail's text: kept as the instant (ISO) in the payload, and written
 * when the e-mail is composed in Brasília time and the reader's language (the text says so).
 */
export function emailTime(at: string) {
  return at;
}

/** An instant of the payload as the reader's clock says it (older rows hold "YYYY-MM-DD HH:MM", UTC, kept as is). */
function localTime(at: string | undefined, locale: string) {
  return at && /^\d{4}-\d\d-\d\dT/.test(at) ? formatDateTime(at, locale) : at;
}

/** The outbox row of an account e-mail (every column but the recipient's id). */
export function accountEmailRow(kind: AccountEmailKind, payload: AccountEmailPayload, at = now()) {
  return {
    id: randomUUID(),
    kind,
    status: "pending" as const,
    next_attempt_at: at,
    created_at: at,
    payload: JSON.stringify(payload),
  };
}

/** Queues an account e-mail inside the caller's transaction. */
export async function queueAccountEmail(
  trx: Kysely<Database>,
  userId: string,
  kind: AccountEmailKind,
  payload: AccountEmailPayload,
  at = now(),
) {
  await trx
    .insertInto("outbox")
    .values({
      ...accountEmailRow(kind, payload, at),
      user_id: userId,
      application_id: null,
      opportunity_id: null,
      items: 1,
      attempts: 0,
    })
    .execute();
}

type Recipient = { email: string; locale: string | null; display_name: string | null; full_name: string };

/** The e-mail of an account row of the outbox, in the user's language; null when it has nothing to say. */
export function composeAccountEmail(row: OutboxRow, user: Recipient): Mail | null {
  if (!row.payload) return null;
  const payload = JSON.parse(row.payload) as AccountEmailPayload;
  const locale = emailLocale(user.locale);
  const t = fixedT(locale, "account");
  // No address known (a sign-in without one): the text leaves it out rather than print "-".
  const ip = payload.params.ip;
  const params = {
    ...payload.params,
    at: localTime(payload.params.at, locale),
    context: ip === "-" || ip === "" ? "noip" : payload.params.context,
  };
  const text = [
    t("email.greeting", { name: payload.name ?? displayNameOf(user) }),
    "",
    t(`email.${row.kind}.body`, params),
    "",
    "-- ",
    t("email.footer"),
  ].join("\n");
  return { to: payload.to ?? user.email, subject: t(`email.${row.kind}.subject`, payload.params), text };
}
