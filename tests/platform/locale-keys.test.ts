import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "~/lib/i18n";

// Every language holds every text: a key in one language's file and not in another's would show
// its key (or the fallback language) to someone. And each translation takes the same values
// ({{name}}, {{count}}…) as the Portuguese, so no value is dropped or asked for in vain.

const DIR = "public/locales";
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A namespace's texts by their dotted key, plural forms under their base key. */
function texts(lng: string, file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (value && typeof value === "object" && !Array.isArray(value))
        walk(value as Record<string, unknown>, `${prefix}${key}.`);
      else {
        const base = `${prefix}${key}`.replace(PLURAL, "");
        out.set(base, [...(out.get(base) ?? []), String(value)]);
      }
    }
  };
  walk(JSON.parse(readFileSync(join(DIR, lng, file), "utf8")), "");
  return out;
}

/** The values a text asks for: {{name}}, {{count}}, $t(…) nestings. */
const valuesOf = (variants: string[]) =>
  [
    ...new Set(
      variants.flatMap((t) => [...t.matchAll(/\{\{\s*-?\s*([\w.]+)[^}]*\}\}|\$t\(([^,)]+)/g)].map((m) => m[1] ?? m[2])),
    ),
  ]
    .filter((v) => v !== "count")
    .sort();

const files = readdirSync(join(DIR, "pt-BR")).sort();

describe("translations", () => {
  it("every language has the same namespaces", () => {
    for (const lng of supportedLngs) expect(readdirSync(join(DIR, lng)).sort(), lng).toEqual(files);
  });

  for (const file of files) {
    it(`${file}: the same keys in every language, each asking for the same values`, () => {
      const reference = texts("pt-BR", file);
      expect(reference.size).toBeGreaterThan(0);
      for (const lng of supportedLngs.filter((l) => l !== "pt-BR")) {
        const other = texts(lng, file);
        expect(
          [...reference.keys()].filter((k) => !other.has(k)),
          `only in pt-BR, not in ${lng}`,
        ).toEqual([]);
        expect(
          [...other.keys()].filter((k) => !reference.has(k)),
          `only in ${lng}, not in pt-BR`,
        ).toEqual([]);
        const differing = [...reference].filter(([key, variants]) => {
          const theirs = other.get(key)!;
          return JSON.stringify(valuesOf(variants)) !== JSON.stringify(valuesOf(theirs));
        });
        expect(
          differing.map(([key, variants]) => `${key}: ${valuesOf(variants)} / ${valuesOf(other.get(key)!)}`),
          `values asked for differ between pt-BR and ${lng}`,
        ).toEqual([]);
      }
    });
  }
});
