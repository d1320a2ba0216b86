import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// Timestamps are ISO 8601 UTC strings; money is integer centavos; tag lists are JSON arrays.

/** Merchants and freelancers sign up; operators are made by `npm run operator:create`. */
export type AccountType = "merchant" | "freelancer" | "operator";

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  display_name: string | null;
  full_name: string;
  account_type: AccountType;
  bio: string;
  skills: string;
  photo_path: string | null;
  city: string | null;
  /** 1 when the person takes remote work, else 0. */
  remote: number;
  /** Derived from the profile for the directory (app/lib/directory.ts); never shown. */
  search_text: string;
  search_skills: string;
  search_city: string | null;
  sort_name: string;
  /** Published reviews of this user: how many and the sum of their stars (015_reviews). */
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  /** Bytes of the user's message and delivery files, held against STORAGE_QUOTA_MB (018). */
  storage_bytes: Generated<number | string>;
  /** The language of the user's e-mails (a supported language); null: Portuguese. */
  locale: string | null;
  /** Moderation (020): a suspension ends by itself at suspended_until; a ban lasts until lifted. */
  suspended_until: string | null;
  banned_at: string | null;
  sanction_reason: string | null;
  /** The public profile hidden by an operator (why), its photo set aside meanwhile. */
  profile_hidden_at: string | null;
  profile_hidden_reason: string | null;
  hidden_photo_path: string | null;
  /** When the owner opened the link sent to `email` (028_verified_email); null: not yet. */
  email_verified_at: string | null;
  /** Since when the address bounced for good or complained (email_suppressions): the notice to change it. */
  email_undeliverable_at: string | null;
  /** The version of the terms and privacy policy accepted last (038_terms); null: none yet. */
  terms_version: string | null;
  /** 1: the freelancer's profile is on the public page and the sitemap; 0: hidden by its owner (033). */
  public_profile: Generated<number>;
  /** When the owner deleted the account (026_account_deletion): the row stays, anonymised; null: active. */
  deleted_at: string | null;
  /** A merchant's company as declared on their profile (043): its name (public) and CNPJ (14 digits, on receipts only). */
  company_name: ColumnType<string | null, string | null | undefined, string | null>;
  company_cnpj: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/** One acceptance of the terms and privacy policy, kept as a record (038_terms). */
export interface TermsAcceptancesTable {
  id: string;
  user_id: string;
  version: string;
  ip: string | null;
  accepted_at: string;
}

/** A single-use link sent by e-mail: the account's address (`verify`) or a new one (`change`). */
export interface EmailTokensTable {
  id: string; // SHA-256 of the token, hex
  user_id: string;
  purpose: "verify" | "change";
  /** The address the link confirms. */
  email: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SessionsTable {
  id: string; // SHA-256 of the token, hex
  user_id: string;
  expires_at: string;
  created_at: string;
  /** The id the sessions list and DELETE /api/sessions/:id use (the row's key is never shown). */
  public_id: string | null;
  /** The User-Agent it signed in with (cut to 300 characters), and the address when known. */
  user_agent: string | null;
  ip: string | null;
  /** Refreshed at most every few minutes (LAST_USED_STEP_MS), so it is approximate. */
  last_used_at: string | null;
  /** SHA-256 of the token of the sign-in notice's "end this session" link, until it is used. */
  end_token: string | null;
  /** The passkey the session was opened with; null for a password sign-in. */
  passkey_id: string | null;
  /** Where it signed in from, as the trusted proxy's PLACE_HEADER said (043); null: unknown. */
  place: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An account's authenticator app: on once confirmed_at is set; last_step refuses a code twice. */
export interface TwoFactorTable {
  user_id: string;
  /** Base32, as the authenticator app was given it. */
  secret: string;
  confirmed_at: string | null;
  /** The TOTP time step of the last code accepted (0: none yet). */
  last_step: number;
  created_at: string;
}

/** The single-use recovery codes of an account's two-factor sign-in (SHA-256 only). */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** The step between a right password and the second factor (SHA-256 of its token). */
export interface LoginChallengesTable {
  id: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

/** A passkey (WebAuthn credential) of an account; `id` is the credential id, base64url. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter last seen (0 for those that keep none). */
  counter: number | string;
  /** JSON array of the transports the browser reported. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge handed out (its SHA-256), single use, for 5 minutes. */
export interface WebauthnChallengesTable {
  id: string;
  purpose: "register" | "sign_in";
  /** The account it was made for (register); null for a sign-in (the passkey names the account). */
  user_id: string | null;
  expires_at: string;
  created_at: string;
}

/** The user agents (their SHA-256) an account has signed in from: a new one gets a notice. */
export interface AccountDevicesTable {
  user_id: string;
  agent_hash: string;
  first_seen_at: string;
}

export interface PasswordResetsTable {
  id: string; // SHA-256 of the token, hex
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type OpportunityStatus = "open" | "closed" | "filled";

export interface OpportunitiesTable {
  id: Generated<number>;
  uuid: string;
  merchant_id: string;
  title: string;
  /** slugify(title): the readable part of its public address, written with the title. */
  slug: string;
  description: string;
  category: string;
  skills: string;
  budget_type: "fixed" | "hourly";
  budget_min_cents: number;
  budget_max_cents: number;
  currency: string;
  deadline: string | null;
  location_type: "remote" | "onsite" | "hybrid";
  city: string | null;
  vacancies: number;
  status: OpportunityStatus;
  applications_count: number;
  accepted_count: number;
  /** When its first application came (null before any): the operator's median time to it. */
  first_applied_at: string | null;
  /** Hidden by an operator (why); seen by its owner only. */
  hidden_at: string | null;
  hidden_reason: string | null;
  /** Waiting for an operator (pre-moderation): seen by its owner only until approved. */
  held_at: string | null;
  /** Why it closed when not by its owner: 'suspended' (the owner was suspended or banned). */
  closed_reason: "suspended" | null;
  /** The service an order bought (057): such an opportunity is the order's, never listed anywhere. */
  service_id: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export type ApplicationStatus = "pending" | "countered" | "accepted" | "rejected" | "withdrawn";

export interface ApplicationsTable {
  id: string;
  opportunity_id: number;
  freelancer_id: string;
  cover_letter: string;
  /** What the merchant reads when the letter had a contact masked (046). */
  masked_cover_letter: Generated<string | null>;
  price_cents: number;
  delivery_days: number;
  /** An hourly proposal's weekly cap (its price_cents is the rate per hour); null: fixed (055). */
  weekly_cap_hours: Generated<number | null>;
  /** A monthly proposal's "what a month includes" (its price_cents is the monthly amount); null: not monthly (060). */
  month_includes: Generated<string | null>;
  status: ApplicationStatus;
  awaiting: "merchant" | "freelancer" | null;
  rejection_reason: "declined" | "filled" | "closed" | null;
  rejection_message: string | null;
  offers_count: number;
  created_at: string;
  updated_at: string;
}

export interface OffersTable {
  id: string;
  application_id: string;
  /** 1, 2, … per application: the highest is the latest offer. */
  seq: number;
  author: "freelancer" | "merchant";
  price_cents: number;
  delivery_days: number;
  /** An hourly offer's weekly cap; null: a fixed price (055). */
  weekly_cap_hours: Generated<number | null>;
  /** A monthly offer's "what a month includes"; null: not monthly (060). */
  month_includes: Generated<string | null>;
  message: string | null;
  /** What the other side reads when the message had a contact masked (046). */
  masked_message: Generated<string | null>;
  created_at: string;
}

export type NotificationKind =
  | "moderation_hidden"
  | "moderation_restored"
  | "moderation_warning"
  | "account_suspended"
  | "account_banned"
  | "account_restored"
  | "opportunity_published"
  | "application_received"
  | "offer_received"
  | "application_accepted"
  | "application_rejected"
  | "application_withdrawn"
  | "contract_delivered"
  | "contract_changes_requested"
  | "contract_completed"
  | "contract_auto_completed"
  | "contract_cancelled"
  | "contract_cancel_requested"
  | "contract_cancel_declined"
  | "contract_review_reminder"
  | "contract_overdue"
  | "contract_reviewed"
  | "invitation_received"
  | "contract_dispute_opened"
  | "contract_dispute_statement"
  | "contract_dispute_reminder"
  | "contract_dispute_decided"
  | "milestone_proposed"
  | "milestone_funded"
  | "milestone_released"
  | "payout_paid"
  | "payout_failed"
  | "service_ordered"
  | "service_answered"
  | "contract_week_submitted"
  | "contract_week_approved"
  | "contract_week_questioned"
  | "contract_week_answered"
  | "contract_week_lapsed"
  | "contract_cap_changed"
  | "contract_paused"
  | "contract_resumed"
  | "contract_amount_proposed"
  | "contract_amount_accepted"
  | "contract_amount_declined"
  | "month_charge_refused"
  | "month_not_funded";

export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: NotificationKind;
  application_id: string | null;
  opportunity_id: number | null;
  /** Notices of moderation: JSON of what, why and until when (ModerationDetail). */
  detail: string | null;
  created_at: string;
  read_at: string | null;
}

/** PostgreSQL only: stored files, profile photos and contract files (on SQLite they are files in UPLOADS_DIR). */
export interface PhotosTable {
  name: string;
  content_type: string;
  bytes: Buffer;
  created_at: string;
}

export type ContractStatus = "in_progress" | "delivered" | "completed" | "cancelled";
export type ContractParty = "merchant" | "freelancer";

/** One per accepted application, under the application's id. */
export interface ContractsTable {
  id: string;
  opportunity_id: number;
  merchant_id: string;
  freelancer_id: string;
  price_cents: number;
  delivery_days: number;
  status: ContractStatus;
  /** The hire plus delivery_days. */
  due_at: string;
  /** When the schedule found the work still in progress past due_at. */
  overdue_at: string | null;
  /** The latest delivery, while it waits for review; review_due_at is 14 days later. */
  delivered_at: string | null;
  review_due_at: string | null;
  /** When the merchant was reminded of the delivery waiting for review (once per delivery). */
  reminded_at: string | null;
  deliveries_count: number;
  /** The timeline's length: the next event is numbered events_count + 1. */
  events_count: number;
  /** A cancellation asked for after a delivery, waiting for the other side's answer. */
  cancel_requested_by: ContractParty | null;
  cancel_request_reason: string | null;
  ended_at: string | null;
  ended_by: ContractParty | "system" | null;
  /** Why it was cancelled. */
  end_reason: string | null;
  /** Reviews written about this contract (0–2); see ReviewsTable. */
  reviews_count: Generated<number>;
  /** Flagged for the operator (a side was suspended or banned while it ran), and why. */
  flagged_at: string | null;
  flag_reason: string | null;
  /** A dispute is open (022): no move and no automatic completion until an operator decides. */
  disputed_at: string | null;
  /** How the contract is paid, frozen at the hire (PAYMENTS then): 'off' is agreed between the two sides. */
  payments: Generated<PaymentsMode>;
  /** The platform's fee in basis points, frozen at the hire. */
  fee_bps: Generated<number>;
  /** Milestones that are part of the contract (proposed ones excluded). */
  milestones_count: Generated<number>;
  /** The merchant's CPF/CNPJ and name for the freelancer's own notas (049_fiscal), given at funding. */
  taker_document: string | null;
  taker_name: string | null;
  /** 'fixed' (milestones) or 'hourly' (weekly timesheets), from the accepted proposal (055). */
  kind: Generated<ContractKind>;
  /** Hourly: the rate per hour and the weekly cap, frozen at the hire (null for fixed). */
  rate_cents: number | null;
  weekly_cap_minutes: number | null;
  /**
   * Hourly: the first week (a Monday, 'YYYY-MM-DD') not to open; monthly: the first month
   * ('YYYY-MM') not to open; null while it goes on.
   */
  paused_from: string | null;
  /**
   * Hourly, while paused: the first week (a Monday) that does not open until it is resumed (061);
   * null while it runs.
   */
  hourly_paused_from: Generated<string | null>;
  /** Monthly: the day of the month (1–28) each month starts on, and what a month includes (060). */
  monthly_day: Generated<number | null>;
  month_includes: Generated<string | null>;
  /** Monthly: a change of the month's amount proposed by amount_change_by, waiting for the other side (063). */
  amount_change_cents: Generated<number | null>;
  amount_change_by: Generated<ContractParty | null>;
  /** Hourly: the merchant keeps a week's unused money for the next week (1) or has it refunded (0) (067). */
  hourly_keep_unused: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type ContractKind = "fixed" | "hourly" | "monthly";

/** A month of a monthly contract: its money and its state are its milestone's (060). */
export interface ContractMonthsTable {
  id: string;
  contract_id: string;
  /** 'YYYY-MM': the month it starts in. */
  month: string;
  /** Its first day ('YYYY-MM-DD', São Paulo): the contract's monthly_day of that month. */
  starts_on: string;
  milestone_id: string;
  created_at: string;
}

export type ContractWeekStatus = "awaiting_funding" | "open" | "submitted" | "questioned" | "approved" | "lapsed";

/** A week of an hourly contract (Monday to Sunday, São Paulo): its money is its milestone (055). */
export interface ContractWeeksTable {
  id: string;
  contract_id: string;
  /** The Monday, 'YYYY-MM-DD' in São Paulo. */
  week_start: string;
  /** The rate and the cap for this week, frozen when it was opened. */
  rate_cents: number;
  cap_minutes: number;
  milestone_id: string;
  status: ContractWeekStatus;
  /** The minutes of its entries, kept with every entry written (the cap is checked against it). */
  minutes_total: number;
  submitted_at: string | null;
  submitted_by: ContractParty | "system" | null;
  /** When a submitted week left unanswered is approved by the schedule. */
  review_due_at: string | null;
  approved_at: string | null;
  approved_by: ContractParty | "system" | null;
  /** The Monday of the earlier week whose unused money this week holds (067), null for none. */
  carried_from: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** A time entry of a week: a day of that week, minutes, what was done. */
export interface TimeEntriesTable {
  id: string;
  week_id: string;
  contract_id: string;
  day: string;
  minutes: number;
  description: string;
  /** The merchant's question on a submitted week's entry, and the freelancer's answer (059). */
  question: string | null;
  answer: string | null;
  /** When the question was settled (answered, or the entry amended); open while null. */
  answered_at: string | null;
  /** The entry's optional file (066): its name in the file store, as given, its type and size. */
  file_stored_name: string | null;
  file_original_name: string | null;
  file_content_type: string | null;
  file_size_bytes: number | null;
  created_at: string;
  updated_at: string;
}

export interface PortfolioItemsTable {
  id: string;
  user_id: string;
  title: string;
  description: string;
  link: string | null;
  image_path: string | null;
  created_at: string;
  updated_at: string;
}

export interface InvitationsTable {
  id: string;
  opportunity_id: number;
  freelancer_id: string;
  merchant_id: string;
  message: string;
  /** What the freelancer reads when the message had a contact masked (046). */
  masked_message: Generated<string | null>;
  status: "pending" | "declined";
  created_at: string;
  updated_at: string;
}

export type ContractEventKind =
  | "created"
  | "delivered"
  | "changes_requested"
  | "completed"
  | "auto_completed"
  | "cancelled"
  | "cancel_requested"
  | "cancel_accepted"
  | "cancel_declined"
  | "overdue"
  | "dispute_opened"
  | "dispute_statement"
  | "dispute_decided"
  | "milestone_funded"
  | "milestone_released"
  | "milestones_split"
  | "milestone_proposed"
  | "milestone_added"
  | "milestone_declined"
  | "week_submitted"
  | "week_approved"
  | "week_questioned"
  | "week_answered"
  | "week_lapsed"
  | "cap_changed"
  | "paused"
  | "resumed";

export interface ContractEventsTable {
  id: string;
  contract_id: string;
  seq: number;
  kind: ContractEventKind;
  author: ContractParty | "system";
  message: string | null;
  /** The amount the line names, as it was then (the hire's price, a milestone's, a refund); optional when written. */
  amount_cents: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

export interface ContractFilesTable {
  id: string;
  contract_id: string;
  event_id: string;
  /** Its name in the file store (uploads.server.ts). */
  stored_name: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
}

/** An application's conversation: how many messages it has (the next is numbered one more). */
export interface ConversationsTable {
  application_id: string;
  /** The two sides (migration 017): always set, though the columns are nullable. */
  freelancer_id: string;
  merchant_id: string;
  messages_count: number;
  last_message_at: string;
}

export interface MessagesTable {
  id: string;
  application_id: string;
  seq: number;
  author: ContractParty;
  body: string;
  /** What the other side reads when the body had a contact masked (046). */
  masked_body: Generated<string | null>;
  /** Hidden by an operator (why): both sides see that it was, its author why. */
  hidden_at: string | null;
  hidden_reason: string | null;
  created_at: string;
}

export interface MessageFilesTable {
  id: string;
  application_id: string;
  message_id: string;
  stored_name: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
}

/** A file of a message held back by the contact notice, until sent or pruned (048_pending_files). */
export interface PendingFilesTable {
  id: string;
  user_id: string;
  application_id: string;
  stored_name: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
}

/** The last message of a conversation a user has seen. */
export interface ConversationReadsTable {
  application_id: string;
  user_id: string;
  last_read_seq: number;
}

/** A review of one side by the other after a contract; hidden until published_at. */
export interface ReviewsTable {
  id: string;
  contract_id: string;
  author_id: string;
  subject_id: string;
  author_role: ContractParty;
  rating: number;
  comment: string;
  reply: string | null;
  replied_at: string | null;
  /** The contract's end plus 14 days: published then if the other side has not written. */
  publish_due_at: string;
  published_at: string | null;
  /** Hidden by an operator: the review (out of lists and of the subject's rating), or its reply. */
  hidden_at: string | null;
  hidden_reason: string | null;
  reply_hidden_at: string | null;
  reply_hidden_reason: string | null;
  created_at: string;
}

/** E-mails about the account itself: always sent, never turned off, no unsubscribe link. */
export type AccountEmailKind =
  | "email_verification"
  | "email_change_verification"
  | "email_changed"
  | "sign_in_notice"
  | "password_reset"
  | "password_changed"
  | "passkey_added"
  | "payout_key_changed"
  | "identity_decided"
  | "data_export_ready"
  | "account_deleted";

/** What e-mails tell about: every notification kind, and new messages of a conversation. */
export type EmailKind = NotificationKind | "message_received";

/** A kind of e-mail the user turned off (every kind is on by default). */
export interface EmailOptOutsTable {
  user_id: string;
  kind: EmailKind;
  created_at: string;
}

export type OutboxStatus = "pending" | "sending" | "sent" | "skipped" | "failed";
export type OutboxChannel = "email" | "push" | "whatsapp";

/** A device (a browser's push subscription) that gets the user's push notifications. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  /** The push service's address for this device (unique). */
  endpoint: string;
  /** The device's P-256 public key and auth secret (base64url), to encrypt each push. */
  p256dh: string;
  auth: string;
  /** The browser that subscribed, at most 200 characters. */
  user_agent: string | null;
  created_at: string;
  last_sent_at: string | null;
}

/** A kind the user turned off for push (every kind is on by default). */
export interface PushOptOutsTable {
  user_id: string;
  kind: EmailKind;
  created_at: string;
}

/**
 * A user's WhatsApp number (E.164), confirmed by a 6-digit code (kept hashed, for 10 minutes and
 * 5 tries; at most 3 codes in an hour: codes_sent since codes_window_at).
 */
export interface WhatsappNumbersTable {
  user_id: string;
  phone: string;
  code_hash: string | null;
  code_expires_at: string | null;
  attempts: Generated<number>;
  codes_sent: Generated<number>;
  codes_window_at: string | null;
  confirmed_at: string | null;
  /** The person wrote STOP (or PARAR, SAIR, CANCELAR) to us: nothing more goes to the number. */
  opted_out_at: string | null;
  /** The Cloud API said the number is not on WhatsApp. */
  unusable_at: string | null;
  created_at: string;
}

/** A kind the user turned ON for WhatsApp (every kind is off by default). */
export interface WhatsappOptInsTable {
  user_id: string;
  kind: EmailKind;
  created_at: string;
}

/** WhatsApp messages sent on a São Paulo day, per user; user_id '' is the platform's total. */
export interface WhatsappDailyTable {
  day: string;
  user_id: string;
  sent: number;
}

/** A WhatsApp message sent (its id is the Cloud API's, wamid…), and its last reported status. */
export interface WhatsappSendsTable {
  id: string;
  outbox_id: string;
  user_id: string;
  status: "accepted" | "sent" | "delivered" | "read" | "failed";
  created_at: string;
  updated_at: string;
}

/** The VAPID key pair generated on first use when the settings give none: one row, id 1. */
export interface VapidKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** An e-mail to send: written with the event, drained by the server processes. */
export interface OutboxTable {
  id: string;
  user_id: string;
  kind: EmailKind | AccountEmailKind | "saved_search_digest";
  application_id: string | null;
  opportunity_id: number | null;
  /** Events folded into this e-mail (new messages of one conversation). */
  items: number;
  /** The notification's detail (notices of moderation). */
  detail: string | null;
  status: OutboxStatus;
  /** Tries so far (counted when claimed). */
  attempts: number;
  /** Due from then: the first try, or the next after a failure (exponential backoff). */
  next_attempt_at: string;
  /** The drain that claimed it (status 'sending'), until locked_until. */
  claim: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** Account e-mails: what they need (JSON: the link, the address); cleared once sent. */
  payload: string | null;
  /** How it goes out: an e-mail, or a push to each of the user's devices (a row of its own per channel). */
  channel: Generated<OutboxChannel>;
}

/** What an operator did (append-only: the database refuses UPDATE and DELETE of its rows). */
export interface AuditLogTable {
  id: string;
  created_at: string;
  /** The operator; null for the command line (operator:create, operator:remove). */
  actor_id: string | null;
  /** "Name <e-mail>" of the operator when acting (the log outlives the account). */
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  /** JSON: the fields the action changed, as they were and as they became. */
  before: string | null;
  after: string | null;
}

export type ReportTarget = "opportunity" | "profile" | "message" | "review" | "reply" | "service";
export type ReportStatus = "open" | "dismissed" | "actioned";

/** A report by a signed-in user; reports of one target are resolved together. */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  target_type: ReportTarget;
  /** Opportunity: its uuid; profile: the user's id; message, service: its id; review and reply: the review's id. */
  target_id: string;
  /** Whose content it is. */
  author_id: string;
  reason: string;
  details: string | null;
  status: ReportStatus;
  resolution: string | null;
  resolution_reason: string | null;
  /** The operator (no foreign key: the audit log names them for good). */
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
}

/** A dispute over a contract (one per contract), decided by an operator. */
export interface DisputesTable {
  id: string;
  contract_id: string;
  opened_by: ContractParty;
  reason: string;
  status: "open" | "decided";
  /** The other side answers by then (5 days); reminded once before (reminded_at). */
  respond_by: string;
  answered_at: string | null;
  reminded_at: string | null;
  /** What the operator decided (complete, cancel; payments add split), why, who, when. */
  decision: string | null;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: string | null;
  /** The milestone the dispute is about: the one being worked on when it was opened (null before migration 039). */
  milestone_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/** Operator settings: one row per key, the value as text. */
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export type PaymentsMode = "off" | "escrow";

export type MilestoneStatus =
  "proposed" | "awaiting_funding" | "funded" | "delivered" | "released" | "refunded" | "cancelled";

/** A part of a contract's price, worked on and paid in order (seq 1, 2, …). */
export interface MilestonesTable {
  id: string;
  contract_id: string;
  seq: number;
  title: string;
  amount_cents: number;
  days: number;
  status: MilestoneStatus;
  /** An extra milestone one side proposed, waiting for the other side. */
  proposed_by: ContractParty | null;
  deliveries_count: number;
  /** What the settlement gave the freelancer (before the fee), the fee, and what went back. */
  released_cents: number;
  fee_cents: number;
  refunded_cents: number;
  /**
   * Hourly weeks (067): what the milestone holds, kept from an earlier week, while it waits for
   * the rest of its money; and what it passed on to a later week when it was settled.
   */
  carried_in_cents: Generated<number>;
  carried_out_cents: Generated<number>;
  funded_at: string | null;
  settled_at: string | null;
  created_at: string;
  updated_at: string;
}

export type PaymentsProvider = "manual" | "mercadopago";
/** Who issued a charge: the configured provider, or Pix Automático's (062) for a month's recurring charge. */
export type ChargeProvider = PaymentsProvider | "pix_automatico";

export interface PixChargesTable {
  id: string;
  milestone_id: string;
  contract_id: string;
  merchant_id: string;
  provider: ChargeProvider;
  txid: string;
  provider_payment_id: string | null;
  amount_cents: number;
  /** The "copia e cola" text; its QR code is drawn from it. */
  br_code: string;
  status: "pending" | "paid" | "expired" | "superseded";
  e2e_id: string | null;
  expires_at: string;
  paid_at: string | null;
  /** Who confirmed it: an operator's id, or the provider's name. */
  confirmed_by: string | null;
  created_at: string;
  /** "Já paguei": when the payer (manual provider) said it was paid, and who; the operator confirms. */
  claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** A month's charge made against the merchant's Pix Automático recurrence (062); null otherwise. */
  recurrence_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type PixRecurrenceStatus = "pending" | "active" | "cancelled" | "rejected" | "expired";

/** A merchant's Pix Automático authorisation of a monthly contract's debits (062). */
export interface PixRecurrencesTable {
  id: string;
  contract_id: string;
  merchant_id: string;
  provider: "pix_automatico";
  /** The provider's id of the recurrence (idRec). */
  provider_recurrence_id: string;
  status: PixRecurrenceStatus;
  amount_cents: number;
  /** The day of the month it debits (the contract's monthly_day). */
  day: number;
  /** What the payer's bank reads to authorise it ("copia e cola"). */
  br_code: string;
  created_at: string;
  updated_at: string;
}

export type PixKeyType = "cpf" | "cnpj" | "email" | "phone" | "evp";

export interface PayoutAccountsTable {
  user_id: string;
  key_type: PixKeyType;
  pix_key: string;
  holder_name: string;
  holder_document: string;
  updated_at: string;
  /** A changed key holds payouts until then (044_identities); null: no hold. */
  held_until: string | null;
}

export type IdentityStatus = "none" | "pending" | "verified" | "rejected";

/** Who an account is (044_identities): its fiscal record and the verification of it. */
export interface IdentitiesTable {
  user_id: string;
  kind: "person" | "company";
  /** CPF (person) or CNPJ (company), digits only; null once the account is deleted. */
  document: string | null;
  /** Full legal name, or razão social. */
  legal_name: string;
  birth_date: string | null;
  /** The CPF of the person responsible for a company. */
  responsible_cpf: string | null;
  status: IdentityStatus;
  version: number;
  doc_type: "rg" | "cnh" | null;
  front_file: string | null;
  back_file: string | null;
  selfie_file: string | null;
  /** Bytes of the three files, held against the storage quota until they are deleted. */
  files_bytes: number;
  submitted_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  /** Why it was rejected (the person reads it). */
  reason: string | null;
  files_deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A document refused because another active account holds it (044_identities). */
export interface IdentityConflictsTable {
  id: string;
  user_id: string;
  holder_user_id: string;
  created_at: string;
}

/** A verification created at the automatic identity provider for one version of an identity (045). */
export interface IdentityVerificationsTable {
  ref: string;
  provider: IdentityProviderName;
  user_id: string;
  version: number;
  created_at: string;
}

/** A webhook of the identity provider, and what came of it (045). */
export interface IdentityEventsTable {
  id: string;
  provider: IdentityProviderName;
  event_id: string | null;
  ref: string | null;
  outcome: string;
  detail: string | null;
  created_at: string;
}

export type IdentityProviderName = "manual" | "kyc";

export interface PayoutsTable {
  id: string;
  user_id: string;
  amount_cents: number;
  key_type: PixKeyType;
  pix_key: string;
  holder_name: string;
  holder_document: string;
  status: "requested" | "paid" | "failed";
  e2e_id: string | null;
  failure_reason: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
}

export interface RefundsTable {
  id: string;
  user_id: string;
  contract_id: string;
  milestone_id: string;
  charge_id: string | null;
  amount_cents: number;
  status: "due" | "paid";
  e2e_id: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
}

export type LedgerKind =
  | "charge_received"
  | "release"
  | "refund"
  | "split"
  | "late_payment"
  | "payout_requested"
  | "payout_paid"
  | "payout_failed"
  | "refund_paid"
  | "carry";

export interface LedgerTransactionsTable {
  id: string;
  kind: LedgerKind;
  contract_id: string | null;
  milestone_id: string | null;
  charge_id: string | null;
  payout_id: string | null;
  refund_id: string | null;
  merchant_id: string | null;
  freelancer_id: string | null;
  memo: string | null;
  created_at: string;
}

export interface LedgerEntriesTable {
  id: string;
  transaction_id: string;
  /** escrow:<milestone>, available:<user>, payout:<payout>, refund:<refund>, fees, external:<user>. */
  account: string;
  user_id: string | null;
  /** Signed: what enters the account is positive. A transaction's entries sum to zero. */
  amount_cents: number;
  created_at: string;
}

export interface PaymentEventsTable {
  id: string;
  provider: string;
  event_id: string | null;
  outcome: string;
  detail: string | null;
  created_at: string;
}

export type DataExportStatus = "pending" | "building" | "ready" | "expired" | "failed";

/** How often a saved search's new matches are e-mailed ('off': never). */
export type SavedSearchFrequency = "immediate" | "daily" | "weekly" | "off";

/** A freelancer's saved filter set of the opportunity list (034_saved_searches). */
export interface SavedSearchesTable {
  id: string;
  user_id: string;
  name: string;
  /** The list's query, normalised (JSON): q, category, budget_type, location_type, budget_*_cents. */
  filters: string;
  frequency: SavedSearchFrequency;
  /** The newest opportunity id already considered: digests list only newer ones. */
  watermark: number;
  next_run_at: string;
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A copy of a user's data asked for (025_data_exports): built by a job, a ZIP in the file store for 7 days. */
export interface DataExportsTable {
  id: string;
  user_id: string;
  status: DataExportStatus;
  /** The export job that claimed it (status 'building'), until locked_until. */
  claim: string | null;
  locked_until: string | null;
  /** Builds tried so far (counted when claimed). */
  attempts: number;
  last_error: string | null;
  /** The ZIP's name in the file store, while it is ready. */
  file_name: string | null;
  size_bytes: number | null;
  created_at: string;
  ready_at: string | null;
  /** The download works until then (ready_at plus 7 days). */
  expires_at: string | null;
}

/** A text sent with a contact masked, before funding (046): three in 24 hours open a report. */
export interface ContactFlagsTable {
  id: string;
  user_id: string;
  source: "message" | "application" | "offer" | "invitation";
  source_id: string;
  /** The kinds found, comma-separated (phone, email, link, app, pix, off_platform). */
  kinds: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  terms_acceptances: TermsAcceptancesTable;
  sessions: SessionsTable;
  account_devices: AccountDevicesTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  password_resets: PasswordResetsTable;
  opportunities: OpportunitiesTable;
  applications: ApplicationsTable;
  offers: OffersTable;
  notifications: NotificationsTable;
  photos: PhotosTable;
  contracts: ContractsTable;
  contract_events: ContractEventsTable;
  contract_files: ContractFilesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  contact_flags: ContactFlagsTable;
  message_files: MessageFilesTable;
  pending_files: PendingFilesTable;
  conversation_reads: ConversationReadsTable;
  portfolio_items: PortfolioItemsTable;
  invitations: InvitationsTable;
  reviews: ReviewsTable;
  email_opt_outs: EmailOptOutsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_opt_outs: PushOptOutsTable;
  whatsapp_numbers: WhatsappNumbersTable;
  whatsapp_opt_ins: WhatsappOptInsTable;
  whatsapp_daily: WhatsappDailyTable;
  whatsapp_sends: WhatsappSendsTable;
  services: ServicesTable;
  service_images: ServiceImagesTable;
  service_orders: ServiceOrdersTable;
  vapid_keys: VapidKeysTable;
  outbox: OutboxTable;
  audit_log: AuditLogTable;
  reports: ReportsTable;
  settings: SettingsTable;
  disputes: DisputesTable;
  milestones: MilestonesTable;
  contract_weeks: ContractWeeksTable;
  time_entries: TimeEntriesTable;
  contract_months: ContractMonthsTable;
  pix_charges: PixChargesTable;
  pix_recurrences: PixRecurrencesTable;
  payout_accounts: PayoutAccountsTable;
  identities: IdentitiesTable;
  identity_conflicts: IdentityConflictsTable;
  identity_verifications: IdentityVerificationsTable;
  identity_events: IdentityEventsTable;
  payouts: PayoutsTable;
  refunds: RefundsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  payment_events: PaymentEventsTable;
  email_tokens: EmailTokensTable;
  data_exports: DataExportsTable;
  saved_searches: SavedSearchesTable;
  events: EventsTable;
  fiscal_issuers: FiscalIssuersTable;
  nfse_documents: NfseDocumentsTable;
  email_suppressions: EmailSuppressionsTable;
  email_webhook_receipts: EmailWebhookReceiptsTable;
}

/** Who issues NFS-e through Freela (049_fiscal): 'platform' for its fees, or a freelancer's user id. */
export interface FiscalIssuersTable {
  id: string;
  owner: string;
  cnpj: string;
  legal_name: string;
  municipal_registration: string | null;
  /** IBGE code of the município, 7 digits. */
  municipality: string;
  simples_nacional: "nao_optante" | "mei" | "me_epp";
  /** regApTribSN (1–3), for ME/EPP only. */
  simples_regime: number | null;
  /** cTribNac, 6 digits. */
  national_code: string;
  /** cNBS, 9 digits. */
  nbs_code: string;
  municipal_code: string | null;
  description: string;
  /** ISS rate in basis points (200 = 2 %), when informed. */
  iss_rate_bps: number | null;
  environment: "producao_restrita" | "producao";
  /** The A1 PFX in base64, sealed for the owner (sealed-secrets.server.ts). */
  certificate_sealed: string;
  password_sealed: string;
  certificate_expires_at: string;
  /** The DPS series and the next number to give in it. */
  series: Generated<number>;
  next_number: Generated<number>;
  /** 1: issue (a freelancer's "emitir minhas notas"); 0: off. */
  enabled: Generated<number>;
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type NfseKind = "fee" | "service";
export type NfseStatus = "pending" | "issuing" | "issued" | "rejected" | "failed" | "cancelled";

/** One NFS-e per milestone settlement and kind (049_fiscal); issued in the background. */
export interface NfseDocumentsTable {
  id: string;
  /** 'fee': the platform's, for its fee, to the freelancer; 'service': the freelancer's, to the merchant. */
  kind: NfseKind;
  issuer_id: string;
  milestone_id: string;
  contract_id: string;
  /** The freelancer, for a 'service' nota; null for the platform's. */
  provider_user_id: string | null;
  taker_user_id: string;
  /** The tomador's CPF/CNPJ and name, as sent (fixed at the first attempt). */
  taker_document: string | null;
  taker_name: string | null;
  amount_cents: number;
  /** dCompet, YYYY-MM-DD: the settlement's date in Brasília. */
  competence: string;
  status: Generated<NfseStatus>;
  series: number | null;
  number: number | null;
  dps_id: string | null;
  access_key: string | null;
  nfse_number: string | null;
  /** The NFS-e's XML as the Sefin returned it. */
  xml: string | null;
  error_code: string | null;
  error_message: string | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  claim: string | null;
  locked_until: string | null;
  issued_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export type FiscalIssuerRow = Selectable<FiscalIssuersTable>;
export type NfseDocumentRow = Selectable<NfseDocumentsTable>;

/**
 * Live updates (app/services/platform/events.server.ts): what a user's open pages should hear of,
 * numbered in commit order; deleted after an hour.
 */
export type EventKind = "message" | "notification" | "contract";
export interface EventsTable {
  id: Generated<number>;
  user_id: string;
  kind: EventKind;
  /** The record concerned (an application's or contract's id), never its text. */
  ref: string | null;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
/** The two sides of the marketplace (operators run it from /admin). */
export type MarketRole = "merchant" | "freelancer";
/** A signed-in user of the marketplace pages and API (operators are kept out of them). */
export type MarketUser = UserRow & { account_type: MarketRole };
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type OpportunityRow = Selectable<OpportunitiesTable>;
export type ServiceRow = Selectable<ServicesTable>;
export type ServiceImageRow = Selectable<ServiceImagesTable>;
export type ServiceOrderRow = Selectable<ServiceOrdersTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type OfferRow = Selectable<OffersTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type ContractRow = Selectable<ContractsTable>;
export type ContractEventRow = Selectable<ContractEventsTable>;
export type ContractFileRow = Selectable<ContractFilesTable>;
export type MessageRow = Selectable<MessagesTable>;
export type MessageFileRow = Selectable<MessageFilesTable>;
export type PortfolioItemRow = Selectable<PortfolioItemsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type ReportRow = Selectable<ReportsTable>;
export type DisputeRow = Selectable<DisputesTable>;
export type MilestoneRow = Selectable<MilestonesTable>;
export type ContractWeekRow = Selectable<ContractWeeksTable>;
export type TimeEntryRow = Selectable<TimeEntriesTable>;
export type ContractMonthRow = Selectable<ContractMonthsTable>;
export type PixChargeRow = Selectable<PixChargesTable>;
export type PixRecurrenceRow = Selectable<PixRecurrencesTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type IdentityRow = Selectable<IdentitiesTable>;
export type RefundRow = Selectable<RefundsTable>;
export type LedgerTransactionRow = Selectable<LedgerTransactionsTable>;
export type LedgerEntryRow = Selectable<LedgerEntriesTable>;

/** An address that gets no more e-mail: it bounced for good, or its owner marked one as spam. */
export interface EmailSuppressionsTable {
  /** Lower case. */
  email: string;
  reason: "bounce" | "complaint";
  /** Who said so: `mailgun`, `generic`. */
  source: string;
  /** The provider's code and message, at most 300 characters. */
  detail: string | null;
  created_at: string;
}

/** A provider's notification already taken (`<provider>:<its id>`), kept a few days against replays. */
export interface EmailWebhookReceiptsTable {
  id: string;
  received_at: string;
}

/**
 * A freelancer's ready-made service (054_services; docs/product.md, "Serviços prontos"). The JSON
 * columns are written and read through app/lib/service-schemas.ts only.
 */
export interface ServicesTable {
  id: string;
  /** The full-text index's row number (SQLite's FTS5 keys rows by integer); PostgreSQL draws it. */
  seq: Generated<number>;
  freelancer_id: string;
  title: string;
  /** slugify(title): the readable part of its public address, written with the title. */
  slug: string;
  category: string;
  description: string;
  /** JSON array of strings, as opportunities.skills. */
  skills: string;
  status: "draft" | "pending" | "published" | "paused" | "archived";
  /** JSON: 1 to 3 packages, 0 to 5 extras, 0 to 10 questions and answers, 0 to 5 questions. */
  packages: string;
  extras: string;
  faq: string;
  questions: string;
  /** The cheapest package's price and the shortest delivery, for the list's filters and sorts. */
  price_from_cents: number;
  delivery_days_min: number;
  rating_sum: Generated<number>;
  rating_count: Generated<number>;
  /** Hidden by an operator (why); seen by its owner only. */
  hidden_at: string | null;
  hidden_reason: string | null;
  /** When it was first published (null before, and while pending): the list's newest first. */
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An image of a ready-made service (058_service_images): the gallery, position 0 first. */
export interface ServiceImagesTable {
  id: string;
  service_id: string;
  position: number;
  /** The stored name in the photos' store (uploads.server.ts), served at /uploads/<name>. */
  image_path: string;
  created_at: string;
}

/**
 * An order of a ready-made service (057_service_orders): the contract (and application) of the
 * same id, and what the merchant confirmed, copied (app/services/catalog/orders.server.ts).
 */
export interface ServiceOrdersTable {
  id: string;
  service_id: string;
  merchant_id: string;
  freelancer_id: string;
  package_index: number;
  /** JSON: { package: {name, includes, price_cents, delivery_days, revisions}, extras: [{title, price_cents, extra_days}] }. */
  snapshot: string;
  total_cents: number;
  delivery_days: number;
  /** JSON: [{ question, kind, answer }], null until the buyer answers. */
  answers: string | null;
  answered_at: string | null;
  revisions_allowed: number;
  revisions_used: Generated<number>;
  created_at: string;
}
