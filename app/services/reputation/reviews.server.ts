import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { pageQuerySchema } from "~/lib/market-schemas";
import { replyInputSchema, reviewInputSchema } from "~/lib/review-schemas";
import { db, transaction } from "../../../db";
import type { ContractParty, ContractRow, Database, UserRow } from "../../../db/schema";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import { asParty } from "../platform/participants.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { displayNameOf, photoUrl } from "../accounts/users.server";

// Reviews, both ways, after a contract ends (PRODUCT-level rules in the README):
// - who: the two sides of a contract that was completed, or cancelled after a delivery (work was
//   handed over, so there is something to judge); each side once.
// - when: within REVIEW_WINDOW_DAYS of the contract's end.
// - hidden until the other side has written theirs (both are published in that same transaction)
//   or the window is over (publishDueReviews, run by the server's schedule, publishes at
//   publish_due_at exactly). Nobody reads a review about themselves before writing their own.
// - a review is final once written; the reviewed person may post one public reply once published.
// - users.rating_count / rating_sum change only in the transaction that publishes.

export const REVIEW_WINDOW_DAYS = 14;
const DAY_MS = 86_400_000;
const PUBLISH_BATCH = 200;

export type Rating = { average: number | null; count: number };

/** A user's rating from the stored published count and sum: the average to one decimal. */
export function ratingOf(u: { rating_count: number; rating_sum: number }): Rating {
  const count = Number(u.rating_count);
  return { average: count ? Math.round((Number(u.rating_sum) / count) * 10) / 10 : null, count };
}

export type ReviewJson = {
  id: string;
  contract_id: string;
  author: { id: string; display_name: string | null; photo_url: string | null; role: ContractParty };
  subject_id: string;
  rating: number;
  comment: string;
  reply: string | null;
  replied_at: string | null;
  /** Hidden by an operator: its comment is left out (and it leaves the subject's rating). */
  hidden: boolean;
  /** Why, for its author only. */
  hidden_reason: string | null;
  /** The reply hidden by an operator (its text left out); why, for the reply's author only. */
  reply_hidden: boolean;
  reply_hidden_reason: string | null;
  published: boolean;
  /** When it is published at the latest (the window's end), if it is not yet. */
  publish_due_at: string;
  published_at: string | null;
  created_at: string;
};

export type ContractReviewsJson = {
  /** Whether this contract can be reviewed at all (completed, or cancelled after a delivery). */
  eligible: boolean;
  /** The window's end (null when not eligible). */
  closes_at: string | null;
  can_review: boolean;
  mine: ReviewJson | null;
  /** The other side's review of the viewer: only once published. */
  theirs: ReviewJson | null;
  /** Whether the other side has written one (its content stays hidden until published). */
  theirs_written: boolean;
  can_reply: boolean;
};

type ContractForReview = Pick<
  ContractRow,
  "id" | "status" | "deliveries_count" | "ended_at" | "merchant_id" | "freelancer_id" | "opportunity_id"
>;

/** Completed, or cancelled after a delivery; and when the window closes. */
export function reviewWindow(c: Pick<ContractRow, "status" | "deliveries_count" | "ended_at">): {
  eligible: boolean;
  closes_at: string | null;
} {
  const eligible =
    !!c.ended_at && (c.status === "completed" || (c.status === "cancelled" && Number(c.deliveries_count) > 0));
  return {
    eligible,
    closes_at: eligible ? new Date(Date.parse(c.ended_at!) + REVIEW_WINDOW_DAYS * DAY_MS).toISOString() : null,
  };
}

function reviewRows(database: Kysely<Database> = db) {
  return database
    .selectFrom("reviews as r")
    .innerJoin("users as a", "a.id", "r.author_id")
    .selectAll("r")
    .select([
      "a.display_name as author_display_name",
      "a.full_name as author_full_name",
      "a.photo_path as author_photo_path",
    ]);
}

type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewRows>["executeTakeFirstOrThrow"]>>;

/** A review as `viewerId` may read it: hidden text is left out, and only its author learns why. */
function toReviewJson(r: ReviewRow, viewerId: string | null = null): ReviewJson {
  const hidden = r.hidden_at !== null;
  const replyHidden = r.reply_hidden_at !== null;
  return {
    id: r.id,
    contract_id: r.contract_id,
    author: {
      id: r.author_id,
      display_name: displayNameOf({ display_name: r.author_display_name, full_name: r.author_full_name }),
      photo_url: photoUrl(r.author_photo_path),
      role: r.author_role,
    },
    subject_id: r.subject_id,
    rating: r.rating,
    comment: hidden ? "" : r.comment,
    reply: replyHidden ? null : r.reply,
    replied_at: r.replied_at,
    hidden,
    hidden_reason: hidden && viewerId === r.author_id ? r.hidden_reason : null,
    reply_hidden: replyHidden,
    reply_hidden_reason: replyHidden && viewerId === r.subject_id ? r.reply_hidden_reason : null,
    published: r.published_at !== null,
    publish_due_at: r.publish_due_at,
    published_at: r.published_at,
    created_at: r.created_at,
  };
}

async function contractOf(
  user: Pick<UserRow, "id">,
  contractId: string,
): Promise<{ contract: ContractForReview; party: ContractParty }> {
  const { row: contract, party } = await asParty(user, contractId, (id) =>
    db
      .selectFrom("contracts")
      .select(["id", "status", "deliveries_count", "ended_at", "merchant_id", "freelancer_id", "opportunity_id"])
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  return { contract, party };
}

/** The reviews of a contract as one of its sides sees them. */
export async function getContractReviews(user: UserRow, contractId: string): Promise<ContractReviewsJson> {
  const { contract } = await contractOf(user, contractId);
  const rows = await reviewRows().where("r.contract_id", "=", contractId).execute();
  return contractReviewsJson(user, contract, rows);
}

function contractReviewsJson(
  user: Pick<UserRow, "id">,
  contract: ContractForReview,
  rows: ReviewRow[],
  at = now(),
): ContractReviewsJson {
  const { eligible, closes_at } = reviewWindow(contract);
  const mine = rows.find((r) => r.author_id === user.id) ?? null;
  const theirs = rows.find((r) => r.author_id !== user.id) ?? null;
  return {
    eligible,
    closes_at,
    can_review: eligible && !mine && at < closes_at!,
    mine: mine ? toReviewJson(mine, user.id) : null,
    theirs: theirs?.published_at ? toReviewJson(theirs, user.id) : null,
    theirs_written: !!theirs,
    can_reply: !!theirs?.published_at && theirs.reply === null,
  };
}

type Counted = { subject_id: string; rating: number; contract_id: string };

/** Adds published reviews to their subjects' ratings (and to their services' when they sold one). */
async function countInRatings(trx: Kysely<Database>, published: Counted[]) {
  for (const r of published) {
    await trx
      .updateTable("users")
      .set({ rating_count: sql`rating_count + 1`, rating_sum: sql`rating_sum + ${r.rating}` })
      .where("id", "=", r.subject_id)
      .execute();
    await countInServiceRating(trx, r, 1);
  }
}

/**
 * A published review of the freelancer of a service's order counts in that service's rating too
 * (`sign` -1: an operator hid it): one UPDATE, which finds no service for any other contract.
 */
export async function countInServiceRating(trx: Kysely<Database>, r: Counted, sign: 1 | -1) {
  await trx
    .updateTable("services")
    .set({
      rating_count: sql<number>`rating_count + ${sign}`,
      rating_sum: sql<number>`rating_sum + ${sign * r.rating}`,
    })
    .where("id", "=", (eb) =>
      eb
        .selectFrom("service_orders")
        .select("service_orders.service_id")
        .where("service_orders.id", "=", r.contract_id)
        .where("service_orders.freelancer_id", "=", r.subject_id),
    )
    .execute();
}

/**
 * Writes the viewer's review of the other side: 201-worthy ReviewJson; 404 for someone else's
 * contract; 409 when the contract cannot be reviewed (not ended, cancelled before any delivery),
 * the window is over, or the viewer already wrote one. When it is the second review, both are
 * published at once.
 */
export async function writeReview(user: UserRow, contractId: string, input: unknown): Promise<ReviewJson> {
  // The body is checked before the contract is looked at, as every contract move does.
  const data = parseInput(reviewInputSchema, input, "review_failed");
  const { contract, party } = await contractOf(user, contractId);
  const { eligible, closes_at } = reviewWindow(contract);
  if (!eligible) throw new AppError(409, "review_not_allowed");
  const at = now();
  if (at >= closes_at!) throw new AppError(409, "review_window_closed");
  await consumeWrite(user.id);
  const id = randomUUID();
  const subject = party === "merchant" ? contract.freelancer_id : contract.merchant_id;
  await oneOnly("reviews", new AppError(409, "review_exists"), () =>
    transaction(async (trx) => {
      // The contract row first: the other side's review, written at the same moment, waits here
      // and then sees this one (PostgreSQL locks the row; SQLite writes one at a time).
      const counted = await trx
        .updateTable("contracts")
        .set({ reviews_count: sql`reviews_count + 1` })
        .where("id", "=", contractId)
        .where("ended_at", "=", contract.ended_at)
        .where("status", "=", contract.status)
        .returning("reviews_count")
        .executeTakeFirst();
      if (!counted) throw new AppError(409, "review_not_allowed");
      await trx
        .insertInto("reviews")
        .values({
          id,
          contract_id: contractId,
          author_id: user.id,
          subject_id: subject,
          author_role: party,
          rating: data.rating,
          comment: data.comment,
          reply: null,
          replied_at: null,
          publish_due_at: closes_at!,
          published_at: null,
          created_at: at,
        })
        .execute();
      if (Number(counted.reviews_count) >= 2) {
        const published = await trx
          .updateTable("reviews")
          .set({ published_at: at })
          .where("contract_id", "=", contractId)
          .where("published_at", "is", null)
          .returning(["subject_id", "rating", "contract_id"])
          .execute();
        await countInRatings(trx, published);
      }
      await notify(trx, {
        user_id: subject,
        kind: "contract_reviewed",
        application_id: contractId,
        opportunity_id: contract.opportunity_id,
      });
    }),
  );
  return toReviewJson(await reviewRows().where("r.id", "=", id).executeTakeFirstOrThrow(), user.id);
}

/**
 * Publishes the hidden reviews whose window is over (at `publish_due_at`, not later, whenever
 * this runs). Every server process runs it with the contract schedule: each review is a
 * conditional UPDATE in its own transaction, so it is published and counted once.
 */
export async function publishDueReviews(at = new Date()): Promise<number> {
  const stamp = at.toISOString();
  const due = await db
    .selectFrom("reviews")
    .select("id")
    .where("published_at", "is", null)
    .where("publish_due_at", "<=", stamp)
    .limit(PUBLISH_BATCH)
    .execute();
  let published = 0;
  for (const { id } of due) {
    const done = await transaction(async (trx) => {
      const row = await trx
        .updateTable("reviews")
        .set({ published_at: sql`publish_due_at` })
        .where("id", "=", id)
        .where("published_at", "is", null)
        .where("publish_due_at", "<=", stamp)
        .returning(["subject_id", "rating", "contract_id"])
        .executeTakeFirst();
      if (!row) return false;
      await countInRatings(trx, [row]);
      return true;
    });
    if (done) published++;
  }
  return published;
}

/** The reviewed person's one public reply to a published review: 404 unless it is theirs and published, 409 once replied. */
export async function replyToReview(user: UserRow, reviewId: string, input: unknown): Promise<ReviewJson> {
  assertId(reviewId);
  const data = parseInput(replyInputSchema, input, "review_reply_failed");
  await consumeWrite(user.id);
  const updated = await db
    .updateTable("reviews")
    .set({ reply: data.reply, replied_at: now() })
    .where("id", "=", reviewId)
    .where("subject_id", "=", user.id)
    .where("published_at", "is not", null)
    .where("reply", "is", null)
    .executeTakeFirst();
  const row = await reviewRows().where("r.id", "=", reviewId).where("r.subject_id", "=", user.id).executeTakeFirst();
  if (!row?.published_at) throw new AppError(404, "not_found");
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "review_reply_exists");
  return toReviewJson(row, user.id);
}

/** The most a service's page lists of the reviews of its orders. */
export const SERVICE_REVIEWS_SHOWN = 10;

/**
 * The published reviews of a service's freelancer by those who bought it (its orders' contracts),
 * newest first, at most SERVICE_REVIEWS_SHOWN: one statement. Hidden ones are left out, as from
 * the rating.
 */
export async function serviceReviews(serviceId: string): Promise<ReviewJson[]> {
  const rows = await reviewRows()
    .innerJoin("service_orders as so", "so.id", "r.contract_id")
    .where("so.service_id", "=", serviceId)
    .whereRef("r.subject_id", "=", "so.freelancer_id")
    .where("r.published_at", "is not", null)
    .where("r.hidden_at", "is", null)
    .orderBy("r.published_at", "desc")
    .orderBy("r.id", "desc")
    .limit(SERVICE_REVIEWS_SHOWN)
    .execute();
  return rows.map((r) => toReviewJson(r));
}

export type UserReviewJson = ReviewJson & { opportunity_title: string };

/** A user's published reviews, newest first, one page: two queries. 404 if there is no such user. */
export async function listUserReviews(
  userId: string,
  query: unknown,
): Promise<{ data: UserReviewJson[]; meta: PageMeta; rating: Rating }> {
  assertId(userId);
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const [subject, rows] = await Promise.all([
    db.selectFrom("users").select(["rating_count", "rating_sum"]).where("id", "=", userId).executeTakeFirst(),
    reviewRows()
      .innerJoin("contracts as c", "c.id", "r.contract_id")
      .innerJoin("opportunities as o", "o.id", "c.opportunity_id")
      .select("o.title as opportunity_title")
      .where("r.subject_id", "=", userId)
      .where("r.published_at", "is not", null)
      // Hidden by an operator: out of the list, as out of the rating.
      .where("r.hidden_at", "is", null)
      .orderBy("r.published_at", "desc")
      .orderBy("r.id", "desc")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute(),
  ]);
  if (!subject) throw new AppError(404, "not_found");
  const rating = ratingOf(subject);
  return {
    data: rows.map((r) => ({ ...toReviewJson(r), opportunity_title: r.opportunity_title })),
    meta: pageMeta(page, per_page, rating.count),
    rating,
  };
}
