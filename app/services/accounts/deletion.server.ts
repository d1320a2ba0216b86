import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder } from "kysely";
import { directoryColumns } from "~/lib/directory";
import { DELETED_EMAIL_DOMAIN } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { rejectOpenApplications, withdrawApplicationsOf } from "../marketplace/opportunities.server";
import { queueAccountEmail } from "../messaging/account-email.server";
import { AppError, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { deleteExportFile } from "../platform/export-files.server";
import { deleteAttachment, deletePhoto } from "../platform/uploads.server";
import { imagePathsOf } from "../catalog/service-images.server";
import { assertFreshProof, freshProofSchema } from "./fresh-proof.server";
import { eraseIdentity } from "./identity.server";
import { eraseIssuer } from "../fiscal/issuers.server";
import { displayNameOf } from "./users.server";

// Deleting one's own account (LGPD art. 18; docs/product.md, "Exclusão da conta"). The owner
// confirms with the password, and the second factor when two-factor is on (every account has a
// password: registration asks for one and no path removes it, so a passkey alone never stands
// for it). Refused with 409 and the reason while a contract of theirs runs (any state but
// completed or cancelled), a dispute is open, or money is held or owed (escrow on their
// contracts, a balance to withdraw, a payout or a refund waiting). Operators are refused (they
// are removed with `npm run operator:remove`); a suspended or banned account may delete itself.
//
// Otherwise, in one transaction: their negotiations end (open opportunities closed, pending
// applications withdrawn, invitations removed), the user row is anonymised in place —
// it stays, under its id, for the contracts, reviews' ratings, ledger lines and terms acceptances
// that point at it — with the preconditions in the UPDATE's WHERE (one winner; a contract begun
// meanwhile makes it 409), the text of their messages, cover letters, offers' notes, reviews and
// replies is erased, and everything that lets anyone in or reach them is deleted (sessions,
// passkeys, two-factor, codes and links, notifications, e-mail settings, payout account). The
// goodbye e-mail is queued in that transaction, to the address the row still has then. After the
// commit, their files leave the store: photo, portfolio and service images, files attached to their messages
// (deliveries stay: they are the contract's record), and the ZIPs of copies of their data.

export const DELETED_NAME = "Conta excluída";
/** What is left of a message of a deleted account (its files go with it). */
export const REMOVED_MESSAGE = "Mensagem removida.";
/**
 * The address of a deleted account: unique (its id), not deliverable (RFC 2606's `.invalid`), and
 * never anyone else's (every schema that takes an address refuses that domain).
 */
export const deletedEmail = (id: string) => `excluida-${id}@${DELETED_EMAIL_DOMAIN}`;

/**
 * What a deletion does to each table, checked by the compiler (a new table of the schema must be
 * placed here) and by the tests (every table of the database is here, and each "erased" table
 * keeps no row of the account):
 * - `erased`: the account's rows are deleted;
 * - `anonymised`: rows stay, their personal text is erased or replaced;
 * - `kept`: a legal, financial or moderation record that stays as it is (it names the account
 *   only by its id, whose row says "Conta excluída");
 * - `none`: holds nothing of a person, or only other people's.
 */
export const DELETION_PLAN = {
  users: "anonymised",
  terms_acceptances: "kept",
  sessions: "erased",
  account_devices: "erased",
  two_factor: "erased",
  recovery_codes: "erased",
  login_challenges: "erased",
  passkeys: "erased",
  webauthn_challenges: "erased",
  password_resets: "erased",
  email_tokens: "erased",
  opportunities: "kept",
  applications: "anonymised",
  offers: "anonymised",
  notifications: "erased",
  photos: "erased",
  contracts: "kept",
  contract_events: "kept",
  contract_files: "kept",
  conversations: "kept",
  messages: "anonymised",
  message_files: "erased",
  pending_files: "erased",
  conversation_reads: "erased",
  portfolio_items: "erased",
  services: "erased",
  service_images: "erased",
  // The order is the contract's terms (kept as contracts are); its answers stay with the contract.
  service_orders: "kept",
  invitations: "erased",
  reviews: "anonymised",
  email_opt_outs: "erased",
  push_subscriptions: "erased",
  push_opt_outs: "erased",
  whatsapp_numbers: "erased",
  whatsapp_opt_ins: "erased",
  whatsapp_daily: "erased",
  whatsapp_sends: "erased",
  outbox: "erased",
  audit_log: "kept",
  reports: "kept",
  settings: "none",
  disputes: "kept",
  milestones: "kept",
  contract_weeks: "kept",
  time_entries: "kept",
  contract_months: "kept",
  pix_charges: "kept",
  pix_recurrences: "kept",
  payout_accounts: "erased",
  identities: "anonymised",
  identity_conflicts: "kept",
  identity_verifications: "kept",
  identity_events: "none",
  payouts: "kept",
  refunds: "kept",
  ledger_transactions: "kept",
  ledger_entries: "kept",
  payment_events: "none",
  data_exports: "erased",
  saved_searches: "erased",
  events: "erased",
  contact_flags: "kept",
  fiscal_issuers: "anonymised",
  nfse_documents: "kept",
  // By address, not by account (no account's id in it): no e-mail goes to an address that
  // bounced or complained, even after the account is gone (personal-data.server.ts says why).
  email_suppressions: "none",
  email_webhook_receipts: "none",
  vapid_keys: "none",
} as const satisfies Record<keyof Database, "erased" | "anonymised" | "kept" | "none">;

type Blockers = { contract: boolean; dispute: boolean; money: boolean };

/** The three reasons to refuse, as SQL conditions on the user whose id is `id`. */
function blockersOf(id: Expression<string> | RawBuilder<string>) {
  const side = sql`(c.merchant_id = ${id} OR c.freelancer_id = ${id})`;
  return {
    contract: sql<boolean>`EXISTS (SELECT 1 FROM contracts c WHERE ${side} AND c.status NOT IN ('completed', 'cancelled'))`,
    dispute: sql<boolean>`EXISTS (SELECT 1 FROM disputes d JOIN contracts c ON c.id = d.contract_id
      WHERE ${side} AND d.status = 'open')`,
    // Any of the user's own ledger accounts (available balance, payouts, refunds) not at zero, or
    // money in escrow on a milestone of one of their contracts.
    money: sql<boolean>`(EXISTS (SELECT 1 FROM ledger_entries e WHERE e.user_id = ${id}
        AND (e.account LIKE 'available:%' OR e.account LIKE 'payout:%' OR e.account LIKE 'refund:%')
        GROUP BY e.account HAVING sum(e.amount_cents) <> 0)
      OR EXISTS (SELECT 1 FROM milestones m JOIN contracts c ON c.id = m.contract_id
        JOIN ledger_entries e ON e.account = 'escrow:' || m.id
        WHERE ${side} AND c.payments = 'escrow' GROUP BY m.id HAVING sum(e.amount_cents) <> 0))`,
  };
}

async function blockers(q: Kysely<Database>, userId: string): Promise<Blockers> {
  const b = blockersOf(sql.val(userId));
  const { rows } = await sql<{
    contract: unknown;
    dispute: unknown;
    money: unknown;
  }>`SELECT ${b.contract} AS contract, ${b.dispute} AS dispute, ${b.money} AS money`.execute(q);
  const row = rows[0]!;
  const yes = (v: unknown) => v === true || Number(v) === 1;
  return { contract: yes(row.contract), dispute: yes(row.dispute), money: yes(row.money) };
}

/** 409 with the first reason the account cannot be deleted now, if any. */
function assertNoBlocker(b: Blockers) {
  if (b.dispute) throw new AppError(409, "account_delete_dispute_open");
  if (b.contract) throw new AppError(409, "account_delete_contract_running");
  if (b.money) throw new AppError(409, "account_delete_money");
}

/** Money of the account that blocks its deletion: where it is and how much (centavos). */
export type HeldMoney = {
  kind: "escrow" | "available" | "payout" | "refund";
  amount_cents: number;
  contract_id: string | null;
};

/**
 * Each balance that keeps the account from being deleted, for the page to name with its link:
 * the escrow of each of their contracts, their balance awaiting a payout request, a payout or a
 * refund awaiting the operator. The same conditions as the `money` blocker, listed.
 */
export async function heldMoney(userId: string): Promise<HeldMoney[]> {
  const [own, escrow] = await Promise.all([
    db
      .selectFrom("ledger_entries")
      .select((eb) => ["account", eb.fn.sum<number | string>("amount_cents").as("total")])
      .where("user_id", "=", userId)
      .where((eb) =>
        eb.or([
          eb("account", "like", "available:%"),
          eb("account", "like", "payout:%"),
          eb("account", "like", "refund:%"),
        ]),
      )
      .groupBy("account")
      .execute(),
    sql<{ contract_id: string; total: number | string }>`SELECT c.id AS contract_id, sum(e.amount_cents) AS total
      FROM milestones m JOIN contracts c ON c.id = m.contract_id JOIN ledger_entries e ON e.account = 'escrow:' || m.id
      WHERE (c.merchant_id = ${userId} OR c.freelancer_id = ${userId}) AND c.payments = 'escrow'
      GROUP BY c.id HAVING sum(e.amount_cents) <> 0 ORDER BY c.id`.execute(db),
  ]);
  const kindOf = (account: string) => account.slice(0, account.indexOf(":")) as HeldMoney["kind"];
  return [
    ...escrow.rows.map((r) => ({
      kind: "escrow" as const,
      amount_cents: Math.abs(Number(r.total)),
      contract_id: r.contract_id,
    })),
    ...own
      .filter((r) => Number(r.total) !== 0)
      .map((r) => ({ kind: kindOf(r.account), amount_cents: Math.abs(Number(r.total)), contract_id: null })),
  ];
}

/** Whether the account may be deleted now, and why not (the page says so before the form). */
export async function deletionBlocker(user: Pick<UserRow, "id" | "account_type">): Promise<string | null> {
  if (user.account_type === "operator") return "account_delete_operator";
  try {
    assertNoBlocker(await blockers(db, user.id));
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.key;
    throw error;
  }
}

type Erased = { files: string[]; photos: string[]; exports: string[] };

/**
 * Deletes the account of `user` (see above): `{ password, code? }`. 422 wrong password or code
 * (counted like a wrong sign-in), 403 operator, 409 with the reason, or deleted meanwhile.
 */
export async function deleteAccount(user: Pick<UserRow, "id">, input: unknown): Promise<{ deleted_at: string }> {
  parseInput(freshProofSchema, input, "account_delete_failed");
  const current = await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirst();
  if (!current || current.deleted_at) throw new AppError(409, "account_already_deleted");
  if (current.account_type === "operator") throw new AppError(403, "account_delete_operator");
  assertNoBlocker(await blockers(db, current.id));
  await assertFreshProof(current, input, "account_delete_failed");
  const at = now();
  const erased = await transaction((trx) => erase(trx, current, at));
  // The files leave the store once the rows that named them are gone for good.
  await Promise.all([
    ...erased.photos.map(deletePhoto),
    ...erased.files.map(deleteAttachment),
    ...erased.exports.map((name) => deleteExportFile(name)),
  ]);
  return { deleted_at: at };
}

async function erase(trx: Kysely<Database>, user: UserRow, at: string): Promise<Erased> {
  const id = user.id;
  // Negotiations end first: these UPDATEs take the rows a hire would take, so a hire racing this
  // deletion either finishes before (and the contract refuses the deletion below) or finds its
  // application withdrawn or its opportunity closed.
  await withdrawApplicationsOf(trx, id, at);
  const closed = await trx
    .updateTable("opportunities")
    .set({ status: "closed", updated_at: at })
    .where("merchant_id", "=", id)
    .where("status", "=", "open")
    .returning("id")
    .execute();
  for (const o of closed) await rejectOpenApplications(trx, o.id, "closed");
  await trx
    .deleteFrom("invitations")
    .where((eb) => eb.or([eb("freelancer_id", "=", id), eb("merchant_id", "=", id)]))
    .execute();

  // The goodbye, to the address the account has until the next statement; nothing else of theirs
  // is left to send.
  await trx.deleteFrom("outbox").where("user_id", "=", id).where("status", "in", ["pending", "failed"]).execute();
  await queueAccountEmail(trx, id, "account_deleted", { to: user.email, name: displayNameOf(user), params: {} }, at);

  const b = blockersOf(sql.ref("users.id"));
  const anonymised = await trx
    .updateTable("users")
    .set({
      email: deletedEmail(id),
      password_hash: "",
      display_name: null,
      full_name: DELETED_NAME,
      bio: "",
      skills: "[]",
      photo_path: null,
      hidden_photo_path: null,
      city: null,
      remote: 0,
      company_name: null,
      company_cnpj: null,
      ...directoryColumns({ full_name: DELETED_NAME, display_name: null, bio: "", skills: [], city: null }),
      public_profile: 0,
      email_verified_at: null,
      email_undeliverable_at: null,
      profile_hidden_reason: null,
      sanction_reason: null,
      deleted_at: at,
      updated_at: at,
    })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("account_type", "!=", "operator")
    .where((eb) => eb.not(eb.or([b.contract, b.dispute, b.money])))
    .executeTakeFirst();
  if (Number(anonymised.numUpdatedRows) === 0) {
    assertNoBlocker(await blockers(trx, id));
    throw new AppError(409, "account_already_deleted");
  }

  // What they wrote to others: the text goes, the fact that it was said stays.
  const sent = (side: "freelancer" | "merchant") =>
    trx
      .selectFrom("conversations")
      .select("application_id")
      .where(side === "freelancer" ? "freelancer_id" : "merchant_id", "=", id);
  const theirMessages = (eb: ExpressionBuilder<Database, "messages">) =>
    eb.or([
      eb.and([eb("author", "=", "freelancer"), eb("application_id", "in", sent("freelancer"))]),
      eb.and([eb("author", "=", "merchant"), eb("application_id", "in", sent("merchant"))]),
    ]);
  const files = await trx
    .deleteFrom("message_files")
    .where("message_id", "in", trx.selectFrom("messages").select("id").where(theirMessages))
    .returning("stored_name")
    .execute();
  await trx.updateTable("messages").set({ body: REMOVED_MESSAGE, masked_body: null }).where(theirMessages).execute();
  await trx
    .updateTable("applications")
    .set({ cover_letter: "", masked_cover_letter: null })
    .where("freelancer_id", "=", id)
    .execute();
  await trx
    .updateTable("offers")
    .set({ message: null, masked_message: null })
    .where((eb) =>
      eb.or([
        eb.and([
          eb("author", "=", "freelancer"),
          eb("application_id", "in", trx.selectFrom("applications").select("id").where("freelancer_id", "=", id)),
        ]),
        eb.and([
          eb("author", "=", "merchant"),
          eb(
            "application_id",
            "in",
            trx
              .selectFrom("applications as a")
              .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
              .select("a.id")
              .where("o.merchant_id", "=", id),
          ),
        ]),
      ]),
    )
    .execute();
  await trx.updateTable("reviews").set({ comment: "" }).where("author_id", "=", id).execute();
  await trx
    .updateTable("reviews")
    .set({ reply: null, replied_at: null })
    .where("subject_id", "=", id)
    .where("reply", "is not", null)
    .execute();

  // Their fiscal identity: the document and personal data go (the document may be used again),
  // the decision stays; its photos leave the store with the other files.
  const identityFiles = await eraseIdentity(trx, id, DELETED_NAME, at);
  // Their own NFS-e issuer: the certificate and its password go and issuing stops; the row and
  // their notas stay (fiscal records).
  await eraseIssuer(trx, id, at);
  const pending = await trx.deleteFrom("pending_files").where("user_id", "=", id).returning("stored_name").execute();
  const portfolio = await trx.deleteFrom("portfolio_items").where("user_id", "=", id).returning("image_path").execute();
  // Their ready-made services leave the catalogue with them, and their images (rows by cascade) the store.
  const serviceImages = await imagePathsOf(trx, { freelancerId: id });
  await trx.deleteFrom("services").where("freelancer_id", "=", id).execute();
  // Copies of their data asked for: the rows, and the ZIPs once committed.
  const copies = await trx.deleteFrom("data_exports").where("user_id", "=", id).returning("file_name").execute();
  for (const table of [
    "sessions",
    "passkeys",
    "webauthn_challenges",
    "two_factor",
    "recovery_codes",
    "login_challenges",
    "email_tokens",
    "password_resets",
    "account_devices",
    "notifications",
    "email_opt_outs",
    // The devices that got pushes: nothing more goes to them.
    "push_subscriptions",
    "push_opt_outs",
    // The WhatsApp number: nothing more goes to it, and it is personal data.
    "whatsapp_numbers",
    "whatsapp_opt_ins",
    "whatsapp_daily",
    "whatsapp_sends",
    "saved_searches",
    "conversation_reads",
    "payout_accounts",
    "events",
  ] as const) {
    await trx.deleteFrom(table).where("user_id", "=", id).execute();
  }
  return {
    files: [...files.map((f) => f.stored_name), ...pending.map((f) => f.stored_name), ...identityFiles],
    exports: copies.map((c) => c.file_name).filter((n): n is string => Boolean(n)),
    photos: [user.photo_path, user.hidden_photo_path, ...portfolio.map((p) => p.image_path), ...serviceImages].filter(
      (p): p is string => Boolean(p),
    ),
  };
}
