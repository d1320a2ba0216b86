import { identityVerifiedOf } from "../reputation/profiles.server";
import { randomUUID } from "node:crypto";
import { sql, type Kysely, type RawBuilder } from "kysely";
import {
  MAX_OFFERS,
  NEGOTIATING_STATUSES,
  acceptInputSchema,
  applicationListQuerySchema,
  opportunityApplicationsQuerySchema,
  type ApplicationSort,
  applyInputSchema,
  isNegotiating,
  offerInputSchema,
  rejectInputSchema,
} from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import { insertContract } from "../../../db/contracts";
import { lockOpportunity } from "../../../db/dialect";
import type {
  ApplicationRow,
  ContractParty,
  Database,
  NotificationKind,
  OfferRow,
  OpportunityRow,
  UserRow,
} from "../../../db/schema";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import {
  asReadBy,
  contactConfirmed,
  flagContact,
  reportRepeatedContacts,
  screenContacts,
  type Screened,
} from "../messaging/contacts.server";
import { stateMachine } from "../platform/state-machine.server";
import { asParty, otherParty, partyOf, personJson, PEOPLE_COLUMNS } from "../platform/participants.server";
import { assertRoleFor } from "../platform/roles.server";
import { assertMayApply } from "../platform/new-accounts.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify, notifyOtherSide } from "../messaging/notifications.server";
import { rejectOpenApplications } from "./opportunities.server";
import { ratingOf, type Rating } from "../reputation/reviews.server";
import { parseTags, photoUrl } from "../accounts/users.server";

// The negotiation state machine of docs/product.md §3. Every transition is one transaction whose
// UPDATE repeats, in its WHERE, the state the decision was taken on (status, whose turn, the
// number of offers). Of two requests racing for the same application the second finds the row
// changed, updates nothing, and answers 409: SQLite runs one writer at a time, and PostgreSQL
// checks the WHERE again against the winner's row once the winner's lock is released.

export type Party = "merchant" | "freelancer";
export type ApplicationAction = "accept" | "counter" | "reject" | "withdraw";

export type OfferJson = {
  id: string;
  author: Party;
  price_cents: number;
  delivery_days: number;
  /** An hourly offer's weekly cap in hours (price_cents is then the rate per hour); null: fixed. */
  weekly_cap_hours: number | null;
  /** A monthly offer's "what a month includes" (price_cents is then the monthly amount); null: not monthly. */
  month_includes: string | null;
  message: string | null;
  created_at: string;
};

export type ApplicationJson = {
  id: string;
  opportunity: {
    uuid: string;
    title: string;
    status: OpportunityRow["status"];
    /** How the prices are counted: a total (fixed) or per hour (hourly). */
    budget_type: OpportunityRow["budget_type"];
    merchant: { id: string; display_name: string | null; photo_url: string | null };
  };
  freelancer: {
    id: string;
    full_name: string;
    display_name: string | null;
    photo_url: string | null;
    skills: string[];
    rating: Rating;
    /** An operator verified who they are ("Identidade verificada"; never the document). */
    identity_verified: boolean;
    /** Contracts the freelancer completed (either side); in the lists of an opportunity's applications. */
    completed_contracts?: number;
  };
  cover_letter: string;
  price_cents: number;
  delivery_days: number;
  /** An hourly proposal's weekly cap in hours (price_cents is then the rate per hour); null: fixed. */
  weekly_cap_hours: number | null;
  /** A monthly proposal's "what a month includes" (price_cents is then the monthly amount); null: not monthly. */
  month_includes: string | null;
  status: ApplicationRow["status"];
  awaiting: ApplicationRow["awaiting"];
  rejection_reason: ApplicationRow["rejection_reason"];
  /** The merchant's note when declining, if any. */
  rejection_message: string | null;
  offers_count: number;
  created_at: string;
  updated_at: string;
};

export type ApplicationDetailJson = ApplicationJson & { offers: OfferJson[] };

/** Whether the freelancer has applied to the opportunity (one application each). */
export async function hasApplied(trx: Kysely<Database>, opportunityId: number, freelancerId: string) {
  const row = await trx
    .selectFrom("applications")
    .select("id")
    .where("opportunity_id", "=", opportunityId)
    .where("freelancer_id", "=", freelancerId)
    .executeTakeFirst();
  return row !== undefined;
}

function baseSelect(database: Kysely<Database>) {
  return database
    .selectFrom("applications")
    .innerJoin("opportunities as o", "o.id", "applications.opportunity_id")
    .innerJoin("users as m", "m.id", "o.merchant_id")
    .innerJoin("users as f", "f.id", "applications.freelancer_id")
    .selectAll("applications")
    .select([
      "o.uuid as opportunity_uuid",
      "o.title as opportunity_title",
      "o.status as opportunity_status",
      "o.budget_type as opportunity_budget_type",
      "o.merchant_id as merchant_id",
      ...PEOPLE_COLUMNS,
      "f.skills as freelancer_skills",
      "f.rating_count as freelancer_rating_count",
      "f.rating_sum as freelancer_rating_sum",
      identityVerifiedOf("f.id").as("freelancer_identity_verified"),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>["executeTakeFirstOrThrow"]>> & {
  freelancer_completed_contracts?: number | string | null;
};

/** The freelancer's completed contracts, as either side: a subquery, so a page stays one query. */
const freelancerCompletedContracts = sql<number>`(SELECT count(*) FROM contracts c WHERE c.status = 'completed' AND (c.freelancer_id = f.id OR c.merchant_id = f.id))`;

/** The order of each sort of an opportunity's applications (ties: the newest first). */
const APPLICATION_ORDER: Record<ApplicationSort, { by: RawBuilder<unknown> | string; dir: "asc" | "desc" }> = {
  recent: { by: "applications.created_at", dir: "desc" },
  price: { by: "applications.price_cents", dir: "asc" },
  days: { by: "applications.delivery_days", dir: "asc" },
  // The average rating; nobody rated yet comes last.
  rating: {
    by: sql`CASE WHEN f.rating_count = 0 THEN 0 ELSE f.rating_sum * 1.0 / f.rating_count END`,
    dir: "desc",
  },
  contracts: { by: sql`freelancer_completed_contracts`, dir: "desc" },
};

/** `viewerId`: who reads it (its freelancer reads the letter as written, anyone else masked). */
export function toApplicationJson(row: Row, viewerId?: string): ApplicationJson {
  return {
    id: row.id,
    opportunity: {
      uuid: row.opportunity_uuid,
      title: row.opportunity_title,
      status: row.opportunity_status,
      budget_type: row.opportunity_budget_type,
      merchant: personJson(row, "merchant"),
    },
    freelancer: {
      id: row.freelancer_id,
      full_name: row.freelancer_full_name,
      display_name: row.freelancer_display_name,
      photo_url: photoUrl(row.freelancer_photo_path),
      skills: parseTags(row.freelancer_skills),
      rating: ratingOf({ rating_count: row.freelancer_rating_count, rating_sum: row.freelancer_rating_sum }),
      identity_verified: Number(row.freelancer_identity_verified ?? 0) > 0,
      ...("freelancer_completed_contracts" in row
        ? { completed_contracts: Number(row.freelancer_completed_contracts ?? 0) }
        : {}),
    },
    cover_letter: asReadBy(row.cover_letter, row.masked_cover_letter, viewerId === row.freelancer_id),
    price_cents: row.price_cents,
    delivery_days: row.delivery_days,
    weekly_cap_hours: row.weekly_cap_hours,
    month_includes: row.month_includes,
    status: row.status,
    awaiting: row.awaiting,
    rejection_reason: row.rejection_reason,
    rejection_message: row.rejection_message,
    offers_count: row.offers_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `viewer`: the side reading it (its author reads the note as written, the other side masked). */
export function toOfferJson(offer: OfferRow, viewer?: ContractParty): OfferJson {
  return {
    id: offer.id,
    author: offer.author,
    price_cents: offer.price_cents,
    delivery_days: offer.delivery_days,
    weekly_cap_hours: offer.weekly_cap_hours,
    month_includes: offer.month_includes,
    message: offer.message === null ? null : asReadBy(offer.message, offer.masked_message, viewer === offer.author),
    created_at: offer.created_at,
  };
}

/** The application as a participant sees it; anyone else gets 404, never its contents. */
function findForParticipant(database: Kysely<Database>, user: UserRow, id: string) {
  return asParty(user, id, (id) => baseSelect(database).where("applications.id", "=", id).executeTakeFirst());
}

type NegotiationState = Pick<Row, "status" | "awaiting" | "offers_count" | "opportunity_status">;

const negotiating = [(a: NegotiationState) => isNegotiating(a.status), 409, "application_final"] as const;
const myTurn = [
  [(a: NegotiationState, party: Party) => a.awaiting === party, 409, "not_your_turn"],
  [(a: NegotiationState) => a.opportunity_status === "open", 409, "opportunity_not_open"],
] as const;

/**
 * The negotiation (docs/product.md §3): the awaited side accepts or counters while the
 * opportunity is open; the merchant rejects and the freelancer withdraws whoever's turn it is.
 * A move by the wrong side is 404, as for anyone who is no side.
 */
const NEGOTIATION = stateMachine<ApplicationAction, NegotiationState, Party>(
  {
    accept: { checks: [negotiating, ...myTurn] },
    counter: { checks: [negotiating, ...myTurn, [(a) => a.offers_count < MAX_OFFERS, 409, "offers_limit"]] },
    reject: { by: "merchant", checks: [negotiating] },
    withdraw: { by: "freelancer", checks: [negotiating] },
  },
  { wrongSide: [404, "not_found"] },
);

/** The moves the user may make on the application right now; pages show only these buttons. */
export function allowedActions(
  user: Pick<UserRow, "id">,
  application: Pick<ApplicationJson, "status" | "awaiting" | "offers_count"> & {
    freelancer: { id: string };
    opportunity: { status: string; merchant: { id: string } };
  },
): ApplicationAction[] {
  const party = partyOf(user, {
    freelancer_id: application.freelancer.id,
    merchant_id: application.opportunity.merchant.id,
  });
  const opportunity_status = application.opportunity.status as NegotiationState["opportunity_status"];
  return NEGOTIATION.allowed({ ...application, opportunity_status }, party);
}

// ---------------------------------------------------------------------------------------------
// Reading

async function loadJson(id: string, viewerId: string) {
  return toApplicationJson(await baseSelect(db).where("applications.id", "=", id).executeTakeFirstOrThrow(), viewerId);
}

export async function getApplication(user: UserRow, id: string): Promise<ApplicationDetailJson> {
  const { row, party } = await findForParticipant(db, user, id);
  const offers = await db
    .selectFrom("offers")
    .selectAll()
    .where("application_id", "=", id)
    .orderBy("seq", "asc")
    .execute();
  return { ...toApplicationJson(row, user.id), offers: offers.map((o) => toOfferJson(o, party)) };
}

type ListResult = { data: ApplicationJson[]; meta: PageMeta };
type Filter = (qb: ReturnType<typeof baseSelect>) => ReturnType<typeof baseSelect>;

/** The applications of one status only, when the list asks for one. */
function ofStatus<Q extends ReturnType<typeof baseSelect>>(qb: Q, status: ApplicationRow["status"] | undefined): Q {
  return status === undefined ? qb : (qb.where("applications.status", "=", status) as Q);
}

/** A page of applications and its total: two queries whatever the page size. */
async function listWhere(
  viewerId: string,
  filter: Filter,
  page: number,
  perPage: number,
  order: "created_at" | "updated_at" | ApplicationSort = "created_at",
  filterUsesOpportunity = false,
): Promise<ListResult> {
  const sorted = order === "created_at" || order === "updated_at" ? null : APPLICATION_ORDER[order];
  // The count joins only what the filter reads: the other joins follow foreign keys and keep
  // every row, but each costs a lookup per counted application (600 for a busy freelancer).
  const countBase = (filterUsesOpportunity
    ? db.selectFrom("applications").innerJoin("opportunities as o", "o.id", "applications.opportunity_id")
    : db.selectFrom("applications")) as unknown as ReturnType<typeof baseSelect>;
  const [{ total }, rows] = await Promise.all([
    filter(countBase)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow(),
    filter(baseSelect(db))
      .$if(sorted !== null, (q) =>
        q
          .select(freelancerCompletedContracts.as("freelancer_completed_contracts"))
          .orderBy(sorted!.by as never, sorted!.dir)
          .orderBy("applications.created_at", "desc"),
      )
      .$if(sorted === null, (q) => q.orderBy(`applications.${order as "created_at" | "updated_at"}`, "desc"))
      .orderBy("applications.id", "desc")
      .limit(perPage)
      .offset(offsetOf(page, perPage))
      .execute(),
  ]);
  return { data: rows.map((r) => toApplicationJson(r, viewerId)), meta: pageMeta(page, perPage, Number(total)) };
}

/** The applications to one of the merchant's opportunities (owner only; others get 404). */
export async function listOpportunityApplications(
  merchant: UserRow,
  uuid: string,
  query: unknown,
): Promise<ListResult> {
  assertRoleFor(merchant, "opportunity.applications");
  const { status, page, per_page, sort = "recent" } = parseInput(opportunityApplicationsQuerySchema, query);
  assertId(uuid);
  const opportunity = await db
    .selectFrom("opportunities")
    .select("id")
    .where("uuid", "=", uuid)
    .where("merchant_id", "=", merchant.id)
    .executeTakeFirst();
  if (!opportunity) throw new AppError(404, "not_found");
  return listWhere(
    merchant.id,
    (qb) => ofStatus(qb.where("applications.opportunity_id", "=", opportunity.id), status),
    page,
    per_page,
    sort,
  );
}

export async function listMyApplications(freelancer: UserRow, query: unknown): Promise<ListResult> {
  assertRoleFor(freelancer, "applications.mine");
  const { status, page, per_page } = parseInput(applicationListQuerySchema, query);
  return listWhere(
    freelancer.id,
    (qb) => ofStatus(qb.where("applications.freelancer_id", "=", freelancer.id), status),
    page,
    per_page,
  );
}

/** What waits for the user: a merchant's pending applications, a freelancer's countered ones. */
export async function listAwaitingConfirmation(user: UserRow, query: unknown): Promise<ListResult> {
  const { page, per_page } = parseInput(applicationListQuerySchema, query);
  return listWhere(
    user.id,
    (qb) =>
      user.account_type === "merchant"
        ? qb.where("o.merchant_id", "=", user.id).where("applications.status", "=", "pending")
        : qb.where("applications.freelancer_id", "=", user.id).where("applications.status", "=", "countered"),
    page,
    per_page,
    "updated_at",
    user.account_type === "merchant",
  );
}

// ---------------------------------------------------------------------------------------------
// Transitions

/** The freelancer applies: the application (pending, awaiting the merchant) and its first offer. */
/**
 * A weekly cap comes with an hourly proposal only: on an hourly opportunity it makes the proposal
 * hourly (price_cents is then the rate per hour, and the hire an hourly contract); without it the
 * proposal is priced as before. A negotiation keeps its kind through its counters (a counter that
 * leaves the cap out keeps the one on the table).
 */
function assertWeeklyCap(allowed: boolean, given: boolean) {
  if (given && !allowed) throw new AppError(422, "validation_failed", { weekly_cap_hours: "weekly_cap_fixed" });
}

/** An application's first offer: the freelancer's terms as they applied (or as a service's package sells). */
export async function insertFirstOffer(
  trx: Kysely<Database>,
  applicationId: string,
  terms: {
    price_cents: number;
    delivery_days: number;
    weekly_cap_hours?: number | null;
    month_includes?: string | null;
  },
  at: string,
) {
  await trx
    .insertInto("offers")
    .values({
      id: randomUUID(),
      application_id: applicationId,
      seq: 1,
      author: "freelancer",
      price_cents: terms.price_cents,
      delivery_days: terms.delivery_days,
      weekly_cap_hours: terms.weekly_cap_hours ?? null,
      month_includes: terms.month_includes ?? null,
      message: null,
      created_at: at,
    })
    .execute();
}

/**
 * "What a month includes" makes a proposal monthly (price_cents is then the monthly amount, and
 * the hire a monthly contract): on a fixed-budget opportunity only, as the proposal form's
 * "mensal" choice. A monthly negotiation stays monthly through its counters (one that leaves the
 * text out keeps the one on the table); a fixed one cannot become monthly halfway.
 */
function assertMonthly(allowed: boolean, given: boolean) {
  if (given && !allowed) throw new AppError(422, "validation_failed", { month_includes: "month_includes_not_allowed" });
}

export async function applyToOpportunity(freelancer: UserRow, uuid: string, input: unknown): Promise<ApplicationJson> {
  await consumeWrite(freelancer.id);
  assertRoleFor(freelancer, "application.apply");
  const data = parseInput(applyInputSchema, input);
  assertId(uuid);
  const id = randomUUID();
  let screened: Screened = { masked: null, kinds: [] };
  // The unique index is the last word when two submissions of one freelancer race.
  await oneOnly("applications", new AppError(409, "already_applied"), () =>
    transaction(async (trx) => {
      const opportunity = await trx
        .selectFrom("opportunities")
        .select(["id", "merchant_id", "status", "budget_type"])
        .where("uuid", "=", uuid)
        // Hidden by an operator, or waiting for one: nobody but its owner sees it.
        .where("hidden_at", "is", null)
        .where("held_at", "is", null)
        .executeTakeFirst();
      if (!opportunity) throw new AppError(404, "not_found");
      if (await hasApplied(trx, opportunity.id, freelancer.id)) throw new AppError(409, "already_applied");
      assertWeeklyCap(opportunity.budget_type === "hourly", data.weekly_cap_hours !== undefined);
      assertMonthly(opportunity.budget_type === "fixed", data.month_includes !== undefined);
      await assertMayApply(trx, freelancer, now());
      // A contact in the letter: the notice first (docs/product.md, "Contatos antes do pagamento").
      screened = await screenContacts(trx, data.cover_letter, {
        authorId: freelancer.id,
        otherId: opportunity.merchant_id,
        confirmed: contactConfirmed(input),
        field: "cover_letter",
      });
      const counted = await trx
        .updateTable("opportunities")
        .set({ applications_count: sql`applications_count + 1` })
        .where("id", "=", opportunity.id)
        .where("status", "=", "open")
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) === 0) throw new AppError(409, "opportunity_not_open");
      const timestamp = now();
      await trx
        .insertInto("applications")
        .values({
          id,
          opportunity_id: opportunity.id,
          freelancer_id: freelancer.id,
          cover_letter: data.cover_letter,
          masked_cover_letter: screened.masked,
          price_cents: data.price_cents,
          delivery_days: data.delivery_days,
          weekly_cap_hours: data.weekly_cap_hours ?? null,
          month_includes: data.month_includes ?? null,
          status: "pending",
          awaiting: "merchant",
          rejection_reason: null,
          rejection_message: null,
          offers_count: 1,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .execute();
      await insertFirstOffer(trx, id, data, timestamp);
      await flagContact(trx, screened, { userId: freelancer.id, source: "application", sourceId: id, at: timestamp });
      await notify(trx, {
        user_id: opportunity.merchant_id,
        kind: "application_received",
        application_id: id,
        opportunity_id: opportunity.id,
      });
    }),
  );
  await reportRepeatedContacts(screened, freelancer.id);
  return loadJson(id, freelancer.id);
}

/** The awaited party answers with new terms; the turn passes to the other side. */
export async function counterOffer(user: UserRow, id: string, input: unknown): Promise<OfferJson> {
  await consumeWrite(user.id);
  const data = parseInput(offerInputSchema, input);
  let screened: Screened = { masked: null, kinds: [] };
  const sent = await transaction(async (trx) => {
    const { row, party } = await findForParticipant(trx, user, id);
    NEGOTIATION.assert("counter", row, party, { max: MAX_OFFERS });
    // An hourly proposal is countered with a rate and a cap; a fixed one with a price only.
    assertWeeklyCap(row.weekly_cap_hours !== null, data.weekly_cap_hours !== undefined);
    const weeklyCap = row.weekly_cap_hours === null ? null : (data.weekly_cap_hours ?? row.weekly_cap_hours);
    assertMonthly(row.month_includes !== null, data.month_includes !== undefined);
    const monthIncludes = row.month_includes === null ? null : (data.month_includes ?? row.month_includes);
    screened = await screenContacts(trx, data.message, {
      authorId: user.id,
      otherId: party === "merchant" ? row.freelancer_id : row.merchant_id,
      confirmed: contactConfirmed(input),
      field: "message",
    });
    const timestamp = now();
    const updated = await trx
      .updateTable("applications")
      .set({
        status: party === "merchant" ? "countered" : "pending",
        awaiting: otherParty(party),
        price_cents: data.price_cents,
        delivery_days: data.delivery_days,
        weekly_cap_hours: weeklyCap,
        month_includes: monthIncludes,
        offers_count: sql`offers_count + 1`,
        updated_at: timestamp,
      })
      .where("id", "=", id)
      .where("status", "=", row.status)
      .where("awaiting", "=", party)
      .where("offers_count", "=", row.offers_count)
      .where("offers_count", "<", MAX_OFFERS)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "application_changed");
    const offer: OfferRow = {
      id: randomUUID(),
      application_id: id,
      // The WHERE above held offers_count at the value read, so this is the next number.
      seq: row.offers_count + 1,
      author: party,
      price_cents: data.price_cents,
      delivery_days: data.delivery_days,
      weekly_cap_hours: weeklyCap,
      month_includes: monthIncludes,
      message: data.message ?? null,
      masked_message: screened.masked,
      created_at: timestamp,
    };
    await trx.insertInto("offers").values(offer).execute();
    await flagContact(trx, screened, { userId: user.id, source: "offer", sourceId: offer.id, at: timestamp });
    await notifyOtherSide(trx, party, row, "offer_received");
    return toOfferJson(offer, party);
  });
  await reportRepeatedContacts(screened, user.id);
  return sent;
}

/**
 * The awaited party accepts the latest offer, named by its id, and the contract starts. Taking
 * the last vacancy fills the opportunity and ends its other negotiations with reason `filled`.
 */
export async function acceptOffer(user: UserRow, id: string, input: unknown): Promise<ApplicationJson> {
  await consumeWrite(user.id);
  const { offer_id } = parseInput(acceptInputSchema, input);
  await transaction(async (trx) => {
    const { row, party } = await findForParticipant(trx, user, id);
    NEGOTIATION.assert("accept", row, party);
    // The opportunity first, as closing it does: see lockOpportunity.
    await lockOpportunity(trx, row.opportunity_id);
    const latest = await trx
      .selectFrom("offers")
      .selectAll()
      .where("application_id", "=", id)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!latest || latest.id !== offer_id) throw new AppError(409, "offer_not_latest");
    const timestamp = now();
    const accepted = await trx
      .updateTable("applications")
      .set({
        status: "accepted",
        awaiting: null,
        price_cents: latest.price_cents,
        delivery_days: latest.delivery_days,
        weekly_cap_hours: latest.weekly_cap_hours,
        month_includes: latest.month_includes,
        updated_at: timestamp,
      })
      .where("id", "=", id)
      .where("status", "=", row.status)
      .where("awaiting", "=", party)
      // The offer count pins the offer accepted: a counter in between would have raised it.
      .where("offers_count", "=", row.offers_count)
      .executeTakeFirst();
    if (Number(accepted.numUpdatedRows) === 0) throw new AppError(409, "application_changed");
    // The hire starts the work: its contract, on the terms just agreed.
    await insertContract(
      trx,
      {
        id,
        opportunity_id: row.opportunity_id,
        merchant_id: row.merchant_id,
        freelancer_id: row.freelancer_id,
        price_cents: latest.price_cents,
        delivery_days: latest.delivery_days,
        weekly_cap_hours: latest.weekly_cap_hours,
        month_includes: latest.month_includes,
      },
      timestamp,
    );
    const opportunity = await trx
      .updateTable("opportunities")
      .set({
        accepted_count: sql`accepted_count + 1`,
        // SQLite evaluates the whole SET against the old row, so accepted_count here is the old value.
        status: sql`CASE WHEN accepted_count + 1 >= vacancies THEN 'filled' ELSE status END`,
        updated_at: timestamp,
      })
      .where("id", "=", row.opportunity_id)
      .where("status", "=", "open")
      .where(sql<boolean>`accepted_count < vacancies`)
      .returning("status")
      .executeTakeFirst();
    if (!opportunity) throw new AppError(409, "opportunity_not_open");
    await notifyOtherSide(trx, party, row, "application_accepted");
    if (opportunity.status === "filled") await rejectOpenApplications(trx, row.opportunity_id, "filled");
  });
  return loadJson(id, user.id);
}

/** The merchant declines an application under negotiation, whoever's turn it is. */
export async function rejectApplication(merchant: UserRow, id: string, input: unknown): Promise<ApplicationJson> {
  await consumeWrite(merchant.id);
  assertRoleFor(merchant, "application.reject");
  const { message } = parseInput(rejectInputSchema, input ?? {});
  const set = { status: "rejected", rejection_reason: "declined", rejection_message: message ?? null } as const;
  return endNegotiation(merchant, id, "reject", set, "application_rejected");
}

/** The freelancer gives up an application under negotiation, whoever's turn it is. */
export async function withdrawApplication(freelancer: UserRow, id: string): Promise<ApplicationJson> {
  await consumeWrite(freelancer.id);
  assertRoleFor(freelancer, "application.withdraw");
  return endNegotiation(freelancer, id, "withdraw", { status: "withdrawn" }, "application_withdrawn");
}

/** One side ends the negotiation (`set`, while it is still under way); the other side is told. */
async function endNegotiation(
  user: UserRow,
  id: string,
  move: "reject" | "withdraw",
  set: { status: "rejected" | "withdrawn"; rejection_reason?: "declined"; rejection_message?: string | null },
  kind: NotificationKind,
): Promise<ApplicationJson> {
  await transaction(async (trx) => {
    const { row, party } = await findForParticipant(trx, user, id);
    NEGOTIATION.assert(move, row, party);
    const ended = await trx
      .updateTable("applications")
      .set({ ...set, awaiting: null, updated_at: now() })
      .where("id", "=", id)
      .where("status", "in", NEGOTIATING_STATUSES)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0) throw new AppError(409, "application_changed");
    await notifyOtherSide(trx, party, row, kind);
  });
  return loadJson(id, user.id);
}
