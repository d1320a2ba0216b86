import { sql } from "kysely";
import { db, engine } from "../../../db";
import type { ExportFile } from "./export-kinds.server";

// Where a person's data lives (docs/product.md, "Seus dados"): every table of the schema, each
// column that points at a user, and what the copy of a user's data does with it. The copy
// (data-export.server.ts) writes the files named here; a test (tests/accounts/personal-data)
// reads the schema itself and fails when a table or a column pointing at users is in none of
// these lists, so a new table is placed here before it lands. A file named here is an entry of
// EXPORT_KINDS (export-kinds.server.ts), which reads it for the copy: placing a new table in a new
// file means adding that entry. Deleting an account walks the same inventory.

/** A column that points at a user: in the copy (the ZIP's file), or left out, with why. */
export type Disposition = { file: ExportFile | "files/" } | { left_out: string };

const inFile = (file: ExportFile | "files/"): Disposition => ({ file });
const leftOut = (why: string): Disposition => ({ left_out: why });

/** A side of a contract or conversation (merchant/freelancer/system), not a user's id. */
const SIDE = leftOut("names a side of the contract (merchant, freelancer or system), not a user");
const OPERATOR = leftOut("the operator who acted; operators' own accounts are not marketplace users");

/** Tables with columns pointing at users, column by column. */
export const USER_COLUMNS: Record<string, Record<string, Disposition>> = {
  users: { id: inFile("profile.json") },
  terms_acceptances: { user_id: inFile("terms_acceptances.json") },
  sessions: { user_id: inFile("sessions.json") },
  account_devices: {
    user_id: leftOut(
      "hashes of browsers signed in from, kept only to notice a new one; sessions.json lists the devices",
    ),
  },
  two_factor: { user_id: inFile("two_factor.json") },
  recovery_codes: {
    user_id: leftOut("hashes of single-use secrets; two_factor.json says how many are left, never the codes"),
  },
  login_challenges: { user_id: leftOut("a five-minute step of a sign-in, a secret's hash, gone once used") },
  passkeys: { user_id: inFile("passkeys.json") },
  webauthn_challenges: { user_id: leftOut("a five-minute WebAuthn challenge's hash, gone once used") },
  password_resets: { user_id: leftOut("a reset link's hash, valid one hour; secrets are never copied") },
  email_tokens: { user_id: leftOut("a confirmation link's hash, valid 24 hours; secrets are never copied") },
  opportunities: { merchant_id: inFile("opportunities.json") },
  applications: { freelancer_id: inFile("applications.json") },
  notifications: { user_id: inFile("notifications.json") },
  contracts: {
    merchant_id: inFile("contracts.json"),
    freelancer_id: inFile("contracts.json"),
    ended_by: SIDE,
    cancel_requested_by: SIDE,
    amount_change_by: SIDE,
  },
  conversations: {
    freelancer_id: leftOut("the two sides and a counter of a conversation; the user's messages are in messages.json"),
    merchant_id: leftOut("the two sides and a counter of a conversation; the user's messages are in messages.json"),
  },
  conversation_reads: { user_id: leftOut("the last message seen in a conversation: a read marker, no content") },
  portfolio_items: { user_id: inFile("portfolio.json") },
  services: { freelancer_id: inFile("services.json") },
  service_orders: { merchant_id: inFile("service_orders.json"), freelancer_id: inFile("service_orders.json") },
  invitations: { merchant_id: inFile("invitations.json"), freelancer_id: inFile("invitations.json") },
  reviews: { author_id: inFile("reviews.json"), subject_id: inFile("reviews.json") },
  email_opt_outs: { user_id: inFile("settings.json") },
  push_opt_outs: { user_id: inFile("settings.json") },
  // The push service's host and the dates: the endpoint and keys are the device's secrets.
  push_subscriptions: { user_id: inFile("settings.json") },
  saved_searches: { user_id: inFile("settings.json") },
  // The number, its dates and the kinds turned on; the code's hash is a secret, and gone once confirmed.
  whatsapp_numbers: { user_id: inFile("settings.json") },
  whatsapp_opt_ins: { user_id: inFile("settings.json") },
  whatsapp_daily: { user_id: leftOut("a counter of the day's WhatsApp messages, for the daily caps: no content") },
  whatsapp_sends: { user_id: leftOut("the WhatsApp id and delivery status of a message sent: no content") },
  outbox: {
    user_id: leftOut("e-mails waiting to go out; what they tell is in notifications.json, links are secrets"),
  },
  audit_log: { actor_id: OPERATOR },
  reports: {
    reporter_id: inFile("reports.json"),
    author_id: leftOut(
      "who reported a user's content is the reporter's data; the outcome reaches the user as a notification",
    ),
    resolved_by: OPERATOR,
  },
  disputes: {
    decided_by: OPERATOR,
    opened_by: SIDE,
    respond_by: leftOut("a date (the answer is due by then), not a user"),
  },
  milestones: { proposed_by: SIDE },
  contract_weeks: { submitted_by: SIDE, approved_by: SIDE },
  pix_charges: {
    merchant_id: inFile("payments.json"),
    claimed_by: inFile("payments.json"),
    confirmed_by: leftOut("the operator or payment provider that confirmed the charge"),
  },
  pix_recurrences: { merchant_id: inFile("payments.json") },
  payout_accounts: { user_id: inFile("payments.json") },
  identities: { user_id: inFile("identity.json"), decided_by: OPERATOR },
  identity_conflicts: {
    user_id: leftOut("a document refused because another account holds it: a signal for the operator, no content"),
    holder_user_id: leftOut("the account holding a document another account tried: a signal for the operator"),
  },
  identity_verifications: { user_id: inFile("identity.json") },
  pending_files: {
    user_id: leftOut("files of a message not sent yet (held by the contact notice), deleted within a day"),
  },
  contact_flags: {
    user_id: leftOut(
      "that a text the user sent had a contact masked (its kind and the text's id): a signal for the operator; the texts are in the copy",
    ),
  },
  payouts: { user_id: inFile("payments.json"), decided_by: OPERATOR },
  refunds: { user_id: inFile("payments.json"), decided_by: OPERATOR },
  ledger_transactions: { merchant_id: inFile("payments.json"), freelancer_id: inFile("payments.json") },
  ledger_entries: { user_id: inFile("payments.json") },
  data_exports: { user_id: leftOut("the copies asked for: the copy itself, shown on the page while it lasts") },
  events: {
    user_id: leftOut(
      "an hour's signals to the user's open pages (a kind and a record's id); what they point at is in the copy",
    ),
  },
};

/** Tables without a column pointing at users whose rows are still someone's: how the copy reaches them. */
export const REACHED_THROUGH: Record<string, Disposition> = {
  offers: inFile("offers.json"), // the user's side's offers in their applications
  contract_events: inFile("contract_events.json"), // the user's side's moves; deliveries.json and change_requests.json
  contract_files: inFile("deliveries.json"), // files of the deliveries the user made, under files/deliveries/
  messages: inFile("messages.json"), // messages the user's side wrote
  message_files: inFile("messages.json"), // files of those messages, under files/messages/
  disputes: inFile("disputes.json"), // disputes over the user's contracts (the other side's statement left out)
  milestones: inFile("payments.json"), // milestones of the user's contracts
  contract_weeks: inFile("timesheets.json"), // the weeks of the user's hourly contracts
  time_entries: inFile("timesheets.json"), // the freelancer's entries, in the freelancer's copy, their files under files/timesheets/
  contract_months: inFile("payments.json"), // the months of the user's monthly contracts, with their milestones
  pix_recurrences: inFile("payments.json"), // the merchant's Pix Automático authorisations (062)
  service_images: inFile("services.json"), // images of the user's services, under files/services/
  photos: inFile("files/"), // the file store on PostgreSQL: the user's own files, by name
  fiscal_issuers: inFile("fiscal.json"), // the freelancer's own issuer (owner = their id), without its sealed certificate
  nfse_documents: inFile("fiscal.json"), // notas they issued (provider_user_id) or received (taker_user_id)
};

/** Tables that hold no one's personal data, with why. */
export const NOT_PERSONAL: Record<string, string> = {
  kysely_migration: "the schema's migrations",
  kysely_migration_lock: "the migrations' lock",
  rate_limits: "counters that expire within the hour (keys may carry a user id; no content)",
  settings: "the operator's settings",
  payment_events: "what the payment provider told the platform (ids, outcomes), for the operator",
  email_suppressions:
    "addresses that bounced for good or complained, by address and not by account: kept after a deletion so that no e-mail goes to them again (the account's own notice is users.email_undeliverable_at)",
  vapid_keys: "the platform's own key pair for signing pushes (VAPID), generated once",
  email_webhook_receipts: "ids of the e-mail provider's notifications already taken, kept a few days against replays",
  identity_events:
    "what the identity provider told the platform (event and verification ids, outcomes), for the operator; the decision is in identity.json",
  opportunities_fts: "SQLite's full-text index of opportunities (the opportunities are in opportunities.json)",
  opportunities_fts_config: "SQLite's full-text index internals",
  opportunities_fts_data: "SQLite's full-text index internals",
  opportunities_fts_docsize: "SQLite's full-text index internals",
  opportunities_fts_idx: "SQLite's full-text index internals",
  opportunities_fts_content: "SQLite's full-text index internals",
  services_fts: "SQLite's full-text index of services (the services are in services.json)",
  services_fts_config: "SQLite's full-text index internals",
  services_fts_data: "SQLite's full-text index internals",
  services_fts_docsize: "SQLite's full-text index internals",
  services_fts_idx: "SQLite's full-text index internals",
};

/** The pattern of a column that names a user by its name: …_id of a person, or …_by. */
const PERSON_COLUMN = /^(user|merchant|freelancer|author|sender|recipient|reporter|subject|actor|owner)_id$|_by$/;

export type SchemaColumn = { table: string; column: string };

/** Every table of the database the app runs on (both engines), by name. */
export async function schemaTables(): Promise<string[]> {
  if (engine === "postgres") {
    const r = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`.execute(db);
    return r.rows.map((row) => row.name);
  }
  const r = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1`.execute(db);
  return r.rows.map((row) => row.name);
}

/**
 * Every column of the schema that points at a user: a foreign key to users, or a name that says
 * a person (user_id, merchant_id, author_id, decided_by, …); plus users.id itself.
 */
export async function userColumnsInSchema(): Promise<SchemaColumn[]> {
  let columns: { table: string; column: string }[];
  let keys: { table: string; column: string }[];
  if (engine === "postgres") {
    columns = (
      await sql<SchemaColumn>`
        SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
        WHERE table_schema = current_schema()`.execute(db)
    ).rows;
    keys = (
      await sql<SchemaColumn>`
        SELECT kcu.table_name AS "table", kcu.column_name AS "column"
        FROM information_schema.table_constraints tc
        JOIN information_schema.key_column_usage kcu
          ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
        JOIN information_schema.constraint_column_usage ccu
          ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
        WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND ccu.table_name = 'users'`.execute(
        db,
      )
    ).rows;
  } else {
    columns = (
      await sql<SchemaColumn>`
        SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m, pragma_table_info(m.name) p
        WHERE m.type = 'table'`.execute(db)
    ).rows;
    keys = (
      await sql<SchemaColumn>`
        SELECT m.name AS "table", f."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) f
        WHERE m.type = 'table' AND f."table" = 'users'`.execute(db)
    ).rows;
  }
  const found = new Map<string, SchemaColumn>();
  const add = (c: SchemaColumn) => found.set(`${c.table}.${c.column}`, { table: c.table, column: c.column });
  keys.forEach(add);
  columns.filter((c) => PERSON_COLUMN.test(c.column)).forEach(add);
  add({ table: "users", column: "id" });
  return [...found.values()].sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}
