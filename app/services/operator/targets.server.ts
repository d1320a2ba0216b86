import { countInServiceRating } from "../reputation/reviews.server";
import { sql, type Kysely } from "kysely";
import { REPORT_TARGETS, type ModerationDetail, type ReportTargetType } from "~/lib/moderation";
import type { Database } from "../../../db/schema";
import { AppError } from "../platform/errors.server";
import { UUID, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { opportunitiesChanged } from "../marketplace/search-generation.server";

// What can be reported and hidden: an opportunity, a profile, a message, a review, a reply or a
// ready-made service.
// Each kind says who wrote it, who may see (and so report) it, and how it is hidden and shown
// again. Hiding keeps the row and records when and why; every list and page that showed the
// content leaves it out (or, for a message, shows that it was hidden), and its author is told.

export type TargetRef = { type: ReportTargetType; id: string };

export type Target = TargetRef & {
  /** Whose content it is. */
  author_id: string;
  hidden: boolean;
  hidden_reason: string | null;
  /** For the author's notice and its link: the conversation or contract, and the opportunity. */
  application_id: string | null;
  opportunity_id: number | null;
  /** Who may see it, and so report it. */
  visibleTo: (userId: string) => boolean;
  /** What the author's notice adds to name it when no opportunity does (a service: its id and title). */
  notice?: Pick<ModerationDetail, "service_id" | "service_title">;
};

/** Ids in a target reference are uuids (an opportunity's public id, a user's, a message's, a review's, a service's). */
export function assertTargetRef(ref: { type: string; id: string }): asserts ref is TargetRef {
  if (!(REPORT_TARGETS as readonly string[]).includes(ref.type) || !UUID.test(ref.id)) {
    throw new AppError(404, "not_found");
  }
}

/** The target, or null when it does not exist. */
export async function loadTarget(database: Kysely<Database>, ref: TargetRef): Promise<Target | null> {
  switch (ref.type) {
    case "opportunity": {
      const o = await database
        .selectFrom("opportunities")
        .select(["id", "merchant_id", "status", "hidden_at", "hidden_reason", "held_at"])
        .where("uuid", "=", ref.id)
        .executeTakeFirst();
      if (!o) return null;
      return {
        ...ref,
        author_id: o.merchant_id,
        hidden: o.hidden_at !== null,
        hidden_reason: o.hidden_reason,
        application_id: null,
        opportunity_id: o.id,
        // Freelancers see the open opportunities (and those they applied to); held ones nobody but its owner.
        visibleTo: (userId) => o.hidden_at === null && o.held_at === null && userId !== o.merchant_id,
      };
    }
    case "profile": {
      const u = await database
        .selectFrom("users")
        .select(["id", "account_type", "profile_hidden_at", "profile_hidden_reason"])
        .where("id", "=", ref.id)
        .where("account_type", "in", ["merchant", "freelancer"])
        .executeTakeFirst();
      if (!u) return null;
      return {
        ...ref,
        author_id: u.id,
        hidden: u.profile_hidden_at !== null,
        hidden_reason: u.profile_hidden_reason,
        application_id: null,
        opportunity_id: null,
        visibleTo: (userId) => u.profile_hidden_at === null && userId !== u.id,
      };
    }
    case "message": {
      const m = await database
        .selectFrom("messages as m")
        .innerJoin("applications as a", "a.id", "m.application_id")
        .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
        .select([
          "m.author",
          "m.hidden_at",
          "m.hidden_reason",
          "m.application_id",
          "a.opportunity_id",
          "a.freelancer_id",
          "o.merchant_id",
        ])
        .where("m.id", "=", ref.id)
        .executeTakeFirst();
      if (!m) return null;
      const author = m.author === "freelancer" ? m.freelancer_id : m.merchant_id;
      const other = m.author === "freelancer" ? m.merchant_id : m.freelancer_id;
      return {
        ...ref,
        author_id: author,
        hidden: m.hidden_at !== null,
        hidden_reason: m.hidden_reason,
        application_id: m.application_id,
        opportunity_id: m.opportunity_id,
        // Only the other side of the conversation reads it.
        visibleTo: (userId) => m.hidden_at === null && userId === other,
      };
    }
    case "review":
    case "reply": {
      const r = await database
        .selectFrom("reviews as r")
        .innerJoin("contracts as c", "c.id", "r.contract_id")
        .select([
          "r.author_id",
          "r.subject_id",
          "r.reply",
          "r.published_at",
          "r.hidden_at",
          "r.hidden_reason",
          "r.reply_hidden_at",
          "r.reply_hidden_reason",
          "r.contract_id",
          "c.opportunity_id",
        ])
        .where("r.id", "=", ref.id)
        .executeTakeFirst();
      if (!r || (ref.type === "reply" && r.reply === null)) return null;
      const review = ref.type === "review";
      // A published review (and its reply) is public: on profiles, to anyone signed in.
      const shown = r.published_at !== null && r.hidden_at === null && (review || r.reply_hidden_at === null);
      const author = review ? r.author_id : r.subject_id;
      return {
        ...ref,
        author_id: author,
        hidden: review ? r.hidden_at !== null : r.reply_hidden_at !== null,
        hidden_reason: review ? r.hidden_reason : r.reply_hidden_reason,
        application_id: r.contract_id,
        opportunity_id: r.opportunity_id,
        visibleTo: (userId) => shown && userId !== author,
      };
    }
    case "service": {
      const sv = await database
        .selectFrom("services as s")
        .innerJoin("users as u", "u.id", "s.freelancer_id")
        .select([
          "s.freelancer_id",
          "s.title",
          "s.status",
          "s.hidden_at",
          "s.hidden_reason",
          "u.deleted_at",
          "u.banned_at",
          "u.suspended_until",
        ])
        .where("s.id", "=", ref.id)
        .executeTakeFirst();
      if (!sv) return null;
      const at = now();
      // Anyone sees a published service while no operator hid it and its freelancer is active.
      const shown =
        sv.status === "published" &&
        sv.hidden_at === null &&
        sv.deleted_at === null &&
        sv.banned_at === null &&
        (sv.suspended_until === null || sv.suspended_until <= at);
      return {
        ...ref,
        author_id: sv.freelancer_id,
        hidden: sv.hidden_at !== null,
        hidden_reason: sv.hidden_reason,
        application_id: null,
        opportunity_id: null,
        visibleTo: (userId) => shown && userId !== sv.freelancer_id,
        notice: { service_id: ref.id, service_title: sv.title },
      };
    }
  }
}

/** Tells the author what was hidden or shown again, and why. */
async function tellAuthor(
  trx: Kysely<Database>,
  target: Target,
  kind: "moderation_hidden" | "moderation_restored",
  reason: string,
) {
  await notify(trx, {
    user_id: target.author_id,
    kind,
    application_id: target.application_id,
    opportunity_id: target.opportunity_id,
    detail: { what: target.type, reason, ...target.notice },
  });
}

/**
 * Hides the target (in the caller's transaction) and tells its author why. Returns false when it
 * was hidden already (nothing changes). A review leaves its subject's rating.
 */
export async function hideTarget(trx: Kysely<Database>, target: Target, reason: string, at: string) {
  const changed = await setHidden(trx, target, { at, reason });
  if (changed) await tellAuthor(trx, target, "moderation_hidden", reason);
  return changed;
}

/** Shows the target again and tells its author. Returns false when it was not hidden. */
export async function restoreTarget(trx: Kysely<Database>, target: Target, reason: string) {
  const changed = await setHidden(trx, target, null);
  if (target.type === "opportunity") opportunitiesChanged();
  if (changed) await tellAuthor(trx, target, "moderation_restored", reason);
  return changed;
}

/** The one UPDATE that hides (`hide`) or shows again (null) each kind, only from the other state. */
async function setHidden(trx: Kysely<Database>, target: Target, hide: { at: string; reason: string } | null) {
  const at = hide?.at ?? null;
  const reason = hide?.reason ?? null;
  switch (target.type) {
    case "opportunity": {
      const r = await trx
        .updateTable("opportunities")
        .set({ hidden_at: at, hidden_reason: reason })
        .where("uuid", "=", target.id)
        .where("hidden_at", hide ? "is" : "is not", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
    case "profile": {
      // The photo shows wherever the person appears: it is set aside while the profile is hidden
      // (a photo uploaded meanwhile stays; the one set aside is then dropped).
      const r = await trx
        .updateTable("users")
        .set(
          hide
            ? {
                profile_hidden_at: at,
                profile_hidden_reason: reason,
                hidden_photo_path: sql<string | null>`photo_path`,
                photo_path: null,
              }
            : {
                profile_hidden_at: null,
                profile_hidden_reason: null,
                photo_path: sql<string | null>`coalesce(photo_path, hidden_photo_path)`,
                hidden_photo_path: null,
              },
        )
        .where("id", "=", target.id)
        .where("profile_hidden_at", hide ? "is" : "is not", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
    case "message": {
      const r = await trx
        .updateTable("messages")
        .set({ hidden_at: at, hidden_reason: reason })
        .where("id", "=", target.id)
        .where("hidden_at", hide ? "is" : "is not", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
    case "review": {
      const r = await trx
        .updateTable("reviews")
        .set({ hidden_at: at, hidden_reason: reason })
        .where("id", "=", target.id)
        .where("hidden_at", hide ? "is" : "is not", null)
        .returning(["subject_id", "rating", "published_at", "contract_id"])
        .executeTakeFirst();
      if (!r) return false;
      // Published reviews make the subject's rating (users.rating_count, rating_sum): a hidden one leaves it.
      if (r.published_at !== null) {
        const sign = hide ? -1 : 1;
        await trx
          .updateTable("users")
          .set({
            rating_count: sql<number>`rating_count + ${sign}`,
            rating_sum: sql<number>`rating_sum + ${sign * r.rating}`,
          })
          .where("id", "=", r.subject_id)
          .execute();
        await countInServiceRating(trx, r, sign);
      }
      return true;
    }
    case "reply": {
      const r = await trx
        .updateTable("reviews")
        .set({ reply_hidden_at: at, reply_hidden_reason: reason })
        .where("id", "=", target.id)
        .where("reply", "is not", null)
        .where("reply_hidden_at", hide ? "is" : "is not", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
    case "service": {
      const r = await trx
        .updateTable("services")
        .set({ hidden_at: at, hidden_reason: reason })
        .where("id", "=", target.id)
        .where("hidden_at", hide ? "is" : "is not", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
  }
}
