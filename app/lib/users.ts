// What both sides read off a user, with no database or server code: the seed and the pages use
// it as the services do.

/** A user's skills (stored as a JSON array of strings); anything else reads as none. */
export function parseTags(json: string): string[] {
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
  } catch {
    return [];
  }
}

type Named = { display_name?: string | null; full_name?: string | null };

/** The name to show for a person: the display name they chose, else their full name. */
export function displayNameOf(user: Named & { full_name: string }): string;
export function displayNameOf(user: Named | null | undefined): string | null;
export function displayNameOf(user: Named | null | undefined): string | null {
  return user?.display_name || user?.full_name || null;
}
