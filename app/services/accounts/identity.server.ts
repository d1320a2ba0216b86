import { randomUUID } from "node:crypto";
import { isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";
import { sql, type Kysely } from "kysely";
import { config } from "~/config.server";
import { identityDecisionSchema, identityDocumentsSchema, identitySchema } from "~/lib/identity-schemas";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { Database, IdentityRow, IdentityStatus, UserRow } from "../../../db/schema";
import { operatorActor, recordAudit, type Actor } from "../operator/audit.server";
import { emailTime, queueAccountEmail } from "../messaging/account-email.server";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { reserveStorage } from "../platform/storage.server";
import { sendForVerification } from "./identity-provider.server";
import {
  PHOTO_TYPES,
  attachmentProblems,
  deleteAttachment,
  readAttachment,
  saveAttachment,
} from "../platform/uploads.server";

// Who is who (docs/product.md, "Identidade"). An account records its fiscal identity — a person
// (CPF, full legal name, birth date) or a company (CNPJ, razão social, CPF of the person
// responsible) — then sends photos of an RG or CNH (front and back) and a selfie holding it; an
// operator approves or rejects with a reason. States: none → pending → verified | rejected
// (rejected may send again); changing the name or the document after a verification sends it
// back to pending. One document per active account (a partial unique index; the loser of a
// race gets the same refusal, and the operator sees the attempt). The document is shown only to
// its owner and to operators; everyone else sees "Identidade verificada". The photos are private
// files, counted in the storage quota, deleted 90 days after a decision (the decision stays).

/** Days the photos are kept after a decision. */
export const IDENTITY_FILES_DAYS = 90;
export const IDENTITY_FILES = ["front", "back", "selfie"] as const;
export type IdentityFile = (typeof IDENTITY_FILES)[number];
const fileColumn = (which: IdentityFile) => `${which}_file` as const;

export type IdentityJson = {
  kind: IdentityRow["kind"];
  document: string;
  legal_name: string;
  birth_date: string | null;
  responsible_cpf: string | null;
  status: IdentityStatus;
  version: number;
  doc_type: IdentityRow["doc_type"];
  /** Which photos are kept (their files are read by the owner only). */
  files: IdentityFile[];
  submitted_at: string | null;
  decided_at: string | null;
  reason: string | null;
  updated_at: string;
};

function identityJson(row: IdentityRow): IdentityJson {
  return {
    kind: row.kind,
    document: row.document ?? "",
    legal_name: row.legal_name,
    birth_date: row.birth_date,
    responsible_cpf: row.responsible_cpf,
    status: row.status,
    version: row.version,
    doc_type: row.doc_type,
    files: IDENTITY_FILES.filter((f) => row[fileColumn(f)]),
    submitted_at: row.submitted_at,
    decided_at: row.decided_at,
    // The reason is the person's to read when it was rejected.
    reason: row.status === "rejected" ? row.reason : null,
    updated_at: row.updated_at,
  };
}

const identityRow = (userId: string, q: Kysely<Database> = db) =>
  q.selectFrom("identities").selectAll().where("user_id", "=", userId).executeTakeFirst();

/** The account's own identity (with its document), or null before one is recorded. */
export async function getIdentity(user: Pick<UserRow, "id">): Promise<IdentityJson | null> {
  const row = await identityRow(user.id);
  return row ? identityJson(row) : null;
}

/** The verified CPF or CNPJ of an account, or null while it is not verified. */
export async function verifiedDocument(userId: string, q: Kysely<Database> = db): Promise<string | null> {
  const row = await q
    .selectFrom("identities")
    .select("document")
    .where("user_id", "=", userId)
    .where("status", "=", "verified")
    .executeTakeFirst();
  return row?.document ?? null;
}

/** Of these accounts, those whose identity is verified (for "Identidade verificada" badges). */
export async function verifiedAmong(userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("identities")
    .select("user_id")
    .where("user_id", "in", [...new Set(userIds)])
    .where("status", "=", "verified")
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

const digits = (s: string) => s.replace(/\D/g, "");

/** A birth date (YYYY-MM-DD) of someone 18 to 120 years old, or null. */
function birthDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) ?? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = value.includes("/") ? [m[3], m[2], m[1]] : [m[1], m[2], m[3]];
  const iso = `${y}-${mo}-${d}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) return null;
  const age = (Date.now() - date.getTime()) / (365.25 * 24 * 3600 * 1000);
  return age >= 18 && age <= 120 ? iso : null;
}

/**
 * Records or changes the account's fiscal identity (`{ kind, document, legal_name, birth_date |
 * responsible_cpf }`). Check digits with @brazilian-utils; 409 when another active account holds
 * the document (the attempt is kept for the operator). A change of the name or document of a
 * verified identity sends it back to pending (and to none when its photos are gone). The write
 * repeats the version read: of two changes at once, one wins and the other gets 409.
 */
export async function saveIdentity(user: Pick<UserRow, "id">, input: unknown): Promise<IdentityJson> {
  await consumeWrite(user.id);
  const data = parseInput(identitySchema, input);
  const errors: Record<string, string> = {};
  const document = digits(data.document);
  const person = data.kind === "person";
  if (person ? !(document.length === 11 && isValidCpf(document)) : !(document.length === 14 && isValidCnpj(document))) {
    errors.document = person ? "identity_cpf_invalid" : "identity_cnpj_invalid";
  }
  const born = person ? birthDate(data.birth_date) : null;
  if (person && !born) errors.birth_date = "identity_birth_date_invalid";
  const responsible = person ? null : digits(data.responsible_cpf);
  if (!person && !(responsible!.length === 11 && isValidCpf(responsible!))) {
    errors.responsible_cpf = "identity_responsible_cpf_invalid";
  }
  if (Object.keys(errors).length > 0) throw new AppError(422, "validation_failed", errors);

  const before = await identityRow(user.id);
  const at = now();
  const changedWho = before && (before.document !== document || before.legal_name !== data.legal_name);
  // What was verified or waits for an operator is about the name and the document: a change of
  // either needs a new look (the photos sent, while kept, go back to the queue).
  const status: IdentityStatus =
    before && changedWho && (before.status === "verified" || before.status === "pending")
      ? before.front_file
        ? "pending"
        : "none"
      : (before?.status ?? "none");
  const values = {
    kind: data.kind,
    document,
    legal_name: data.legal_name,
    birth_date: born,
    responsible_cpf: responsible,
    status,
    submitted_at: status === "pending" && before?.status !== "pending" ? at : (before?.submitted_at ?? null),
    updated_at: at,
  };
  try {
    const written = before
      ? await db
          .updateTable("identities")
          .set({ ...values, version: before.version + 1 })
          .where("user_id", "=", user.id)
          .where("version", "=", before.version)
          .returningAll()
          .executeTakeFirst()
      : await db
          .insertInto("identities")
          .values({ user_id: user.id, ...values, version: 1, files_bytes: 0, created_at: at })
          .onConflict((oc) => oc.column("user_id").doNothing())
          .returningAll()
          .executeTakeFirst();
    if (!written) throw new AppError(409, "identity_changed");
    // A change that needs a new look: the automatic provider gets the new version.
    if (written.status === "pending") await sendForVerification(user.id);
    return identityJson(written);
  } catch (error) {
    if (isUniqueViolation(error, "identities")) {
      await noteConflict(user.id, document);
      throw new AppError(409, "identity_document_taken", {
        document: person ? "identity_cpf_taken" : "identity_cnpj_taken",
      });
    }
    throw error;
  }
}

/** The refused attempt, for the operator (the document itself is not copied). */
async function noteConflict(userId: string, document: string) {
  const holder = await db
    .selectFrom("identities")
    .select("user_id")
    .where("document", "=", document)
    .executeTakeFirst();
  if (!holder || holder.user_id === userId) return;
  await db
    .insertInto("identity_conflicts")
    .values({ id: randomUUID(), user_id: userId, holder_user_id: holder.user_id, created_at: now() })
    .execute();
}

export type IdentityUploads = { front?: Blob | null; back?: Blob | null; selfie?: Blob | null };

/**
 * Sends the photos for verification: `{ doc_type: rg|cnh }` and the three files (front, back,
 * selfie holding the document), checked by their bytes (JPEG, PNG or WebP, 10 MB each) and
 * counted in the storage quota. From none, rejected, or pending (new photos replace those still
 * waiting: a decision on the old ones is then 409); 409 once verified. The previous photos, if
 * any, are deleted and their bytes given back to the quota. The status moves in the UPDATE's
 * WHERE: of two sends at once, one wins. With an automatic provider, the new version is sent to
 * it after the commit.
 */
export async function submitIdentityDocuments(
  user: Pick<UserRow, "id">,
  input: unknown,
  uploads: IdentityUploads,
): Promise<IdentityJson> {
  await consumeWrite(user.id);
  const before = await identityRow(user.id);
  if (!before) throw new AppError(409, "identity_missing");
  if (before.status === "verified") throw new AppError(409, "identity_already_verified");
  const parsed = identityDocumentsSchema.safeParse(input);
  const errors: Record<string, string> = parsed.success ? {} : { doc_type: "identity_doc_type_invalid" };
  for (const which of IDENTITY_FILES) {
    const file = uploads[which];
    if (!file || file.size === 0) errors[which] = `identity_${which}_required`;
    else Object.assign(errors, await attachmentProblems([file], which, 1, "identity_file_one"));
  }
  if (Object.keys(errors).length > 0 || !parsed.success) throw new AppError(422, "validation_failed", errors);
  const saved: Record<IdentityFile, { stored_name: string; size_bytes: number }> = {} as never;
  let written: IdentityRow;
  try {
    for (const which of IDENTITY_FILES) saved[which] = await saveAttachment(uploads[which]!, which, PHOTO_TYPES);
    const bytes = IDENTITY_FILES.reduce((sum, f) => sum + saved[f].size_bytes, 0);
    const at = now();
    written = await transaction(async (trx) => {
      // The old photos' bytes leave the quota as the new ones come in.
      await trx
        .updateTable("users")
        .set({ storage_bytes: sql`storage_bytes - ${before.files_bytes}` })
        .where("id", "=", user.id)
        .execute();
      await reserveStorage(trx, user.id, bytes, "front");
      const row = await trx
        .updateTable("identities")
        .set({
          status: "pending",
          version: before.version + 1,
          doc_type: parsed.data.doc_type,
          front_file: saved.front.stored_name,
          back_file: saved.back.stored_name,
          selfie_file: saved.selfie.stored_name,
          files_bytes: bytes,
          files_deleted_at: null,
          submitted_at: at,
          updated_at: at,
        })
        .where("user_id", "=", user.id)
        .where("version", "=", before.version)
        .where("status", "in", ["none", "rejected", "pending"])
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new AppError(409, "identity_changed");
      return row;
    });
  } catch (error) {
    await Promise.all(Object.values(saved).map((f) => deleteAttachment(f.stored_name)));
    throw error;
  }
  // Replaced: the old photos go (their bytes left the quota in the transaction).
  await Promise.all(
    IDENTITY_FILES.map((f) => before[fileColumn(f)]).map((name) => (name ? deleteAttachment(name) : undefined)),
  );
  await sendForVerification(user.id);
  return identityJson(written);
}

/** One of an account's identity photos, for its owner or an operator (404 for anyone else or once deleted). */
export async function readIdentityFile(viewer: Pick<UserRow, "id" | "account_type">, userId: string, which: string) {
  assertId(userId);
  if (viewer.id !== userId && viewer.account_type !== "operator") throw new AppError(404, "not_found");
  if (!(IDENTITY_FILES as readonly string[]).includes(which)) throw new AppError(404, "not_found");
  const row = await identityRow(userId);
  const name = row?.[fileColumn(which as IdentityFile)];
  if (!name) return null;
  const file = await readAttachment(name);
  return file && { ...file, name: `${which}.${name.split(".").pop()}` };
}

// The operator's side: the queue, one identity side by side with its photos, the decision.

export type QueuedIdentity = IdentityJson & {
  user_id: string;
  email: string;
  full_name: string;
  account_type: string;
  /** Other accounts that tried this account's document, or whose document this account tried. */
  conflicts: { user_id: string; email: string; created_at: string }[];
};

async function conflictsOf(userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom("identity_conflicts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .innerJoin("users as h", "h.id", "c.holder_user_id")
    .select(["c.user_id", "c.holder_user_id", "u.email as user_email", "h.email as holder_email", "c.created_at"])
    .where((eb) => eb.or([eb("c.user_id", "in", userIds), eb("c.holder_user_id", "in", userIds)]))
    .orderBy("c.created_at", "desc")
    .limit(200)
    .execute();
}

async function queued(rows: (IdentityRow & { email: string; full_name: string; account_type: string })[]) {
  const conflicts = await conflictsOf(rows.map((r) => r.user_id));
  return rows.map((r) => ({
    ...identityJson(r),
    reason: r.reason,
    user_id: r.user_id,
    email: r.email,
    full_name: r.full_name,
    account_type: r.account_type,
    conflicts: conflicts
      .filter((c) => c.user_id === r.user_id || c.holder_user_id === r.user_id)
      .map((c) =>
        c.user_id === r.user_id
          ? { user_id: c.holder_user_id, email: c.holder_email, created_at: c.created_at }
          : { user_id: c.user_id, email: c.user_email, created_at: c.created_at },
      ),
  }));
}

const withUser = () =>
  db
    .selectFrom("identities as i")
    .innerJoin("users as u", "u.id", "i.user_id")
    .selectAll("i")
    .select(["u.email", "u.full_name", "u.account_type"]);

/** The identities waiting for an operator, oldest first (at most 100). */
export async function identityQueue(): Promise<QueuedIdentity[]> {
  const rows = await withUser()
    .where("i.status", "=", "pending")
    .orderBy("i.submitted_at")
    .orderBy("i.user_id")
    .limit(100)
    .execute();
  return queued(rows);
}

/** Documents refused because another account holds them, newest first, for the operator. */
export async function recentConflicts() {
  return db
    .selectFrom("identity_conflicts as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .innerJoin("users as h", "h.id", "c.holder_user_id")
    .select(["c.id", "c.created_at", "u.id as user_id", "u.email", "h.id as holder_id", "h.email as holder_email"])
    .orderBy("c.created_at", "desc")
    .limit(50)
    .execute();
}

/** One account's identity for the operator (404 when none). */
export async function identityForOperator(userId: string): Promise<QueuedIdentity> {
  assertId(userId);
  const row = await withUser().where("i.user_id", "=", userId).executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  return (await queued([row]))[0]!;
}

export type IdentityDecision = { status: "verified" | "rejected"; reason: string | null; version: number };

/**
 * The one way a decision lands, the operator's or the provider's: the UPDATE's WHERE holds the
 * status (pending) and the version the decider saw, so of two deciders at once, or a decision
 * against a resend or a change, one wins. The audit log (by `actor`) and the person's e-mail are
 * written in the same transaction. False when the identity is not (or no longer) that pending
 * version: nothing was written.
 */
export async function applyIdentityDecision(
  trx: Kysely<Database>,
  actor: Actor,
  userId: string,
  decision: IdentityDecision,
  at: string,
): Promise<boolean> {
  const { status, reason } = decision;
  const decided = await trx
    .updateTable("identities")
    .set({
      status,
      reason,
      decided_at: at,
      decided_by: actor.id,
      version: decision.version + 1,
      updated_at: at,
    })
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .where("version", "=", decision.version)
    .returning(["user_id"])
    .executeTakeFirst();
  if (!decided) return false;
  await recordAudit(
    trx,
    actor,
    {
      action: status === "verified" ? "identity.approve" : "identity.reject",
      target_type: "user",
      target_id: userId,
      reason,
      before: { status: "pending" },
      after: { status },
    },
    at,
  );
  await queueAccountEmail(
    trx,
    userId,
    "identity_decided",
    { params: { at: emailTime(at), context: status, reason: reason ?? "", link: `${config.APP_URL}/identidade` } },
    at,
  );
  return true;
}

/**
 * The operator approves or rejects (with a reason the person reads) the identity as they saw it:
 * `{ decision: approve|reject, version, reason? }`, through applyIdentityDecision: 409 when it
 * changed or was decided meanwhile (by another operator or the provider). Also while an
 * automatic provider is deciding (it may be down, or undecided).
 */
export async function decideIdentity(
  operator: Pick<UserRow, "id" | "email" | "display_name" | "full_name">,
  userId: string,
  input: unknown,
): Promise<QueuedIdentity> {
  assertId(userId);
  const data = parseInput(identityDecisionSchema, input);
  const decision: IdentityDecision = {
    status: data.decision === "approve" ? "verified" : "rejected",
    reason: data.decision === "reject" ? data.reason : null,
    version: data.version,
  };
  await transaction(async (trx) => {
    if (await applyIdentityDecision(trx, operatorActor(operator), userId, decision, now())) return;
    const exists = await identityRow(userId, trx);
    throw new AppError(exists ? 409 : 404, exists ? "identity_decided_meanwhile" : "not_found");
  });
  return identityForOperator(userId);
}

/**
 * Deletes the photos of identities decided more than IDENTITY_FILES_DAYS ago (the decision, its
 * reason and date stay) and gives their bytes back to the quota. A conditional UPDATE per row:
 * several processes at once delete each file once.
 */
export async function purgeIdentityFiles(at = new Date()): Promise<number> {
  const before = new Date(at.getTime() - IDENTITY_FILES_DAYS * 24 * 3600 * 1000).toISOString();
  const due = await db
    .selectFrom("identities")
    .selectAll()
    .where("decided_at", "<", before)
    .where("status", "in", ["verified", "rejected"])
    .where("front_file", "is not", null)
    .limit(500)
    .execute();
  let purged = 0;
  for (const row of due) {
    const cleared = await transaction(async (trx) => {
      const r = await trx
        .updateTable("identities")
        .set({
          front_file: null,
          back_file: null,
          selfie_file: null,
          files_bytes: 0,
          files_deleted_at: at.toISOString(),
        })
        .where("user_id", "=", row.user_id)
        .where("front_file", "=", row.front_file)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await trx
        .updateTable("users")
        .set({ storage_bytes: sql`storage_bytes - ${row.files_bytes}` })
        .where("id", "=", row.user_id)
        .execute();
      return true;
    });
    if (!cleared) continue;
    purged += 1;
    await Promise.all(IDENTITY_FILES.map((f) => row[fileColumn(f)]).map((n) => (n ? deleteAttachment(n) : undefined)));
  }
  return purged;
}

/**
 * A deleted account's identity: its document and personal data erased (so the document may be
 * used by a new account), its photos deleted; the decision and its date stay. Returns the files
 * to delete after the commit.
 */
export async function eraseIdentity(trx: Kysely<Database>, userId: string, name: string, at: string) {
  const row = await identityRow(userId, trx);
  if (!row) return [];
  await trx
    .updateTable("identities")
    .set({
      document: null,
      legal_name: name,
      birth_date: null,
      responsible_cpf: null,
      front_file: null,
      back_file: null,
      selfie_file: null,
      files_bytes: 0,
      files_deleted_at: row.front_file ? at : row.files_deleted_at,
      updated_at: at,
    })
    .where("user_id", "=", userId)
    .execute();
  return IDENTITY_FILES.map((f) => row[fileColumn(f)]).filter((n): n is string => Boolean(n));
}

/**
 * Merchants record who they are before funding more than IDENTITY_REQUIRED_ABOVE_CENTS in 30
 * days: 409 when `amountCents` more would pass it without an identity recorded. What counts is
 * what was paid in the 30 days and what is still waiting to be paid (pending charges that stand:
 * within their 24 hours, or said paid), but the charge of `milestoneId` that the new one replaces.
 * Run in the transaction that records the charge, after lockUser: a burst of charges of one
 * merchant is counted one after the other.
 */
export async function assertFundingIdentity(
  trx: Kysely<Database>,
  merchantId: string,
  amountCents: number,
  milestoneId: string,
  at = new Date().toISOString(),
) {
  const since = new Date(Date.parse(at) - 30 * 24 * 3600 * 1000).toISOString();
  const recorded = await trx
    .selectFrom("identities")
    .select("user_id")
    .where("user_id", "=", merchantId)
    .where("document", "is not", null)
    .executeTakeFirst();
  if (recorded) return;
  const funded = await trx
    .selectFrom("pix_charges")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount_cents"), eb.val(0)).as("total"))
    .where("merchant_id", "=", merchantId)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "paid"), eb("paid_at", ">=", since)]),
        eb.and([
          eb("status", "=", "pending"),
          eb("milestone_id", "<>", milestoneId),
          eb("created_at", ">=", since),
          eb.or([eb("expires_at", ">", at), eb("claimed_at", "is not", null)]),
        ]),
      ]),
    )
    .executeTakeFirstOrThrow();
  if (Number(funded.total) + amountCents > config.IDENTITY_REQUIRED_ABOVE_CENTS) {
    throw new AppError(409, "identity_required_to_fund", undefined, {
      limit: (config.IDENTITY_REQUIRED_ABOVE_CENTS / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 }),
    });
  }
}
