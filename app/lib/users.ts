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
