// A sitemap page written in pieces (app/lib/sitemap.ts): the same document as the page written
// whole, the pieces read one at a time as the reader asks, a page with nothing shown a 404.
import { describe, expect, it, vi } from "vitest";
import { joined, URLSET_CLOSE, URLSET_OPEN, urlsetPieces } from "~/lib/sitemap";

/** `<url>` lines for the shown keys in (from, to], or null. */
const linesOf = (shown: number[]) =>
  vi.fn(async (from: number, to: number) => {
    const keys = shown.filter((k) => k > from && k <= to);
    return keys.length ? keys.map((k) => `<url><loc>https://x/${k}</loc></url>`).join("\n") : null;
  });

describe("a sitemap page in pieces", () => {
  it("is the page's document: each shown key of its range once, in order, across pieces", async () => {
    const shown = [3, 4, 12, 25, 26, 40, 55];
    const lines = linesOf(shown);
    const xml = await joined(await urlsetPieces(10, 40, lines, 7));
    const expected = [12, 25, 26, 40].map((k) => `<url><loc>https://x/${k}</loc></url>`).join("\n");
    expect(xml).toBe(`${URLSET_OPEN}${expected}\n${URLSET_CLOSE}`);
    // (10, 17], (17, 24], … (45, 50]: the last piece stops at the page's end.
    expect(lines.mock.calls).toEqual([
      [10, 17],
      [17, 24],
      [24, 31],
      [31, 38],
      [38, 45],
      [45, 50],
    ]);
  });

  it("reads the first piece with lines before answering, and each further piece when asked", async () => {
    const lines = linesOf([30, 60, 90]);
    const pieces = (await urlsetPieces(0, 100, lines, 20))![Symbol.asyncIterator]();
    // (0, 20] is empty: the answer starts with (20, 40].
    expect(lines).toHaveBeenCalledTimes(2);
    expect((await pieces.next()).value).toContain("https://x/30");
    expect(lines).toHaveBeenCalledTimes(2);
    // (40, 60] holds 60.
    expect((await pieces.next()).value).toContain("https://x/60");
    expect(lines).toHaveBeenCalledTimes(3);
  });

  it("is none when no key of the range is shown (404)", async () => {
    const lines = linesOf([5, 150]);
    expect(await urlsetPieces(10, 100, lines, 30)).toBeNull();
    expect(lines).toHaveBeenCalledTimes(4);
    expect(await joined(null)).toBeNull();
  });
});
