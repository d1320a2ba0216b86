import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Transaction } from "kysely";
import { marked } from "marked";
import { z } from "zod";
import { transaction } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { fallbackLng, supportedLngs } from "~/lib/i18n";
import { AppError, parseInput } from "../platform/errors.server";
import type { Client } from "./accounts.server";
import { LEGAL_DIR, termsVersion } from "./terms-version";

// Terms of use and privacy policy (docs/product.md, "Termos de uso e privacidade"). Both are
// Markdown files in content/legal/ (one per language), edited by whoever runs Freela, with one
// version for the pair in content/legal/version.txt. Each server process reads them once, when
// first asked: a new version takes effect when the servers restart. Registering accepts the
// current version; an account whose accepted version is not the current one is asked to accept
// it before any other page (requireUser) or API call (requireApiUser).

export type LegalDocument = "terms" | "privacy";

export { termsVersion };

const pages = new Map<string, { title: string; html: string }>();

/**
 * One document in one language, as HTML: the files are the operator's own text, trusted like the
 * app's code (they are not user content). The title is the file's first heading.
 */
export function legalPage(document: LegalDocument, lng: string) {
  const key = `${document}.${(supportedLngs as readonly string[]).includes(lng) ? lng : fallbackLng}`;
  let page = pages.get(key);
  if (!page) {
    const markdown = readFileSync(join(LEGAL_DIR, `${key}.md`), "utf8");
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1].trim() ?? document;
    // The page draws the title itself: the HTML starts after the first heading.
    const body = markdown.replace(/^#\s+.+$/m, "");
    page = { title, html: marked.parse(body, { async: false, gfm: true }) };
    pages.set(key, page);
  }
  return { ...page, version: termsVersion() };
}

/** Whether the account must accept the current version before going on. */
export function needsTerms(user: Pick<UserRow, "terms_version" | "account_type">) {
  return user.account_type !== "operator" && user.terms_version !== termsVersion();
}

/** The acceptance of `version`, kept as a record, in the caller's transaction. */
export async function recordTermsAcceptance(
  trx: Transaction<Database>,
  userId: string,
  accepted: string,
  client: Client,
  at = new Date().toISOString(),
) {
  await trx
    .insertInto("terms_acceptances")
    .values({ id: randomUUID(), user_id: userId, version: accepted, ip: client.ip ?? null, accepted_at: at })
    .execute();
}

const acceptSchema = z.object({
  // The version the person read: a page left open across a new version must not accept it unread.
  version: z
    .string({ required_error: "terms_version_missing", invalid_type_error: "terms_version_missing" })
    .trim()
    .min(1, "terms_version_missing")
    .max(40, "terms_version_missing"),
  accept: z
    .union([z.literal(true), z.literal("true"), z.literal("on"), z.literal("1")], {
      errorMap: () => ({ message: "terms_accept_required" }),
    })
    .optional(),
});

/**
 * The account accepts the current version: 409 when the version read is not the current one (it
 * changed while the page was open), nothing written when it was already accepted. `requireBox`
 * is the page's checkbox ("li e aceito"); API clients send the version alone.
 */
export async function acceptTerms(user: UserRow, input: unknown, client: Client, { requireBox = false } = {}) {
  const data = parseInput(acceptSchema, input);
  if (requireBox && !data.accept) throw new AppError(422, "validation_failed", { accept: "terms_accept_required" });
  const current = termsVersion();
  if (data.version !== current) throw new AppError(409, "terms_version_changed");
  const at = new Date().toISOString();
  const accepted = await transaction(async (trx) => {
    const updated = await trx
      .updateTable("users")
      .set({ terms_version: current, updated_at: at })
      .where("id", "=", user.id)
      .where((eb) => eb.or([eb("terms_version", "is", null), eb("terms_version", "!=", current)]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await recordTermsAcceptance(trx, user.id, current, client, at);
    return true;
  });
  return { version: current, accepted_now: accepted };
}
