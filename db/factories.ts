import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { sql, type Kysely } from "kysely";
import { directoryColumns } from "../app/lib/directory";
import { opportunitySlug } from "../app/lib/slug";
import { termsVersion } from "../app/services/accounts/terms-version";
import { insertContract } from "./contracts";
import type { AccountType, ApplicationRow, Database, OfferRow, OpportunityRow, UserRow } from "./schema";

// One set of factories for the demo seed, the unit tests and the browser tests.

export const DEFAULT_PASSWORD = "freela123";

const hashes = new Map<string, string>();
/** Hashes are cached by password: seeding many users with one password costs one hash. */
function passwordHash(password: string) {
  let hash = hashes.get(password);
  if (!hash) {
    hash = bcrypt.hashSync(password, Number(process.env.BCRYPT_COST) || 10);
    hashes.set(password, hash);
  }
  return hash;
}

let counter = 0;
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

export type UserOverrides = Partial<Omit<UserRow, "skills" | "password_hash">> & {
  password?: string;
  skills?: string[];
};

const LATER_USER_COLUMNS = new Set([
  "deleted_at",
  "locale",
  "terms_version",
  "email_verified_at",
  "suspended_until",
  "banned_at",
  "sanction_reason",
  "profile_hidden_at",
  "profile_hidden_reason",
  "hidden_photo_path",
  "company_name",
  "company_cnpj",
  "email_undeliverable_at",
]);

export async function createUser(db: Kysely<Database>, overrides: UserOverrides = {}) {
  const now = new Date().toISOString();
  const { password = DEFAULT_PASSWORD, skills = [], ...rest } = overrides;
  const accountType: AccountType = rest.account_type ?? "freelancer";
  const base = {
    id: randomUUID(),
    email: uniqueEmail(accountType),
    display_name: null,
    full_name: accountType === "merchant" ? "Maria Contratante" : "João Freelancer",
    account_type: accountType,
    bio: "",
    photo_path: null,
    city: null,
    remote: 1,
    rating_count: 0,
    rating_sum: 0,
    storage_bytes: 0,
    locale: null,
    suspended_until: null,
    banned_at: null,
    sanction_reason: null,
    profile_hidden_at: null,
    profile_hidden_reason: null,
    hidden_photo_path: null,
    email_undeliverable_at: null,
    // Confirmed unless the test says otherwise (null: an account that has not opened its link).
    email_verified_at: now,
    // The current terms accepted, as at registration (null: an account from before 038_terms).
    terms_version: termsVersion(),
    public_profile: 1,
    deleted_at: null,
    company_name: null,
    company_cnpj: null,
    created_at: now,
    updated_at: now,
    ...rest,
  };
  const user: UserRow = {
    ...base,
    ...directoryColumns({ ...base, skills }),
    skills: JSON.stringify(skills),
    password_hash: passwordHash(password),
  };
  user.email = user.email.toLowerCase();
  // Columns added by later migrations are left out while null (a confirmation while null, stored
  // bytes while 0, a public profile while on: the columns' defaults), so the factory also serves schemas before they existed (the migration tests go
  // back to earlier versions).
  const row = Object.fromEntries(
    Object.entries(user).filter(
      ([key, value]) =>
        !(LATER_USER_COLUMNS.has(key) && value === null) &&
        !(key === "storage_bytes" && Number(value) === 0) &&
        !(key === "public_profile" && value === 1),
    ),
  ) as UserRow;
  await db.insertInto("users").values(row).execute();
  return { ...user, password };
}

export type OpportunityOverrides = Partial<Omit<OpportunityRow, "id" | "skills" | "slug">> & {
  skills?: string[];
  /** Null leaves the column out: a database migrated only to a step before 036 has none. */
  slug?: string | null;
};

/** An open opportunity; a merchant is created for it when `merchant_id` is not given. */
export async function createOpportunity(
  db: Kysely<Database>,
  overrides: OpportunityOverrides = {},
): Promise<OpportunityRow> {
  const now = new Date().toISOString();
  const { skills = ["React", "TypeScript"], ...rest } = overrides;
  const merchantId = rest.merchant_id ?? (await createUser(db, { account_type: "merchant" })).id;
  const values = {
    uuid: randomUUID(),
    title: "Site institucional para padaria",
    description: "Precisamos de um site simples com cardápio, endereço e botão de WhatsApp.",
    category: "desenvolvimento",
    budget_type: "fixed" as const,
    budget_min_cents: 150_000,
    budget_max_cents: 300_000,
    currency: "BRL",
    deadline: null,
    location_type: "remote" as const,
    city: null,
    vacancies: 1,
    status: "open" as const,
    applications_count: 0,
    accepted_count: 0,
    created_at: now,
    updated_at: now,
    ...rest,
    merchant_id: merchantId,
    skills: JSON.stringify(skills),
  };
  const { slug = opportunitySlug(values.title), ...row } = values;
  return (
    db
      .insertInto("opportunities")
      // (typed as the current schema: without `slug` only for a database before migration 036)
      .values(slug === null ? (row as typeof row & { slug: string }) : { ...row, slug })
      .returningAll()
      .executeTakeFirstOrThrow()
  );
}

export type OfferSeed = {
  author: OfferRow["author"];
  price_cents: number;
  delivery_days: number;
  /** An hourly offer's weekly cap (its price_cents is the rate per hour). */
  weekly_cap_hours?: number | null;
  /** A monthly offer's "what a month includes" (its price_cents is the monthly amount). */
  month_includes?: string | null;
  message?: string | null;
  created_at?: string;
};

export type ApplicationSeed = Partial<Omit<ApplicationRow, "opportunity_id" | "offers_count">> & {
  opportunity: Pick<OpportunityRow, "id">;
  /** The negotiation, oldest first; the first is the freelancer's application. Defaults to it alone. */
  offers?: OfferSeed[];
};

const awaitingOf = (status: ApplicationRow["status"]): ApplicationRow["awaiting"] =>
  status === "pending" ? "merchant" : status === "countered" ? "freelancer" : null;

/**
 * An application with its offers. The current terms are the last offer's; the opportunity's
 * counters follow (an accepted application takes a vacancy, the last one fills it; the other
 * applications are left as they are). A freelancer is created when `freelancer_id` is not given.
 */
export async function createApplication(db: Kysely<Database>, seed: ApplicationSeed) {
  const { opportunity, offers: offerSeeds, ...rest } = seed;
  const now = new Date().toISOString();
  const freelancerId = rest.freelancer_id ?? (await createUser(db, { account_type: "freelancer" })).id;
  const offers = offerSeeds?.length
    ? offerSeeds
    : [
        {
          author: "freelancer" as const,
          price_cents: rest.price_cents ?? 200_000,
          delivery_days: rest.delivery_days ?? 15,
        },
      ];
  const last = offers[offers.length - 1];
  const status = rest.status ?? "pending";
  const createdAt = rest.created_at ?? offers[0].created_at ?? now;
  const application: ApplicationRow = {
    id: randomUUID(),
    cover_letter: "Olá! Tenho experiência com projetos parecidos e posso começar nesta semana. Vamos conversar?",
    awaiting: awaitingOf(status),
    rejection_reason: status === "rejected" ? "declined" : null,
    rejection_message: null,
    updated_at: last.created_at ?? createdAt,
    ...rest,
    masked_cover_letter: rest.masked_cover_letter ?? null,
    weekly_cap_hours: last.weekly_cap_hours ?? null,
    month_includes: last.month_includes ?? null,
    status,
    created_at: createdAt,
    price_cents: last.price_cents,
    delivery_days: last.delivery_days,
    opportunity_id: opportunity.id,
    freelancer_id: freelancerId,
    offers_count: offers.length,
  };
  // A column of a later migration only when set: migration tests build rows on older schemas.
  const { masked_cover_letter, weekly_cap_hours, month_includes, ...older } = application;
  await db
    .insertInto("applications")
    .values({
      ...older,
      ...(masked_cover_letter === null ? {} : { masked_cover_letter }),
      ...(weekly_cap_hours === null ? {} : { weekly_cap_hours }),
      ...(month_includes === null ? {} : { month_includes }),
    })
    .execute();
  const offerRows: OfferRow[] = offers.map((o, i) => ({
    id: randomUUID(),
    application_id: application.id,
    seq: i + 1,
    author: o.author,
    price_cents: o.price_cents,
    delivery_days: o.delivery_days,
    weekly_cap_hours: o.weekly_cap_hours ?? null,
    month_includes: o.month_includes ?? null,
    message: o.message ?? null,
    masked_message: null,
    created_at: o.created_at ?? createdAt,
  }));
  await db
    .insertInto("offers")
    .values(
      offerRows.map(({ masked_message, weekly_cap_hours, month_includes, ...older }) => ({
        ...older,
        ...(masked_message === null ? {} : { masked_message }),
        ...(weekly_cap_hours === null ? {} : { weekly_cap_hours }),
        ...(month_includes === null ? {} : { month_includes }),
      })),
    )
    .execute();
  const hired = status === "accepted" ? 1 : 0;
  await db
    .updateTable("opportunities")
    .set((eb) => ({
      applications_count: eb("applications_count", "+", 1),
      accepted_count: eb("accepted_count", "+", hired),
      // As in the services, taking the last vacancy fills an open opportunity.
      status: sql<
        OpportunityRow["status"]
      >`CASE WHEN status = 'open' AND accepted_count + ${hired} >= vacancies THEN 'filled' ELSE status END`,
    }))
    .where("id", "=", opportunity.id)
    .execute();
  if (status === "accepted") {
    // The hire's contract, as acceptOffer makes it.
    const hiredAt = application.updated_at;
    const { merchant_id } = await db
      .selectFrom("opportunities")
      .select("merchant_id")
      .where("id", "=", opportunity.id)
      .executeTakeFirstOrThrow();
    await insertContract(
      db,
      {
        id: application.id,
        opportunity_id: opportunity.id,
        merchant_id,
        freelancer_id: freelancerId,
        price_cents: application.price_cents,
        delivery_days: application.delivery_days,
        // A monthly proposal's hire is a monthly contract.
        month_includes: application.month_includes,
      },
      hiredAt,
    );
  }
  return { ...application, offers: offerRows };
}

/** A pending invitation of a merchant's opportunity to a freelancer, made at `at` (now). */
export async function createInvitation(
  db: Kysely<Database>,
  seed: { opportunity_id: number; freelancer_id: string; merchant_id: string; message?: string; at?: string },
) {
  const at = seed.at ?? new Date().toISOString();
  const row = {
    id: randomUUID(),
    opportunity_id: seed.opportunity_id,
    freelancer_id: seed.freelancer_id,
    merchant_id: seed.merchant_id,
    message: seed.message ?? "Oi",
    status: "pending" as const,
    created_at: at,
    updated_at: at,
  };
  await db.insertInto("invitations").values(row).execute();
  return row;
}

/**
 * A verified fiscal identity for a user (a person with a fresh valid CPF unless one is given):
 * what payouts need (docs/payments.md, "Repasses"). Returns the document, digits only.
 */
export async function createVerifiedIdentity(
  db: Kysely<Database>,
  userId: string,
  overrides: { document?: string; legal_name?: string } = {},
) {
  const at = new Date().toISOString();
  const document = overrides.document ?? generateCpf();
  await db
    .insertInto("identities")
    .values({
      user_id: userId,
      kind: document.length === 14 ? "company" : "person",
      document,
      legal_name: overrides.legal_name ?? "Pessoa Recebedora da Silva",
      birth_date: document.length === 14 ? null : "1990-05-17",
      responsible_cpf: document.length === 14 ? generateCpf() : null,
      status: "verified",
      version: 1,
      doc_type: "rg",
      front_file: null,
      back_file: null,
      selfie_file: null,
      files_bytes: 0,
      submitted_at: at,
      decided_at: at,
      decided_by: null,
      reason: null,
      files_deleted_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return document;
}
