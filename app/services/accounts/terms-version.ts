import { readFileSync } from "node:fs";
import { join } from "node:path";

// The current version of the terms of use and privacy policy (content/legal/version.txt), read
// once per process; apart from terms.server.ts so the seed and the tests' factories can use it
// without the database.

export const LEGAL_DIR = join(process.cwd(), "content/legal");

let version: string | null = null;

/** The current version of the terms and the privacy policy (e.g. "2026-11-24"). */
export function termsVersion(): string {
  version ??= readFileSync(join(LEGAL_DIR, "version.txt"), "utf8").trim();
  return version;
}
