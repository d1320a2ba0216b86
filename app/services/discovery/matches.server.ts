import { foldKey } from "~/lib/directory";
import { parseTags } from "~/lib/users";
import { pageQuerySchema } from "~/lib/market-schemas";
import { sql } from "kysely";
import { db } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { getOpportunity, opportunitiesInOrder, type OpportunityJson } from "../marketplace/opportunities.server";
import {
  byRating,
  completedContracts,
  directoryFreelancers,
  hasSkill,
  PROFILE_COLUMNS,
  toPublicProfile,
  type PublicProfileJson,
} from "../reputation/profiles.server";
import { publicOnly, selectServices, toServiceJson, type ServiceJson } from "../catalog/services.server";
import { AppError, parseInput } from "../platform/errors.server";
import { now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";

// "Para você" (docs/product.md, "Para você"): open opportunities for a freelancer, ranked by what
// they have in common with the freelancer's profile and history. The MATCH_CANDIDATES newest open
// opportunities the freelancer has not applied to are scored in the process (a skill in common
// weighs 3, a category they applied in before 2, their own city for on-site or hybrid work 1);
// those with nothing in common are left out; ties go to the newest. Three statements whatever
// the page: the categories of their applications, the candidates' few columns, and the page.

export const MATCH_CANDIDATES = 500;
export const MATCH_WEIGHTS = { skill: 3, category: 2, city: 1 } as const;

type Candidate = { id: number; skills: string; category: string; location_type: string; city: string | null };
type Profile = { skills: Set<string>; categories: Set<string>; city: string | null };

/** How much an opportunity has in common with a freelancer (0: nothing). */
export function matchScore(candidate: Omit<Candidate, "id">, profile: Profile): number {
  let score = 0;
  for (const skill of parseTags(candidate.skills)) if (profile.skills.has(foldKey(skill))) score += MATCH_WEIGHTS.skill;
  if (profile.categories.has(candidate.category)) score += MATCH_WEIGHTS.category;
  if (
    candidate.location_type !== "remote" &&
    profile.city &&
    candidate.city &&
    foldKey(candidate.city) === profile.city
  ) {
    score += MATCH_WEIGHTS.city;
  }
  return score;
}

export async function recommendedOpportunities(
  user: UserRow,
  query: unknown,
): Promise<{ data: OpportunityJson[]; meta: PageMeta }> {
  if (user.account_type !== "freelancer") throw new AppError(403, "forbidden_role");
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const [history, candidates] = await Promise.all([
    db
      .selectFrom("applications as a")
      .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
      .select("o.category")
      .distinct()
      .where("a.freelancer_id", "=", user.id)
      .execute(),
    db
      .selectFrom("opportunities as o")
      .leftJoin("applications as mine", (join) =>
        join.onRef("mine.opportunity_id", "=", "o.id").on("mine.freelancer_id", "=", user.id),
      )
      .select(["o.id", "o.skills", "o.category", "o.location_type", "o.city"])
      .where("o.status", "=", "open")
      .where("o.hidden_at", "is", null)
      .where("o.held_at", "is", null)
      .where("mine.id", "is", null)
      .orderBy("o.id", "desc")
      .limit(MATCH_CANDIDATES)
      .execute(),
  ]);
  const profile: Profile = {
    skills: new Set(parseTags(user.skills).map(foldKey).filter(Boolean)),
    categories: new Set(history.map((h) => h.category)),
    city: user.city ? foldKey(user.city) : null,
  };
  const ranked = candidates
    .map((c) => ({ id: Number(c.id), score: matchScore(c, profile) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || b.id - a.id);
  const ids = ranked.slice(offsetOf(page, per_page), offsetOf(page, per_page) + per_page).map((c) => c.id);
  return { data: await opportunitiesInOrder(user, ids), meta: pageMeta(page, per_page, ranked.length) };
}

// ---------------------------------------------------------------------------------------------
// The merchant's side: ready-made services for them

/** How many of a merchant's newest opportunities tell what they hire. */
export const MERCHANT_HISTORY = 50;

/**
 * "Para você" for a merchant (docs/product.md, "Serviços prontos"): published services ranked by
 * what they share with the skills and categories of the merchant's MERCHANT_HISTORY newest
 * opportunities (their orders' too), scored as a freelancer's opportunities are (a skill in
 * common 3, the category 2) among the MATCH_CANDIDATES newest public services; nothing in common,
 * left out; ties to the newest. Three statements whatever the page (the history, the candidates'
 * few columns, the page); one for a merchant who never posted an opportunity.
 */
export async function recommendedServices(
  user: UserRow,
  query: unknown,
): Promise<{ data: ServiceJson[]; meta: PageMeta }> {
  if (user.account_type !== "merchant") throw new AppError(403, "forbidden_role");
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const history = await db
    .selectFrom("opportunities")
    .select(["skills", "category"])
    .where("merchant_id", "=", user.id)
    .orderBy("id", "desc")
    .limit(MERCHANT_HISTORY)
    .execute();
  if (!history.length) return { data: [], meta: pageMeta(page, per_page, 0) };
  const profile: Profile = {
    skills: new Set(history.flatMap((h) => parseTags(h.skills).map(foldKey)).filter(Boolean)),
    categories: new Set(history.map((h) => h.category)),
    city: null,
  };
  const at = now();
  const candidates = await publicOnly(selectServices(), at)
    .clearSelect()
    .select(["services.seq", "services.skills", "services.category"])
    .orderBy("services.seq", "desc")
    .limit(MATCH_CANDIDATES)
    .execute();
  // Services are delivered remotely: only skills and category count.
  const ranked = candidates
    .map((c) => ({ seq: Number(c.seq), score: matchScore({ ...c, location_type: "remote", city: null }, profile) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || b.seq - a.seq);
  const seqs = ranked.slice(offsetOf(page, per_page), offsetOf(page, per_page) + per_page).map((c) => c.seq);
  const rows = seqs.length ? await publicOnly(selectServices(), at).where("services.seq", "in", seqs).execute() : [];
  const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
  const data = seqs.flatMap((seq) => {
    const row = bySeq.get(seq);
    return row ? [toServiceJson(row, user)] : [];
  });
  return { data, meta: pageMeta(page, per_page, ranked.length) };
}

// ---------------------------------------------------------------------------------------------
// The merchant's side: freelancers for an opportunity

/** How many freelancers an opportunity's page suggests. */
export const SUGGESTIONS = 5;

export type SuggestedFreelancer = PublicProfileJson & { skills_in_common: number };

/**
 * Freelancers to invite to one of the merchant's open opportunities: those of the directory who
 * have at least one of its skills, most skills in common first, then the rating (rated first, best
 * average, most ratings), then completed contracts; not those who applied or were invited already.
 * One statement (the skills are matched on users.search_skills, as the directory's skill filter).
 */
export async function suggestFreelancers(
  opportunity: Pick<OpportunityJson, "uuid" | "skills" | "status">,
): Promise<SuggestedFreelancer[]> {
  const skills = [...new Set(opportunity.skills.map(foldKey).filter(Boolean))].slice(0, 15);
  if (opportunity.status !== "open" || skills.length === 0) return [];
  const inCommon = sql<number>`(${sql.join(
    skills.map((skill) => sql`CASE WHEN ${hasSkill(skill)} THEN 1 ELSE 0 END`),
    sql` + `,
  )})`;
  const opportunityId = db.selectFrom("opportunities").select("id").where("uuid", "=", opportunity.uuid);
  const rows = await byRating(
    directoryFreelancers(now())
      .select(PROFILE_COLUMNS)
      .select(completedContracts.as("completed_contracts"))
      .select(inCommon.as("skills_in_common"))
      .where((eb) => eb.or(skills.map(hasSkill)))
      .where(
        "users.id",
        "not in",
        db.selectFrom("applications").select("freelancer_id").where("opportunity_id", "in", opportunityId),
      )
      .where(
        "users.id",
        "not in",
        db.selectFrom("invitations").select("freelancer_id").where("opportunity_id", "in", opportunityId),
      )
      .orderBy(sql`skills_in_common`, "desc"),
  )
    .orderBy(sql`completed_contracts`, "desc")
    .orderBy("users.id")
    .limit(SUGGESTIONS)
    .execute();
  return rows.map((row) => ({ ...toPublicProfile(row), skills_in_common: Number(row.skills_in_common) }));
}

/** The suggestions of GET /api/opportunities/:uuid/suggestions: the owner's only (404 to another merchant, 403 to a freelancer). */
export async function suggestionsFor(user: UserRow, uuid: string): Promise<{ data: SuggestedFreelancer[] }> {
  if (user.account_type !== "merchant") throw new AppError(403, "forbidden_role");
  const opportunity = await getOpportunity(user, uuid);
  if (opportunity.merchant.id !== user.id) throw new AppError(404, "not_found");
  return { data: await suggestFreelancers(opportunity) };
}
