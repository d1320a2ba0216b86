import { randomUUID } from "node:crypto";
import { getPixKeyInfo, isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";
import { db, transaction } from "../../../db";
import { isUniqueViolation, lockPayoutAccount } from "../../../db/dialect";
import type { PayoutRow, PixKeyType, RefundRow, UserRow } from "../../../db/schema";
import { config } from "~/config.server";
import { e2eField, payoutAccountSchema, payoutFailedSchema } from "~/lib/payments-schemas";
import { z } from "zod";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { notify } from "../messaging/notifications.server";
import { account, balanceOf, post, type InTransaction } from "./ledger.server";
import { assertPassword } from "../accounts/verification.server";
import { assertSecondFactor, codeField, isTwoFactorOn } from "../accounts/two-factor.server";
import { emailTime, queueAccountEmail } from "../messaging/account-email.server";
import { verifiedDocument } from "../accounts/identity.server";
import { pixKeyOwnedBy, ProviderError } from "./providers.server";
import { formatDateTime } from "~/lib/format";

// Money out (docs/payments.md): a freelancer's payouts to the Pix key they registered, and the
// refunds owed to merchants. The operator pays both by Pix outside the app and records the
// transfer's end-to-end id here; a payout that fails comes back to the available balance.

export type PayoutAccountJson = {
  key_type: PixKeyType;
  pix_key: string;
  holder_name: string;
  holder_document: string;
  updated_at: string;
  /** A changed key holds payouts until then; null: no hold. */
  held_until: string | null;
};

/** How long a changed payout key holds payouts. */
export const PAYOUT_KEY_HOLD_MS = 24 * 60 * 60 * 1000;

const digits = (s: string) => s.replace(/\D/g, "");

/**
 * The key as the DICT writes it, when it is a valid key of the type chosen: a CPF or CNPJ with
 * its check digits, an e-mail, a mobile phone (+55, DDD and number) or a random key (EVP).
 */
export function normalizePixKey(type: PixKeyType, key: string): string | null {
  // An 11-digit number is read as a CPF first: a phone is given its +55 to be read as one.
  const candidate = type === "phone" && !key.trim().startsWith("+") ? `+55${digits(key)}` : key;
  const info = getPixKeyInfo(candidate);
  return info && info.type === type ? info.value : null;
}

/** A CPF (11 digits) or CNPJ (14) with valid check digits, as digits only. */
export function normalizeDocument(document: string): string | null {
  const d = digits(document);
  if (d.length === 11 && isValidCpf(d)) return d;
  if (d.length === 14 && isValidCnpj(d)) return d;
  return null;
}

export async function getPayoutAccount(user: UserRow): Promise<PayoutAccountJson | null> {
  const row = await db.selectFrom("payout_accounts").selectAll().where("user_id", "=", user.id).executeTakeFirst();
  if (!row) return null;
  const { user_id: _user, ...json } = row;
  return { ...json, held_until: json.held_until ?? null };
}

const proofSchema = z.object({
  password: z.string({ invalid_type_error: "password_required" }).max(1_024, "password_length").optional(),
  code: z.unknown().optional(),
});

/**
 * The freelancer registers (or changes) the Pix key payouts go to and its holder's CPF or CNPJ.
 * Changing a key already registered takes the current password (and a code of the authenticator,
 * or a recovery code, when two-factor is on), counted like a sign-in, and tells the account's
 * address (docs/payments.md, "Repasses"): a session in someone else's hands cannot quietly send
 * the next payout elsewhere. The write repeats what was read (no key yet, or the key as it was),
 * so of two changes at once one wins and the other gets 409.
 */
export async function setPayoutAccount(freelancer: UserRow, input: unknown): Promise<PayoutAccountJson> {
  await consumeWrite(freelancer.id);
  assertRoleFor(freelancer, "payout.manage");
  const data = parseInput(payoutAccountSchema, input);
  const key = normalizePixKey(data.key_type, data.pix_key);
  const document = normalizeDocument(data.holder_document);
  const errors: Record<string, string> = {};
  if (!key) errors.pix_key = `pix_key_invalid_${data.key_type}`;
  if (!document) errors.holder_document = "holder_document_invalid";
  if (!key || !document) throw new AppError(422, "validation_failed", errors);
  const before = await db
    .selectFrom("payout_accounts")
    .select("updated_at")
    .where("user_id", "=", freelancer.id)
    .executeTakeFirst();
  if (before) await assertFreshProof(freelancer, input);
  const row = {
    user_id: freelancer.id,
    key_type: data.key_type,
    pix_key: key,
    holder_name: data.holder_name,
    holder_document: document,
    updated_at: now(),
    held_until: before ? new Date(Date.now() + PAYOUT_KEY_HOLD_MS).toISOString() : null,
  };
  await transaction(async (trx) => {
    const written = before
      ? await trx
          .updateTable("payout_accounts")
          .set(row)
          .where("user_id", "=", freelancer.id)
          .where("updated_at", "=", before.updated_at)
          .executeTakeFirst()
          .then((r) => Number(r.numUpdatedRows))
      : await trx
          .insertInto("payout_accounts")
          .values(row)
          .onConflict((oc) => oc.column("user_id").doNothing())
          .returning("user_id")
          .executeTakeFirst()
          .then((r) => (r ? 1 : 0));
    if (written === 0) throw new AppError(409, "payout_account_changed");
    if (before) {
      await queueAccountEmail(
        trx,
        freelancer.id,
        "payout_key_changed",
        {
          params: {
            at: emailTime(row.updated_at),
            key: maskedKey(key),
            link: `${config.APP_URL}/financeiro`,
            reset: `${config.APP_URL}/forgot-password`,
          },
        },
        row.updated_at,
      );
    }
  });
  const { user_id: _user, ...json } = row;
  return { ...json, held_until: json.held_until ?? null };
}

/** The current password, and a second factor when two-factor is on (422 on the field, 429 past the sign-in limit). */
async function assertFreshProof(user: UserRow, input: unknown) {
  const { password, code } = parseInput(proofSchema, input, "payout_key_proof_failed");
  if (!password) {
    throw new AppError(422, "payout_key_proof_failed", { password: "password_required" });
  }
  await assertPassword(user, password);
  if (await isTwoFactorOn(user.id)) {
    const parsed = codeField.safeParse(code ?? "");
    if (!parsed.success) {
      throw new AppError(422, "payout_key_proof_failed", { code: "two_factor_code_required" });
    }
    await assertSecondFactor(user, parsed.data, "payout_key_proof_failed");
  }
}

/** A Pix key as shown outside the key form (e-mails, the payout confirmation): its last four characters. */
export const maskedKey = (key: string) => `…${key.slice(-4)}`;

export type PayoutJson = Omit<PayoutRow, "decided_by" | "user_id">;
const payoutJson = ({ decided_by: _by, user_id: _user, ...rest }: PayoutRow): PayoutJson => rest;

const DOCUMENT_KEYS: ReadonlySet<PixKeyType> = new Set(["cpf", "cnpj"]);

/**
 * Whether the key is the verified person's (docs/payments.md, "Repasses"): a CPF or CNPJ key and
 * the holder's document equal to the verified document; an e-mail, phone or random key, the
 * provider's DICT lookup (Mercado Pago); with the manual provider, the operator checks the holder
 * at their bank before paying (the desk shows what to check), so the typed holder document must
 * be the verified one.
 */
async function assertKeyHolder(
  target: { key_type: PixKeyType; pix_key: string; holder_document: string },
  document: string,
  name: string,
) {
  const mismatch = () => new AppError(409, "payout_holder_mismatch", undefined, { whom: name });
  if (target.holder_document !== document) throw mismatch();
  if (DOCUMENT_KEYS.has(target.key_type)) {
    if (target.pix_key !== document) throw mismatch();
    return;
  }
  if (config.PAYMENTS_PROVIDER !== "mercadopago") return;
  let owned: boolean;
  try {
    owned = await pixKeyOwnedBy(target.pix_key, document);
  } catch (error) {
    if (error instanceof ProviderError || (error as Error).name === "TimeoutError" || error instanceof TypeError) {
      throw new AppError(503, "payout_holder_unknown");
    }
    throw error;
  }
  if (!owned) throw mismatch();
}

/**
 * The freelancer asks for the whole available balance (at least PAYOUT_MIN_CENTS) to be paid to
 * the registered key. Only once their identity is verified, to a key of their verified CPF or
 * CNPJ (assertKeyHolder), and not within 24 hours of a change of the key; until then the money
 * waits in the balance. One payout waits at a time: of two requests at once, one is made and the
 * other answers 409 (a unique index holds it, on either engine).
 */
export async function requestPayout(freelancer: UserRow): Promise<PayoutJson> {
  await consumeWrite(freelancer.id);
  assertRoleFor(freelancer, "payout.manage");
  const document = await verifiedDocument(freelancer.id);
  if (!document) throw new AppError(409, "identity_not_verified_payout");
  const checked = await db
    .selectFrom("payout_accounts")
    .selectAll()
    .where("user_id", "=", freelancer.id)
    .executeTakeFirst();
  if (!checked) throw new AppError(409, "payout_account_missing");
  if (checked.held_until && checked.held_until > now()) {
    throw new AppError(409, "payout_key_held", undefined, { until: formatDateTime(checked.held_until, "pt-BR") });
  }
  const legal = await db
    .selectFrom("identities")
    .select("legal_name")
    .where("user_id", "=", freelancer.id)
    .executeTakeFirst();
  await assertKeyHolder(checked, document, legal?.legal_name ?? "");
  try {
    const row = await transaction(async (trx) => {
      const target = await lockPayoutAccount(trx, freelancer.id);
      if (!target) throw new AppError(409, "payout_account_missing");
      // What was checked above is what the payout goes to: a change meanwhile is a new request.
      if (target.updated_at !== checked.updated_at) throw new AppError(409, "payout_account_changed");
      if ((await verifiedDocument(freelancer.id, trx)) !== document) {
        throw new AppError(409, "identity_not_verified_payout");
      }
      const waiting = await trx
        .selectFrom("payouts")
        .select("id")
        .where("user_id", "=", freelancer.id)
        .where("status", "=", "requested")
        .executeTakeFirst();
      if (waiting) throw new AppError(409, "payout_pending");
      const available = await balanceOf(account.available(freelancer.id), trx);
      if (available < config.PAYOUT_MIN_CENTS) {
        throw new AppError(409, "payout_below_minimum", undefined, { min: config.PAYOUT_MIN_CENTS / 100 });
      }
      const at = now();
      const payout: PayoutRow = {
        id: randomUUID(),
        user_id: freelancer.id,
        amount_cents: available,
        key_type: target.key_type,
        pix_key: target.pix_key,
        holder_name: target.holder_name,
        holder_document: target.holder_document,
        status: "requested",
        e2e_id: null,
        failure_reason: null,
        decided_by: null,
        decided_at: null,
        created_at: at,
      };
      await trx.insertInto("payouts").values(payout).execute();
      await post(
        trx,
        { kind: "payout_requested", payout_id: payout.id, freelancer_id: freelancer.id },
        [
          { account: account.available(freelancer.id), user_id: freelancer.id, amount_cents: -available },
          { account: account.payout(payout.id), user_id: freelancer.id, amount_cents: available },
        ],
        at,
      );
      return payout;
    });
    return payoutJson(row);
  } catch (error) {
    if (isUniqueViolation(error, "payouts")) throw new AppError(409, "payout_pending");
    throw error;
  }
}

export async function listPayouts(user: UserRow): Promise<PayoutJson[]> {
  const rows = await db
    .selectFrom("payouts")
    .selectAll()
    .where("user_id", "=", user.id)
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
  return rows.map(payoutJson);
}

const paidSchema = z.object({ e2e_id: e2eField });

/** Decides a requested payout once: the UPDATE's WHERE lets one decision through, else 409. */
async function decidePayout(
  operator: Pick<UserRow, "id">,
  id: string,
  outcome: { status: "paid"; e2e_id: string } | { status: "failed"; reason: string },
  within?: InTransaction<PayoutRow>,
) {
  assertId(id);
  try {
    return await transaction(async (trx) => {
      const at = now();
      const decided = await trx
        .updateTable("payouts")
        .set({
          status: outcome.status,
          e2e_id: outcome.status === "paid" ? outcome.e2e_id : null,
          failure_reason: outcome.status === "failed" ? outcome.reason : null,
          decided_by: operator.id,
          decided_at: at,
        })
        .where("id", "=", id)
        .where("status", "=", "requested")
        .returningAll()
        .executeTakeFirst();
      if (!decided) {
        const exists = await trx.selectFrom("payouts").select("id").where("id", "=", id).executeTakeFirst();
        throw new AppError(exists ? 409 : 404, exists ? "payout_already_decided" : "not_found");
      }
      const user = decided.user_id;
      await post(
        trx,
        { kind: outcome.status === "paid" ? "payout_paid" : "payout_failed", payout_id: id, freelancer_id: user },
        [
          { account: account.payout(id), user_id: user, amount_cents: -decided.amount_cents },
          outcome.status === "paid"
            ? { account: account.external(user), user_id: user, amount_cents: decided.amount_cents }
            : { account: account.available(user), user_id: user, amount_cents: decided.amount_cents },
        ],
        at,
      );
      await notify(trx, {
        user_id: user,
        kind: outcome.status === "paid" ? "payout_paid" : "payout_failed",
        application_id: null,
        opportunity_id: null,
      });
      await within?.(trx, decided, at);
      return payoutJson(decided);
    });
  } catch (error) {
    if (isUniqueViolation(error, "payouts")) throw new AppError(409, "e2e_id_used");
    throw error;
  }
}

/** The operator paid the payout by Pix: its end-to-end id. */
export async function markPayoutPaid(
  operator: Pick<UserRow, "id">,
  id: string,
  input: unknown,
  within?: InTransaction<PayoutRow>,
) {
  const { e2e_id } = parseInput(paidSchema, input);
  return decidePayout(operator, id, { status: "paid", e2e_id }, within);
}

/** The transfer failed (a closed account, a wrong key): the money returns to the available balance. */
export async function markPayoutFailed(
  operator: Pick<UserRow, "id">,
  id: string,
  input: unknown,
  within?: InTransaction<PayoutRow>,
) {
  const { reason } = parseInput(payoutFailedSchema, input);
  return decidePayout(operator, id, { status: "failed", reason }, within);
}

export type RefundJson = Omit<RefundRow, "decided_by">;

/** The operator paid a refund back to the merchant: its end-to-end id. */
export async function recordRefund(
  operator: Pick<UserRow, "id">,
  id: string,
  input: unknown,
  within?: InTransaction<RefundRow>,
): Promise<RefundJson> {
  assertId(id);
  const { e2e_id } = parseInput(paidSchema, input);
  try {
    return await transaction(async (trx) => {
      const at = now();
      const paid = await trx
        .updateTable("refunds")
        .set({ status: "paid", e2e_id, decided_by: operator.id, decided_at: at })
        .where("id", "=", id)
        .where("status", "=", "due")
        .returningAll()
        .executeTakeFirst();
      if (!paid) {
        const exists = await trx.selectFrom("refunds").select("id").where("id", "=", id).executeTakeFirst();
        throw new AppError(exists ? 409 : 404, exists ? "refund_already_paid" : "not_found");
      }
      await post(
        trx,
        {
          kind: "refund_paid",
          refund_id: id,
          contract_id: paid.contract_id,
          milestone_id: paid.milestone_id,
          merchant_id: paid.user_id,
        },
        [
          { account: account.refund(id), user_id: paid.user_id, amount_cents: -paid.amount_cents },
          { account: account.external(paid.user_id), user_id: paid.user_id, amount_cents: paid.amount_cents },
        ],
        at,
      );
      await within?.(trx, paid, at);
      const { decided_by: _by, ...json } = paid;
      return json;
    });
  } catch (error) {
    if (isUniqueViolation(error, "refunds")) throw new AppError(409, "e2e_id_used");
    throw error;
  }
}
