import { sql, type Kysely } from "kysely";
import { config } from "~/config.server";
import { hasLink } from "~/lib/links";
import { lockUser } from "../../../db/dialect";
import type { ContractParty, Database, UserRow } from "../../../db/schema";
import { AppError } from "./errors.server";

// A new account's first NEW_ACCOUNT_HOURS (docs/product.md, "Contas novas"): at most
// NEW_ACCOUNT_MAX_APPLICATIONS applications, at most NEW_ACCOUNT_MAX_FIRST_MESSAGES first messages
// to strangers, and no link in its first message of a conversation. Operators and older accounts
// are not limited.
//
// The counts are of the rows themselves (applications, messages that opened a conversation),
// read inside the transaction that writes the next one, after locking the account's row on
// PostgreSQL (SQLite's BEGIN IMMEDIATE already writes one transaction at a time): of a burst of
// parallel requests, exactly the allowance passes. Only accounts inside the window take the lock.

type Account = Pick<UserRow, "id" | "account_type" | "created_at">;

const HOUR_MS = 3_600_000;

/** When the account's first hours end, while they last; null for an account that is not limited. */
export function newAccountUntil(user: Omit<Account, "id">, at: string): Date | null {
  if (config.NEW_ACCOUNT_HOURS === 0 || user.account_type === "operator") return null;
  const until = Date.parse(user.created_at) + config.NEW_ACCOUNT_HOURS * HOUR_MS;
  return until > Date.parse(at) ? new Date(until) : null;
}

/**
 * The refusal, saying when the limit lifts: 429 with Retry-After for a count (waiting is the
 * answer), 403 for a link (the message as written is not allowed yet). The body carries `code`
 * and `lifts_at` for API clients.
 */
function limited(code: string, until: Date, at: string, max?: number, field?: string) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.parse(at)) / 1000));
  const params = { until, max, hours: config.NEW_ACCOUNT_HOURS };
  const body = { code, lifts_at: until.toISOString() };
  return field
    ? new AppError(403, code, { [field]: `${code}_field` }, params, undefined, body)
    : new AppError(429, code, undefined, params, { "Retry-After": String(seconds) }, body);
}

/** Before a new account's application is written, in its transaction: 429 past the allowance. */
export async function assertMayApply(trx: Kysely<Database>, user: Account, at: string) {
  const until = newAccountUntil(user, at);
  if (!until) return;
  await lockUser(trx, user.id);
  const { n } = await trx
    .selectFrom("applications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("freelancer_id", "=", user.id)
    .executeTakeFirstOrThrow();
  if (Number(n) >= config.NEW_ACCOUNT_MAX_APPLICATIONS) {
    throw limited("new_account_applications", until, at, config.NEW_ACCOUNT_MAX_APPLICATIONS);
  }
}

/**
 * A conversation's merchant and freelancer have a link when there is a contract between them or
 * the merchant invited the freelancer (to any of their opportunities). The freelancer's
 * application is the freelancer's own move: for the merchant it is the link.
 */
const linked = (merchant: string | ReturnType<typeof sql.ref>, freelancer: string) => sql<boolean>`(
  EXISTS (SELECT 1 FROM contracts k WHERE k.merchant_id = ${merchant} AND k.freelancer_id = ${freelancer})
  OR EXISTS (SELECT 1 FROM invitations i WHERE i.merchant_id = ${merchant} AND i.freelancer_id = ${freelancer}))`;

type Sending = { applicationId: string; party: ContractParty; otherId: string; body: string };

/**
 * Before a new account's message is written, in its transaction. Its first message in a
 * conversation carries no link (403 on `body`); one that opens a conversation with a stranger
 * (a freelancer writing first to a merchant with no contract or invitation between them) counts,
 * 429 past the allowance.
 */
export async function assertMayMessage(trx: Kysely<Database>, user: Account, m: Sending, at: string) {
  const until = newAccountUntil(user, at);
  if (!until) return;
  await lockUser(trx, user.id);
  const authors = await trx
    .selectFrom("messages")
    .select("author")
    .distinct()
    .where("application_id", "=", m.applicationId)
    .execute();
  if (authors.some((a) => a.author === m.party)) return;
  if (hasLink(m.body)) throw limited("new_account_link", until, at, undefined, "body");
  if (m.party !== "freelancer" || authors.length > 0) return;
  // Whether this conversation's merchant is linked, and how many strangers the account wrote to
  // first so far: one statement.
  const { link, n } = await sql<{ link: number; n: number }>`
    SELECT CASE WHEN ${linked(m.otherId, user.id)} THEN 1 ELSE 0 END AS link,
      (SELECT count(*) FROM conversations c
        WHERE c.freelancer_id = ${user.id}
          AND EXISTS (SELECT 1 FROM messages o WHERE o.application_id = c.application_id AND o.seq = 1 AND o.author = 'freelancer')
          AND NOT ${linked(sql.ref("c.merchant_id"), user.id)}) AS n`
    .execute(trx)
    .then((r) => r.rows[0]!);
  if (Number(link) === 1) return;
  if (Number(n) >= config.NEW_ACCOUNT_MAX_FIRST_MESSAGES) {
    throw limited("new_account_first_messages", until, at, config.NEW_ACCOUNT_MAX_FIRST_MESSAGES);
  }
}
