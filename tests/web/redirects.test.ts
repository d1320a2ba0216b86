import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/web/redirects.server";

// Every redirect taken from input goes through safeRedirect: what it returns must be a path of
// this site as a browser reads it (dot segments resolved, escapes decoded), or the fallback.
describe("safeRedirect", () => {
  const kept: [string, string][] = [
    ["/", "/"],
    ["/opportunities", "/opportunities"],
    ["/opportunities?q=site&page=2", "/opportunities?q=site&page=2"],
    ["/applications/abc/messages#latest", "/applications/abc/messages#latest"],
    ["/a/./b/../c", "/a/c"],
    ["/busca?q=a//b", "/busca?q=a//b"],
    ["/caf%C3%A9", "/caf%C3%A9"],
    ["/café", "/caf%C3%A9"],
    ["/a%2Fb", "/a%2Fb"],
  ];
  it.each(kept)("keeps %j as %j", (to, out) => expect(safeRedirect(to, "/fallback")).toBe(out));

  const refused = [
    // Dot segments that resolve to another host.
    "/.//evil.com",
    "/..//evil.com",
    "/./..//evil.com",
    "/a/../..//evil.com",
    "/%2e//evil.com",
    "/%2e%2e//evil.com",
    "/%2E%2E//evil.com",
    "/.%2e//evil.com",
    // Protocol-relative and backslashes (browsers read \ as /).
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/\\/evil.com",
    "/%5Cevil.com",
    "/%5C%5Cevil.com",
    "/%2F%2Fevil.com",
    "/%2f/evil.com",
    // Control characters that URL parsers drop.
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\n/evil.com",
    "/\u0000/evil.com",
    "/%09/evil.com",
    "/%00",
    "/\u0085x",
    // Absolute URLs and other schemes.
    "https://evil.com",
    "http:evil.com",
    "http:/evil.com",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    " /opportunities",
    "evil.com",
    "",
    // Broken escapes and the absurd.
    "/%E0%A4%A",
    "/%",
    `/${"x".repeat(3000)}`,
  ];
  it.each(refused)("refuses %j", (to) => expect(safeRedirect(to, "/fallback")).toBe("/fallback"));

  it("refuses what is not a string", () => {
    for (const to of [null, undefined, new Blob(["/x"])]) expect(safeRedirect(to as never, "/f")).toBe("/f");
  });

  it("never returns a path a browser would read as another host", () => {
    const pieces = ["/", "//", "\\", ".", "..", "%2e", "%2f", "%5c", "evil.com", "\t", "a", "?", "#"];
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const out = safeRedirect(`/${a}${b}${c}`, "/f");
          expect(out, `/${a}${b}${c}`).toMatch(/^\/(?![/\\])/);
          expect(new URL(out, "https://freela.example").host).toBe("freela.example");
        }
  });
});
