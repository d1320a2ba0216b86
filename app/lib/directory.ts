// The directory's search columns, kept by the services beside the profile they are made from.
// Text is folded the same way on both engines before it is stored or searched: NFKD, combining
// marks removed, lower case. So "José", "JOSE" and "jose" are one word on SQLite and PostgreSQL
// alike, with no collation or extension involved.
import { displayNameOf } from "./users";

export function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

const MAX_QUERY_WORDS = 8;

/** The searchable words of a text: runs of letters and digits, folded, each once. */
export function foldedWords(text: string): string[] {
  return [...new Set(fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** The words of a directory search, at most 8 (the rest are ignored). */
export function queryWords(text: string): string[] {
  return foldedWords(text).slice(0, MAX_QUERY_WORDS);
}

/** A skill or city as a key: folded, inner spaces collapsed, `|` (the skills separator) dropped. */
export function foldKey(text: string): string {
  return fold(text).replace(/\|/g, " ").replace(/\s+/g, " ").trim();
}

type Profile = { full_name: string; display_name: string | null; bio: string; skills: string[]; city: string | null };

/**
 * The derived columns of a user:
 * - search_text: every word of the names, bio and skills, space-separated with a space at
 *   both ends, so `LIKE '% word%'` finds a word by its beginning;
 * - search_skills: the skills as keys between bars (`|react|node.js|`), matched whole;
 * - search_city: the city as a key, matched whole;
 * - sort_name: the name shown, folded, so sorting by name is the same on both engines.
 */
export function directoryColumns(p: Profile) {
  const name = displayNameOf(p);
  const words = foldedWords([p.full_name, p.display_name ?? "", p.bio, p.skills.join(" ")].join(" "));
  const skills = p.skills.map(foldKey).filter(Boolean);
  return {
    search_text: ` ${words.join(" ")} `,
    search_skills: `|${skills.join("|")}|`,
    search_city: p.city ? foldKey(p.city) : null,
    sort_name: foldKey(name),
  };
}

/**
 * The directory's orders: relevance (the default of a text search: the words found in the name
 * first, then in the skills, then anywhere), proven freelancers first (completed contracts, then
 * rating: the default without text), newest, name, rating, contracts.
 */
/** The directory's query parameters, as its pages read them from the URL. */
export const DIRECTORY_FILTERS = ["q", "skill", "city", "remote", "verified", "min_rating", "sort", "page"] as const;

export const DIRECTORY_SORTS = ["relevance", "proven", "newest", "name", "rating", "contracts"] as const;

/** The order of a directory search when none is chosen: relevance with text, proven without. */
export const defaultDirectorySort = (q: string | undefined) => (q?.trim() ? "relevance" : "proven");

/** The minimum-rating filter's choices. */
export const MIN_RATINGS = ["4.5", "4", "3"] as const;
