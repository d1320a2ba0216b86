// A sitemap page's XML (the sitemaps.org protocol), written in pieces.

export const URLSET_OPEN = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
export const URLSET_CLOSE = `</urlset>\n`;

/** Keys per piece of a sitemap page: ~1 MB of XML at a time, whatever the page's size. */
export const SITEMAP_PIECE = 5_000;

/**
 * A sitemap page of the `size` keys after `first`, read `piece` keys at a time by `lines` (the
 * `<url>` lines of keys (from, to], or null when none is shown): the urlset's opening with the
 * first piece that has lines, then each further piece when the reader asks for it, then the
 * closing. A page is never held whole (50 000 addresses are ~10 MB). Null when no piece has a line
 * (the page is a 404).
 */
export async function urlsetPieces(
  first: number,
  size: number,
  lines: (from: number, to: number) => Promise<string | null>,
  piece = SITEMAP_PIECE,
): Promise<AsyncIterable<string> | null> {
  const end = first + size;
  const next = (from: number) => lines(from, Math.min(from + piece, end));
  let from = first;
  let head: string | null = null;
  for (; head === null && from < end; from += piece) head = await next(from);
  if (head === null) return null;
  const opening = head;
  return (async function* () {
    yield `${URLSET_OPEN}${opening}\n`;
    for (; from < end; from += piece) {
      const lines = await next(from);
      if (lines !== null) yield `${lines}\n`;
    }
    yield URLSET_CLOSE;
  })();
}

/** A sitemap page's pieces joined into one string (small pages, tests), or null. */
export async function joined(pieces: AsyncIterable<string> | null): Promise<string | null> {
  if (!pieces) return null;
  let xml = "";
  for await (const part of pieces) xml += part;
  return xml;
}
