import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { ContractRow, Database, PixChargeRow, PixRecurrenceRow, UserRow } from "../../../db/schema";
import { config } from "~/config.server";
import { E2E_ID } from "~/lib/payments-schemas";
import { addDays, dayInSaoPaulo } from "~/lib/work-weeks";
import { AppError } from "../platform/errors.server";
import { logger } from "../platform/log.server";
import { asParty } from "../platform/participants.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { publishContractMove } from "../platform/events.server";
import { notify } from "../messaging/notifications.server";
import { LAPSE_DAYS } from "../contracts/monthly.server";
import { settleNotifiedCharge, type Settlement } from "./charges.server";
import {
  centsOf,
  pixAutomaticoSignatureProblem,
  ProviderError,
  recurringProvider,
  type ApiRecurrence,
  type RecurringProvider,
} from "./providers.server";

// Pix Automático for monthly contracts (docs/payments.md, "Pix Automático"). The merchant
// authorises, once, the contract's monthly debit at the provider (a recurrence of the API Pix);
// each month the schedule makes that month's charge against it; the charge's confirmation funds
// the month through the same path as an ordinary Pix (settleCharge). A recurrence:
//
//   pending ──payer's bank approves──▶ active ──merchant cancels, or the contract ends──▶ cancelled
//      ├──payer's bank refuses──▶ rejected
//      └──not authorised in time──▶ expired      (any of them: the months are paid by ordinary Pix)
//
// At most one pending or active per contract (a partial unique index); at most one recurring
// charge per month (a partial unique index on its milestone): of two schedules at once, one
// claims the month and asks the provider, the other finds it claimed. A charge refused by the
// payer's bank leaves the month waiting for an ordinary Pix; one paid after its month lapsed (or
// was paid by ordinary Pix) becomes a refund due, as any late Pix.

export type RecurrenceJson = {
  id: string;
  status: PixRecurrenceRow["status"];
  amount_cents: number;
  /** The day of the month it debits. */
  day: number;
  /** What the merchant's bank reads to authorise it, while pending (the merchant only). */
  br_code: string | null;
  created_at: string;
  updated_at: string;
};

/** The month waiting for its money, and how Pix Automático stands on it. */
export type RecurringMonthJson = {
  milestone_id: string;
  /** scheduled: the charge is with the merchant's bank; refused: it was not debited (pay by Pix). */
  status: "scheduled" | "refused" | "paid";
};

export type RecurrenceStateJson = {
  /** Whether Pix Automático is offered at all (a provider with the capability). */
  available: boolean;
  recurrence: RecurrenceJson | null;
  month: RecurringMonthJson | null;
  /** Whether the viewer may authorise one now / cancel the one there is. */
  can_authorise: boolean;
  can_cancel: boolean;
};

type Monthly = ContractRow & { kind: "monthly"; monthly_day: number };

const live = (r: Pick<PixRecurrenceRow, "status">) => r.status === "pending" || r.status === "active";

/** A monthly contract taking Pix Automático: in progress (or delivered), not ended, not disputed, paid through the platform. */
const takesRecurrence = (c: ContractRow) =>
  (c.status === "in_progress" || c.status === "delivered") &&
  c.paused_from === null &&
  c.disputed_at === null &&
  c.payments === "escrow";

async function monthlyFor(database: Kysely<Database>, user: Pick<UserRow, "id">, id: string) {
  const { row, party } = await asParty(user, id, (id) =>
    database.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst(),
  );
  if (row.kind !== "monthly" || row.monthly_day === null) throw new AppError(409, "contract_not_monthly");
  return { contract: row as Monthly, party };
}

const liveRecurrence = (database: Kysely<Database>, contractId: string) =>
  database
    .selectFrom("pix_recurrences")
    .selectAll()
    .where("contract_id", "=", contractId)
    .where("status", "in", ["pending", "active"])
    .executeTakeFirst();

/** The month waiting for its money, if any, with its recurring charge. */
async function waitingMonth(contractId: string) {
  return db
    .selectFrom("contract_months")
    .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
    .leftJoin("pix_charges", (j) =>
      j.onRef("pix_charges.milestone_id", "=", "milestones.id").on("pix_charges.recurrence_id", "is not", null),
    )
    .select(["milestones.id as milestone_id", "pix_charges.status as charge_status"])
    .where("contract_months.contract_id", "=", contractId)
    .where("milestones.status", "=", "awaiting_funding")
    .orderBy("contract_months.month")
    .limit(1)
    .executeTakeFirst();
}

/** Pix Automático on a monthly contract, for either side (the "copia e cola" for the merchant only). */
export async function getRecurrence(user: Pick<UserRow, "id">, id: string): Promise<RecurrenceStateJson> {
  const { contract, party } = await monthlyFor(db, user, id);
  const latest = await db
    .selectFrom("pix_recurrences")
    .selectAll()
    .where("contract_id", "=", id)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const waiting = await waitingMonth(id);
  const available = recurringProvider() !== null;
  return {
    available,
    recurrence: latest
      ? {
          id: latest.id,
          status: latest.status,
          amount_cents: latest.amount_cents,
          day: latest.day,
          br_code: party === "merchant" && latest.status === "pending" ? latest.br_code : null,
          created_at: latest.created_at,
          updated_at: latest.updated_at,
        }
      : null,
    month:
      waiting && waiting.charge_status
        ? {
            milestone_id: waiting.milestone_id,
            status:
              waiting.charge_status === "pending" ? "scheduled" : waiting.charge_status === "paid" ? "paid" : "refused",
          }
        : null,
    can_authorise: available && party === "merchant" && takesRecurrence(contract) && !(latest && live(latest)),
    can_cancel: party === "merchant" && latest !== undefined && live(latest),
  };
}

/**
 * The merchant authorises Pix Automático on a monthly contract: the recurrence is created at the
 * provider (for the month's amount, from the month's day) and its "copia e cola" is shown for
 * the merchant's bank to approve. 409 while another is pending or active (of two at once, the
 * partial unique index keeps one; the other's recurrence is cancelled at the provider).
 */
export async function authoriseRecurrence(
  merchant: UserRow,
  id: string,
  provider: RecurringProvider | null = recurringProvider(),
): Promise<RecurrenceStateJson> {
  await consumeWrite(merchant.id);
  const { contract, party } = await monthlyFor(db, merchant, id);
  if (party !== "merchant") throw new AppError(403, "forbidden_role");
  if (!provider) throw new AppError(409, "recurrence_unavailable");
  if (!takesRecurrence(contract)) throw new AppError(409, "contract_action_unavailable");
  if (await liveRecurrence(db, id)) throw new AppError(409, "recurrence_exists");
  const identity = await db
    .selectFrom("identities")
    .select(["document", "legal_name"])
    .where("user_id", "=", merchant.id)
    .where("document", "is not", null)
    .executeTakeFirst();
  // The payer's CPF or CNPJ is part of the recurrence (vinculo.devedor): recorded first.
  if (!identity?.document) throw new AppError(409, "recurrence_identity_required");

  const at = now();
  const today = dayInSaoPaulo(new Date(at));
  let created: { id: string; br_code: string };
  try {
    created = await provider.createRecurrence({
      contract: contract.id.replace(/-/g, "").slice(0, 35),
      object: "Freela: trabalho mensal",
      debtor: { document: identity.document, name: identity.legal_name },
      amountCents: contract.price_cents,
      startsOn: addDays(today, 2),
    });
  } catch (error) {
    logger.error(`[payments] Pix Automático did not create the recurrence: ${(error as Error).message}`);
    throw new AppError(503, "provider_unavailable", undefined, undefined, { "Retry-After": "30" });
  }
  try {
    await db
      .insertInto("pix_recurrences")
      .values({
        id: randomUUID(),
        contract_id: id,
        merchant_id: merchant.id,
        provider: provider.name,
        provider_recurrence_id: created.id,
        status: "pending",
        amount_cents: contract.price_cents,
        day: contract.monthly_day,
        br_code: created.br_code,
        created_at: at,
        updated_at: at,
      })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error, "pix_recurrences")) throw error;
    // Another authorisation was stored first: this one is withdrawn at the provider.
    await provider.cancelRecurrence(created.id).catch(() => undefined);
    throw new AppError(409, "recurrence_exists");
  }
  return getRecurrence(merchant, id);
}

/**
 * Ends a live recurrence: at the provider first (a failure there changes nothing here and answers
 * 503), then here by a conditional UPDATE; a month charge still scheduled is withdrawn, and the
 * months are paid by ordinary Pix from then on. Answers whether this call ended it.
 */
async function endRecurrence(recurrence: PixRecurrenceRow, provider: RecurringProvider, at: string) {
  await provider.cancelRecurrence(recurrence.provider_recurrence_id);
  const ended = await db
    .updateTable("pix_recurrences")
    .set({ status: "cancelled", updated_at: at })
    .where("id", "=", recurrence.id)
    .where("status", "in", ["pending", "active"])
    .executeTakeFirst();
  const scheduled = await db
    .updateTable("pix_charges")
    .set({ status: "superseded" })
    .where("recurrence_id", "=", recurrence.id)
    .where("status", "=", "pending")
    .returning(["txid"])
    .execute();
  for (const charge of scheduled) await provider.cancelRecurringCharge(charge.txid).catch(() => undefined);
  return Number(ended.numUpdatedRows) === 1;
}

/** The merchant cancels Pix Automático on the contract (409 when none is pending or active). */
export async function cancelRecurrence(
  merchant: UserRow,
  id: string,
  provider: RecurringProvider | null = recurringProvider(),
): Promise<RecurrenceStateJson> {
  await consumeWrite(merchant.id);
  const { party } = await monthlyFor(db, merchant, id);
  if (party !== "merchant") throw new AppError(403, "forbidden_role");
  const recurrence = await liveRecurrence(db, id);
  if (!recurrence || !provider) throw new AppError(409, "recurrence_not_live");
  try {
    if (!(await endRecurrence(recurrence, provider, now()))) throw new AppError(409, "recurrence_not_live");
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    logger.error(`[payments] Pix Automático did not cancel the recurrence: ${error.message}`);
    throw new AppError(503, "provider_unavailable", undefined, undefined, { "Retry-After": "30" });
  }
  return getRecurrence(merchant, id);
}

/**
 * Ends the contract's live recurrence, if any (the contract was ended or is over; or, given the
 * month's new amount, one of another amount: a recurrence's amount is fixed at the payer's bank);
 * the schedule retries a failure.
 */
export async function endContractRecurrence(contractId: string, unlessAmount?: number) {
  const provider = recurringProvider();
  if (!provider) return;
  const recurrence = await liveRecurrence(db, contractId);
  if (!recurrence || recurrence.amount_cents === unlessAmount) return;
  try {
    await endRecurrence(recurrence, provider, now());
  } catch (error) {
    logger.error(`[payments] Pix Automático recurrence not cancelled yet: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The schedule

/** A month's charge's txid: from its milestone, so a retried request asks for the same charge. */
const txidOf = (milestoneId: string) =>
  `FRR${createHash("sha256").update(milestoneId).digest("hex").slice(0, 29).toUpperCase()}`;

/**
 * The due date of a month's recurring charge: its first day, or two days from today when that is
 * later (the API Pix takes a charge two days before it is due, at least).
 */
const dueOn = (startsOn: string, today: string) => [startsOn, addDays(today, 2)].sort().at(-1)!;

/**
 * Claims the month for a recurring charge (one row per milestone: the loser of a race inserts
 * nothing) and returns it, or null when it is claimed already or no longer waits.
 */
async function claimMonth(
  recurrence: PixRecurrenceRow,
  month: { milestone_id: string; amount_cents: number; lapses_on: string },
  at: string,
): Promise<PixChargeRow | null> {
  const row: PixChargeRow = {
    id: randomUUID(),
    milestone_id: month.milestone_id,
    contract_id: recurrence.contract_id,
    merchant_id: recurrence.merchant_id,
    provider: "pix_automatico",
    txid: txidOf(month.milestone_id),
    provider_payment_id: null,
    amount_cents: month.amount_cents,
    br_code: "",
    status: "pending",
    e2e_id: null,
    // The month lapses then: a charge not paid by then is not waited for.
    expires_at: `${month.lapses_on}T03:00:00.000Z`,
    paid_at: null,
    confirmed_by: null,
    created_at: at,
    claimed_at: null,
    claimed_by: null,
    recurrence_id: recurrence.id,
  };
  try {
    return await transaction(async (trx) => {
      const still = await trx
        .updateTable("milestones")
        .set({ updated_at: at })
        .where("id", "=", month.milestone_id)
        .where("status", "=", "awaiting_funding")
        .where("amount_cents", "=", recurrence.amount_cents)
        .executeTakeFirst();
      if (Number(still.numUpdatedRows) === 0) return null;
      await trx.insertInto("pix_charges").values(row).execute();
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "pix_charges")) return null;
    throw error;
  }
}

/** Asks the provider for a claimed month's charge; recorded as sent (provider_payment_id) once it answered. */
async function sendCharge(
  provider: RecurringProvider,
  charge: PixChargeRow,
  recurrence: PixRecurrenceRow,
  today: string,
) {
  const month = await db
    .selectFrom("contract_months")
    .select(["month", "starts_on"])
    .where("milestone_id", "=", charge.milestone_id)
    .executeTakeFirstOrThrow();
  await provider.createRecurringCharge(charge.txid, {
    recurrenceId: recurrence.provider_recurrence_id,
    dueOn: dueOn(month.starts_on, today),
    amountCents: charge.amount_cents,
    info: `Freela: mês ${month.month}`,
  });
  await db
    .updateTable("pix_charges")
    .set({ provider_payment_id: charge.txid })
    .where("id", "=", charge.id)
    .where("provider_payment_id", "is", null)
    .execute();
}

export type RecurringScheduleResult = { charged: number; ended: number };

/**
 * Ends the recurrences of contracts that no longer take one (ended, over, disputed), and makes
 * each month waiting for its money on a contract with an active recurrence its charge, once:
 * when the recurrence's amount is the month's and the charge can fall due before the month
 * lapses. Claimed charges the provider was not reached for are asked again.
 */
export async function runRecurringSchedule(at = new Date()): Promise<RecurringScheduleResult> {
  const provider = recurringProvider();
  if (!provider) return { charged: 0, ended: 0 };
  const today = dayInSaoPaulo(at);
  const stamp = at.toISOString();
  let ended = 0;
  const over = await db
    .selectFrom("pix_recurrences")
    .innerJoin("contracts", "contracts.id", "pix_recurrences.contract_id")
    .selectAll("pix_recurrences")
    .where("pix_recurrences.status", "in", ["pending", "active"])
    .where((eb) =>
      eb.or([
        eb("contracts.status", "not in", ["in_progress", "delivered"]),
        eb("contracts.paused_from", "is not", null),
        eb("contracts.disputed_at", "is not", null),
        // The month's amount changed (answerAmount ends it at once; this retries a failure).
        eb("pix_recurrences.amount_cents", "<>", eb.ref("contracts.price_cents")),
      ]),
    )
    .limit(200)
    .execute();
  for (const recurrence of over) {
    try {
      if (await endRecurrence(recurrence, provider, stamp)) ended++;
    } catch (error) {
      logger.error(`[payments] Pix Automático recurrence not cancelled yet: ${(error as Error).message}`);
    }
  }

  let charged = 0;
  const due = await db
    .selectFrom("pix_recurrences")
    .innerJoin("contracts", "contracts.id", "pix_recurrences.contract_id")
    .innerJoin("contract_months", "contract_months.contract_id", "contracts.id")
    .innerJoin("milestones", "milestones.id", "contract_months.milestone_id")
    .selectAll("pix_recurrences")
    .select(["milestones.id as milestone_id", "milestones.amount_cents as month_cents", "contract_months.starts_on"])
    .where("pix_recurrences.status", "=", "active")
    .where("contracts.status", "in", ["in_progress", "delivered"])
    .where("contracts.paused_from", "is", null)
    .where("contracts.disputed_at", "is", null)
    .where("milestones.status", "=", "awaiting_funding")
    .whereRef("milestones.amount_cents", "=", "pix_recurrences.amount_cents")
    .where("contract_months.starts_on", ">", addDays(today, 2 - LAPSE_DAYS))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("pix_charges")
            .select("pix_charges.id")
            .whereRef("pix_charges.milestone_id", "=", "milestones.id")
            .where("pix_charges.recurrence_id", "is not", null),
        ),
      ),
    )
    .limit(200)
    .execute();
  for (const row of due) {
    const { milestone_id, month_cents, starts_on, ...recurrence } = row;
    const charge = await claimMonth(
      recurrence,
      { milestone_id, amount_cents: month_cents, lapses_on: addDays(starts_on, LAPSE_DAYS) },
      stamp,
    );
    if (!charge) continue;
    try {
      await sendCharge(provider, charge, recurrence, today);
      charged++;
    } catch (error) {
      logger.error(`[payments] Pix Automático charge not sent yet: ${(error as Error).message}`);
    }
  }

  const unsent = await db
    .selectFrom("pix_charges")
    .innerJoin("pix_recurrences", "pix_recurrences.id", "pix_charges.recurrence_id")
    .selectAll("pix_charges")
    .select(["pix_recurrences.provider_recurrence_id"])
    .where("pix_charges.status", "=", "pending")
    .where("pix_charges.provider_payment_id", "is", null)
    .where("pix_recurrences.status", "=", "active")
    .where("pix_charges.created_at", "<", stamp)
    .limit(200)
    .execute();
  for (const { provider_recurrence_id, ...charge } of unsent) {
    try {
      await sendCharge(provider, charge, { provider_recurrence_id } as PixRecurrenceRow, today);
      charged++;
    } catch (error) {
      logger.error(`[payments] Pix Automático charge not sent yet: ${(error as Error).message}`);
    }
  }
  return { charged, ended };
}

// ---------------------------------------------------------------------------------------------
// The webhook

export type RecurringWebhookOutcome = "processed" | "duplicate" | "ignored" | "unknown" | "pending";

async function record(eventId: string | null, outcome: string, detail: string | null) {
  await db
    .insertInto("payment_events")
    .values({ id: randomUUID(), provider: "pix_automatico", event_id: eventId, outcome, detail, created_at: now() })
    .execute();
}

async function refuse(status: number, key: string, detail: string): Promise<never> {
  logger.warn(`[payments] Pix Automático webhook refused (${key}): ${detail}`);
  await record(null, key, detail.slice(0, 500));
  throw new AppError(status, key);
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const STATUS_OF: Record<ApiRecurrence["status"], PixRecurrenceRow["status"]> = {
  CRIADA: "pending",
  APROVADA: "active",
  REJEITADA: "rejected",
  CANCELADA: "cancelled",
  EXPIRADA: "expired",
};

/** Reads the ids the notification names: recurrences (`recs`) and recurring charges (`cobsr`). */
function parseBody(body: string): { recs: string[]; cobsr: string[] } | null {
  try {
    const value = JSON.parse(body) as { recs?: unknown; cobsr?: unknown };
    const ids = (list: unknown, key: string) =>
      Array.isArray(list)
        ? list
            .map((item) => (item as Record<string, unknown> | null)?.[key])
            .filter((v): v is string => typeof v === "string")
        : [];
    const recs = ids(value?.recs, "idRec");
    const cobsr = ids(value?.cobsr, "txid");
    if (recs.length + cobsr.length === 0 || recs.length + cobsr.length > 50) return null;
    if (![...recs, ...cobsr].every((id) => ID.test(id))) return null;
    return { recs, cobsr };
  } catch {
    return null;
  }
}

/** A recurrence's new state, as the provider has it now: a conditional UPDATE (a repeat changes nothing). */
async function takeRecurrence(provider: RecurringProvider, idRec: string): Promise<RecurringWebhookOutcome> {
  const recurrence = await db
    .selectFrom("pix_recurrences")
    .selectAll()
    .where("provider_recurrence_id", "=", idRec)
    .executeTakeFirst();
  if (!recurrence) {
    await record(`rec:${idRec}`, "unknown", `recurrence ${idRec}`);
    return "unknown";
  }
  const state = await provider.getRecurrence(idRec);
  const status = STATUS_OF[state.status];
  if (!status || state.idRec !== idRec) {
    await record(`rec:${idRec}`, "ignored", `status ${String(state.status)}`);
    return "ignored";
  }
  const from: PixRecurrenceRow["status"][] = status === "active" ? ["pending"] : ["pending", "active"];
  if (status === "pending") return "pending";
  const moved = await db
    .updateTable("pix_recurrences")
    .set({ status, updated_at: now() })
    .where("id", "=", recurrence.id)
    .where("status", "in", from)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return "duplicate";
  await record(`rec:${idRec}:${status}`, "processed", `recurrence ${idRec} ${state.status}`);
  return "processed";
}

/** A month's charge, as the provider has it now: paid (funds the month as any Pix), or refused. */
async function takeCharge(
  provider: RecurringProvider,
  txid: string,
): Promise<{ outcome: RecurringWebhookOutcome; settlement?: Settlement }> {
  const charge = await db
    .selectFrom("pix_charges")
    .selectAll()
    .where("provider", "=", "pix_automatico")
    .where("txid", "=", txid)
    .executeTakeFirst();
  if (!charge) {
    await record(`cobr:${txid}`, "unknown", `charge ${txid}`);
    return { outcome: "unknown" };
  }
  const state = await provider.getRecurringCharge(txid);
  if (state.txid !== txid) {
    await record(`cobr:${txid}`, "ignored", "another charge");
    return { outcome: "ignored" };
  }
  if (state.status === "REJEITADA" || state.status === "CANCELADA" || state.status === "EXPIRADA") {
    // Not debited: the month waits for an ordinary Pix (the merchant's page says so). Both sides
    // are told, once (the conditional UPDATE): the merchant to pay it by Pix, the freelancer that
    // the month is not funded yet.
    const refused = await transaction(async (trx) => {
      const moved = await trx
        .updateTable("pix_charges")
        .set({ status: "expired" })
        .where("id", "=", charge.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      const waiting = await trx
        .selectFrom("milestones")
        .innerJoin("contracts", "contracts.id", "milestones.contract_id")
        .select(["contracts.merchant_id", "contracts.freelancer_id", "contracts.opportunity_id"])
        .where("milestones.id", "=", charge.milestone_id)
        .where("milestones.status", "=", "awaiting_funding")
        .executeTakeFirst();
      if (waiting) {
        const about = { application_id: charge.contract_id, opportunity_id: waiting.opportunity_id };
        await notify(trx, [
          { user_id: waiting.merchant_id, kind: "month_charge_refused", ...about },
          { user_id: waiting.freelancer_id, kind: "month_not_funded", ...about },
        ]);
      }
      await publishContractMove(trx, charge.contract_id);
      return true;
    });
    if (!refused) return { outcome: "duplicate" };
    await record(`cobr:${txid}:refused`, "processed", `charge ${txid} ${state.status}`);
    return { outcome: "processed" };
  }
  if (state.status !== "CONCLUIDA") return { outcome: "pending" };
  const paid = centsOf(state.pix?.[0]?.valor ?? state.valor?.original);
  if (paid !== charge.amount_cents) {
    await record(`cobr:${txid}`, "webhook_wrong_amount", `charge ${txid}: ${paid} for ${charge.amount_cents}`);
    throw new AppError(422, "webhook_wrong_amount");
  }
  const e2e = state.pix?.map((p) => p.endToEndId).find((v): v is string => typeof v === "string" && E2E_ID.test(v));
  return settleNotifiedCharge(charge, {
    provider: "pix_automatico",
    eventId: `cobr:${txid}`,
    detail: `charge ${txid} paid`,
    e2e: e2e ?? null,
  });
}

/**
 * The provider's notification of recurrences (`{"recs":[{"idRec"}]}`) and recurring charges
 * (`{"cobsr":[{"txid"}]}`) that changed. Trusted by its signature only; each id's state is read
 * back from the provider. Unknown ids are recorded and answered 200 (nothing to retry); a
 * provider out of reach answers 503, for the notification to come again.
 */
export async function receivePixAutomaticoWebhook(input: { signature: string | null; body: string }) {
  const secret = config.PIX_AUTOMATICO_WEBHOOK_SECRET;
  const provider = recurringProvider();
  if (!provider || !secret) throw new AppError(404, "not_found");
  const problem = pixAutomaticoSignatureProblem(input.signature, input.body, secret);
  if (problem === "bad_signature") return refuse(401, "webhook_bad_signature", "x-signature");
  if (problem === "stale") return refuse(401, "webhook_stale", "x-signature");
  const ids = parseBody(input.body);
  if (!ids) return refuse(400, "webhook_malformed", "no recs or cobsr ids");
  const outcomes: RecurringWebhookOutcome[] = [];
  let settlement: Settlement | undefined;
  try {
    for (const idRec of ids.recs) outcomes.push(await takeRecurrence(provider, idRec));
    for (const txid of ids.cobsr) {
      const taken = await takeCharge(provider, txid);
      outcomes.push(taken.outcome);
      settlement ??= taken.settlement;
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    logger.error(`[payments] Pix Automático unreachable: ${error.message}`);
    throw new AppError(503, "provider_unavailable", undefined, undefined, { "Retry-After": "60" });
  }
  return { outcomes, settlement };
}
