import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db } from "../../../db";
import type { ContactFlagsTable, Database } from "../../../db/schema";
import { AppError } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { detectContacts, type ContactKind, type ContactScan } from "./contact-detector.server";

// Contacts before funding (docs/product.md, "Contatos antes do pagamento"). A message, an
// application's cover letter, an offer's note or an invitation with a way off the platform,
// between two people with no funded contract yet: refused once with a notice (422
// contact_detected) and sent when the sender confirms (confirm_contact), stored as written for its
// author and masked for the other side, and counted (contact_flags). CONTACT_REPORT_THRESHOLD such
// sends in CONTACT_REPORT_HOURS open one report of the account in the operator's queue.

export const CONTACT_REPORT_THRESHOLD = Number(process.env.CONTACT_REPORT_THRESHOLD) || 3;
export const CONTACT_REPORT_HOURS = Number(process.env.CONTACT_REPORT_HOURS) || 24;
/** What the automatic report says, in the operator's queue. */
export const CONTACT_REPORT_DETAILS = "Automática: textos com contato mascarado antes do pagamento garantido.";

const HOUR_MS = 3_600_000;
const CONFIRMED = new Set<unknown>([true, "1", "true", "on"]);

export type ContactSource = ContactFlagsTable["source"];
export type Screened = { masked: string | null; kinds: ContactKind[] };

/** Whether the input confirms sending a text with a contact (JSON true, or a form's "1"/"true"/"on"). */
export function contactConfirmed(input: unknown): boolean {
  return (
    typeof input === "object" && input !== null && CONFIRMED.has((input as Record<string, unknown>).confirm_contact)
  );
}

/** Whether a contract between the two has had money paid in (a milestone funded, held or since settled). */
export async function fundedBetween(database: Kysely<Database>, a: string, b: string): Promise<boolean> {
  const row = await database
    .selectFrom("contracts as c")
    .innerJoin("milestones as m", "m.contract_id", "c.id")
    .select("c.id")
    .where((eb) =>
      eb.or([
        eb.and([eb("c.merchant_id", "=", a), eb("c.freelancer_id", "=", b)]),
        eb.and([eb("c.merchant_id", "=", b), eb("c.freelancer_id", "=", a)]),
      ]),
    )
    .where("m.funded_at", "is not", null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The text as the other side will read it (null: as written). Before funding, a text with a
 * contact is refused with the notice (422 contact_detected, on `field`) unless `confirmed`.
 */
export async function screenContacts(
  database: Kysely<Database>,
  text: string | null | undefined,
  {
    authorId,
    otherId,
    confirmed,
    field,
    scan = detectContacts(text ?? ""),
  }: {
    authorId: string;
    otherId: string;
    confirmed: boolean;
    field: string;
    /** The text's scan when the caller already made it (not made twice). */
    scan?: ContactScan;
  },
): Promise<Screened> {
  const { spans, masked } = scan;
  if (!spans.length || (await fundedBetween(database, authorId, otherId))) return { masked: null, kinds: [] };
  const kinds = [...new Set(spans.map((s) => s.kind))];
  if (!confirmed) {
    throw new AppError(422, "contact_detected", { [field]: "contact_detected_notice" }, undefined, undefined, {
      code: "contact_detected",
      kinds,
    });
  }
  return { masked, kinds };
}

/** Records a text sent masked, in the sending transaction. */
export async function flagContact(
  trx: Kysely<Database>,
  screened: Screened,
  flag: { userId: string; source: ContactSource; sourceId: string; at: string },
): Promise<void> {
  if (screened.masked === null) return;
  await trx
    .insertInto("contact_flags")
    .values({
      id: randomUUID(),
      user_id: flag.userId,
      source: flag.source,
      source_id: flag.sourceId,
      kinds: screened.kinds.join(","),
      created_at: flag.at,
    })
    .execute();
}

/** Texts the user sent with a contact masked (since `since`, an ISO time, if given). */
export async function countMaskedContacts(database: Kysely<Database>, userId: string, since?: string): Promise<number> {
  let query = database
    .selectFrom("contact_flags")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("user_id", "=", userId);
  if (since) query = query.where("created_at", ">=", since);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * After a masked send commits: at the threshold, one open report of the account (the partial
 * unique index of open reports per reporter and target keeps a burst to one). Sends counted
 * start after the last automatic report was resolved, so a dismissed one is not reopened at once.
 */
export async function reportRepeatedContacts(screened: Screened, userId: string, at = new Date()): Promise<void> {
  if (screened.masked === null) return;
  const windowStart = new Date(at.getTime() - CONTACT_REPORT_HOURS * HOUR_MS).toISOString();
  const last = await db
    .selectFrom("reports")
    .select((eb) => eb.fn.max("resolved_at").as("resolved_at"))
    .where("reporter_id", "=", userId)
    .where("target_type", "=", "profile")
    .where("target_id", "=", userId)
    .executeTakeFirst();
  const since = last?.resolved_at && last.resolved_at > windowStart ? last.resolved_at : windowStart;
  if ((await countMaskedContacts(db, userId, since)) < CONTACT_REPORT_THRESHOLD) return;
  await db
    .insertInto("reports")
    .values({
      id: randomUUID(),
      // Opened by the platform: the account's own id as reporter keeps one open report per account.
      reporter_id: userId,
      target_type: "profile",
      target_id: userId,
      author_id: userId,
      reason: "off_platform",
      details: CONTACT_REPORT_DETAILS,
      status: "open",
      created_at: now(),
    })
    .onConflict((oc) =>
      oc
        .columns(["reporter_id", "target_type", "target_id"])
        .where(sql<boolean>`status = 'open'`)
        .doNothing(),
    )
    .execute();
}

/** What the viewer reads of a text: the author the original, the other side the masked text if any. */
export const asReadBy = (original: string, masked: string | null, viewerIsAuthor: boolean) =>
  viewerIsAuthor || masked === null ? original : masked;
