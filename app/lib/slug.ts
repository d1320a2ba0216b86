// The readable part of a public address (`/vagas/<slug>-<id>`, `/perfil/<slug>-<id>`). Pure: the
// opportunity's write path stores it (opportunities.slug) and the public pages compute it.

/** Each letter outside ASCII as ASCII letters and digits ("ã" → "a", "ß" → "ss", "日" → ""), worked out once. */
const folded = new Map<string, string>();
function fold(ch: string) {
  let ascii = folded.get(ch);
  if (ascii === undefined) {
    ascii = ch
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
    if (folded.size < 10_000) folded.set(ch, ascii);
  }
  return ascii;
}

/**
 * The readable part of a public address: lower-case ASCII words joined by "-", at most about 80
 * characters. One pass over the text (a sitemap page makes 50 000 of them).
 */
export function slugify(text: string, fallback: string): string {
  const lower = text.toLowerCase();
  let slug = "";
  let gap = false;
  for (let i = 0; i < lower.length && slug.length < 80; i++) {
    const c = lower.charCodeAt(i);
    const piece =
      (c >= 97 && c <= 122) || (c >= 48 && c <= 57)
        ? lower[i]!
        : c < 128
          ? ""
          : fold(String.fromCodePoint(lower.codePointAt(i)!));
    if (c >= 0xd800 && c <= 0xdbff) i++;
    if (!piece) {
      gap = true;
      continue;
    }
    if (gap && slug) slug += "-";
    gap = false;
    slug += piece;
  }
  return slug || fallback;
}

/** An opportunity's slug, from its title: what opportunities.slug holds and its public address uses. */
export const opportunitySlug = (title: string) => slugify(title, "vaga");
