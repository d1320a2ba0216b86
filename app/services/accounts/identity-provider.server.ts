import { randomUUID } from "node:crypto";
import { config } from "~/config.server";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { IdentityProviderName, IdentityRow } from "../../../db/schema";
import type { Actor } from "../operator/audit.server";
import { AppError } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { readAttachment } from "../platform/uploads.server";
import { hmacProblem } from "../payments/providers.server";
import { applyIdentityDecision, IDENTITY_FILES } from "./identity.server";
import { logger } from "../platform/log.server";

// Who checks the identity documents (docs/product.md, "Identidade"; docs/operations.md):
//
//   manual  the operator's queue /admin/identity (the default).
//   kyc     an automatic KYC service. When the photos are sent, a verification is created at
//           the service (POST <IDENTITY_PROVIDER_URL>/verifications, Bearer
//           IDENTITY_PROVIDER_TOKEN, Idempotency-Key "<user id>:<version>", the typed data and
//           the three photos in base64) and its id kept with the identity's version
//           (identity_verifications). The service later posts the result to
//           /api/identity/webhooks/kyc: `{ id: <event id>, type: "verification.completed",
//           data: { id: <verification id>, status: approved|rejected, reason } }`, signed with
//           x-kyc-timestamp (seconds) and x-kyc-signature "sha256=<hex HMAC-SHA256 of
//           '<timestamp>.<raw body>' with IDENTITY_WEBHOOK_SECRET>".
//
// The result is applied through applyIdentityDecision, the operator's own UPDATE: only while the
// identity is still pending at the version that was sent; otherwise (the operator decided first,
// the person sent new photos or changed the data) it is recorded as superseded and answered 200,
// so the service does not send it again. The operator may decide at any time: when the service
// is down, or undecided. A send the service did not take (unreachable, refused) leaves the
// identity pending with its photos, and the hourly housekeeping sends it again.

export type NewVerification = {
  reference: string;
  identity: IdentityRow;
  files: Record<(typeof IDENTITY_FILES)[number], { content_type: string; base64: string }>;
};

export interface IdentityProvider {
  name: IdentityProviderName;
  createVerification(v: NewVerification): Promise<{ ref: string }>;
}

/** The provider's own name in the audit log. */
export const kycActor: Actor = { id: null, name: "verificação automática (kyc)" };

export const kycProvider: IdentityProvider = {
  name: "kyc",
  async createVerification(v) {
    const response = await fetch(new URL("/verifications", config.IDENTITY_PROVIDER_URL), {
      method: "POST",
      headers: {
        Authorization: `Bearer ${config.IDENTITY_PROVIDER_TOKEN}`,
        "Content-Type": "application/json",
        // A retried send makes no second verification.
        "Idempotency-Key": v.reference,
      },
      body: JSON.stringify({
        reference: v.reference,
        kind: v.identity.kind,
        document: v.identity.document,
        legal_name: v.identity.legal_name,
        birth_date: v.identity.birth_date,
        responsible_cpf: v.identity.responsible_cpf,
        doc_type: v.identity.doc_type,
        files: v.files,
        callback_url: `${config.APP_URL}/api/identity/webhooks/kyc`,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json().catch(() => null)) as { id?: unknown } | null;
    if (!response.ok || typeof body?.id !== "string" || !REF.test(body.id)) {
      throw new Error(`the identity provider answered ${response.status}`);
    }
    return { ref: body.id };
  },
};

const REF = /^[A-Za-z0-9_-]{1,64}$/;

/** Pending identities with photos whose version the provider has not taken yet. */
const waitingForProvider = () =>
  db
    .selectFrom("identities as i")
    .where("i.status", "=", "pending")
    .where("i.front_file", "is not", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("identity_verifications as v")
            .select("v.ref")
            .whereRef("v.user_id", "=", "i.user_id")
            .whereRef("v.version", "=", "i.version"),
        ),
      ),
    );

/**
 * Sends the account's pending identity to the automatic provider, once per version (no-op with
 * the manual provider, or when that version was sent already). True when the provider took it;
 * false when it did not (logged: the housekeeping tries again), never throws.
 */
export async function sendForVerification(userId: string, provider: IdentityProvider = kycProvider) {
  if (config.IDENTITY_PROVIDER !== "kyc") return false;
  try {
    const row = await waitingForProvider().selectAll("i").where("i.user_id", "=", userId).executeTakeFirst();
    if (!row) return false;
    const files = {} as NewVerification["files"];
    for (const which of IDENTITY_FILES) {
      const file = await readAttachment(row[`${which}_file`]!);
      if (!file) return false;
      files[which] = { content_type: file.contentType, base64: file.body.toString("base64") };
    }
    const { ref } = await provider.createVerification({
      reference: `${row.user_id}:${row.version}`,
      identity: row,
      files,
    });
    await db
      .insertInto("identity_verifications")
      .values({ ref, provider: provider.name, user_id: row.user_id, version: row.version, created_at: now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return true;
  } catch (error) {
    logger.error(`[identity] the provider did not take ${userId}'s documents: ${(error as Error).message}`);
    return false;
  }
}

/** Pending identities the provider has not taken yet (it was unreachable), sent again. */
export async function resendVerifications(limit = 50): Promise<number> {
  if (config.IDENTITY_PROVIDER !== "kyc") return 0;
  const waiting = await waitingForProvider().select("i.user_id").orderBy("i.submitted_at").limit(limit).execute();
  let sent = 0;
  for (const { user_id } of waiting) if (await sendForVerification(user_id)) sent += 1;
  return sent;
}

export type IdentityWebhookInput = { signature: string | null; timestamp: string | null; body: string };
export type IdentityWebhookOutcome = "processed" | "duplicate" | "superseded";

async function record(eventId: string | null, ref: string | null, outcome: string, detail: string | null) {
  await db
    .insertInto("identity_events")
    .values({ id: randomUUID(), provider: "kyc", event_id: eventId, ref, outcome, detail, created_at: now() })
    .execute();
}

/** Refuses the notification: logged, recorded, and answered with `status`. */
async function refuse(status: number, key: string, eventId: string | null, detail: string): Promise<never> {
  // As one line whatever was sent (the detail may be the body).
  logger.warn(`[identity] provider webhook refused (${key}): ${JSON.stringify(detail)}`);
  await record(eventId, null, key, detail.slice(0, 500));
  throw new AppError(status, key);
}

type Result = { eventId: string; ref: string; status: "verified" | "rejected"; reason: string | null };

function parseResult(body: string): Result | null {
  let value: { id?: unknown; type?: unknown; data?: { id?: unknown; status?: unknown; reason?: unknown } };
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const data = value?.data;
  if (typeof value?.id !== "string" || !REF.test(value.id) || value.type !== "verification.completed") return null;
  if (typeof data?.id !== "string" || !REF.test(data.id)) return null;
  if (data.status === "approved") return { eventId: value.id, ref: data.id, status: "verified", reason: null };
  const reason =
    typeof data.reason === "string"
      ? data.reason
          .replace(/\p{Cc}/gu, " ")
          .trim()
          .slice(0, 500)
      : "";
  if (data.status !== "rejected" || reason.length < 5) return null;
  return { eventId: value.id, ref: data.id, status: "rejected", reason };
}

/**
 * The provider's result for a verification. Trusted by its signature only (no session, no origin
 * check); 401 for a bad signature or a timestamp older (or newer) than 5 minutes, 400 when
 * malformed, 404 for a verification this app never created. An event already applied changes
 * nothing (200, duplicate); one about an identity that changed or was decided meanwhile is
 * recorded and ignored (200, superseded).
 */
export async function receiveIdentityWebhook(
  input: IdentityWebhookInput,
): Promise<{ outcome: IdentityWebhookOutcome }> {
  const secret = config.IDENTITY_WEBHOOK_SECRET;
  if (config.IDENTITY_PROVIDER !== "kyc" || !secret) throw new AppError(404, "not_found");
  const ts = input.timestamp ?? "";
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(input.signature ?? "")?.[1];
  const problem = /^\d{1,13}$/.test(ts) && hex ? hmacProblem(`${ts}.${input.body}`, ts, hex, secret) : "bad_signature";
  if (problem === "bad_signature") return refuse(401, "webhook_bad_signature", null, "x-kyc-signature");
  if (problem === "stale") return refuse(401, "webhook_stale", null, `x-kyc-timestamp ${ts}`);
  const result = parseResult(input.body);
  if (!result) return refuse(400, "webhook_malformed", null, input.body.slice(0, 200));

  const seen = await db
    .selectFrom("identity_events")
    .select("id")
    .where("provider", "=", "kyc")
    .where("event_id", "=", result.eventId)
    .where("outcome", "in", ["processed", "superseded"])
    .executeTakeFirst();
  if (seen) return { outcome: "duplicate" };
  const verification = await db
    .selectFrom("identity_verifications")
    .selectAll()
    .where("ref", "=", result.ref)
    .where("provider", "=", "kyc")
    .executeTakeFirst();
  if (!verification) {
    return refuse(404, "webhook_unknown_verification", result.eventId, `verification ${result.ref}`);
  }
  try {
    return await transaction(async (trx) => {
      const event = randomUUID();
      // First, so that the same event delivered twice at once waits here for the other.
      await trx
        .insertInto("identity_events")
        .values({
          id: event,
          provider: "kyc",
          event_id: result.eventId,
          ref: result.ref,
          outcome: "processed",
          detail: result.status,
          created_at: now(),
        })
        .execute();
      const decision = { status: result.status, reason: result.reason, version: verification.version };
      if (await applyIdentityDecision(trx, kycActor, verification.user_id, decision, now())) {
        return { outcome: "processed" as const };
      }
      await trx
        .updateTable("identity_events")
        .set({ outcome: "superseded", detail: `${result.status}: identity changed or decided meanwhile` })
        .where("id", "=", event)
        .execute();
      return { outcome: "superseded" as const };
    });
  } catch (error) {
    if (isUniqueViolation(error, "identity_events")) return { outcome: "duplicate" };
    throw error;
  }
}
