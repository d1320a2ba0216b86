import type { Generated, Insertable, Selectable, Updateable } from "kysely";

// Timestamps are ISO 8601 UTC strings; money is integer centavos; tag lists are JSON arrays.

export type AccountType = "merchant" | "freelancer";

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
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string; // SHA-256 of the token, hex
  user_id: string;
  expires_at: string;
  created_at: string;
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
  created_at: string;
  updated_at: string;
}

export type ApplicationStatus = "pending" | "countered" | "accepted" | "rejected" | "withdrawn";

export interface ApplicationsTable {
  id: string;
  opportunity_id: number;
  freelancer_id: string;
  cover_letter: string;
  price_cents: number;
  delivery_days: number;
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
  message: string | null;
  created_at: string;
}

export type NotificationKind =
  | "application_received"
  | "offer_received"
  | "application_accepted"
  | "application_rejected"
  | "application_withdrawn"
  | "invitation_received";

export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: NotificationKind;
  application_id: string | null;
  opportunity_id: number | null;
  created_at: string;
  read_at: string | null;
}

/** PostgreSQL only: profile photos (on SQLite they are files in UPLOADS_DIR). */
export interface PhotosTable {
  name: string;
  content_type: string;
  bytes: Buffer;
  created_at: string;
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
  status: "pending" | "declined";
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  opportunities: OpportunitiesTable;
  applications: ApplicationsTable;
  offers: OffersTable;
  notifications: NotificationsTable;
  photos: PhotosTable;
  portfolio_items: PortfolioItemsTable;
  invitations: InvitationsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type OpportunityRow = Selectable<OpportunitiesTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type OfferRow = Selectable<OffersTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type PortfolioItemRow = Selectable<PortfolioItemsTable>;
