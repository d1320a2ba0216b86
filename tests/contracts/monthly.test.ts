import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { feeOf } from "~/lib/fees";
import {
  approveContract,
  cancelContract,
  getContract,
  runContractSchedule,
} from "~/services/contracts/contracts.server";
import { openDispute } from "~/services/contracts/disputes.server";
import { endMonthlyContract, listMonths, runMonthlySchedule } from "~/services/contracts/monthly.server";
import { listWeeks } from "~/services/contracts/hourly.server";
import { issueCharge, confirmReceipt } from "~/services/payments/charges.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { applyToOpportunity, counterOffer } from "~/services/marketplace/applications.server";
import { createOpportunity, createUser } from "../../db/factories";
import { freelancer, merchant, outcome, refusal } from "../support/market";
import { deliver, e2eId, escrow, fund, hiredHourly, hiredMonthly, MONTH_INCLUDES, operator } from "../payments/support";

// Monthly contracts (docs/payments.md, "Contratos mensais"): a month a milestone of the monthly
// amount, funded ahead by Pix, worked with the contract's moves; the schedule opens the next
// month 5 days before it starts and lapses a month left unfunded 3 days after its start.
// The clock is set in UTC; the comments say the São Paulo time (UTC−3).

/** Wednesday 2 December 2026, 15:00 in São Paulo: a hire today makes the 2nd the contract's day. */
const HIRE = "2026-12-02T18:00:00.000Z";
const clock = (iso: string) => vi.setSystemTime(new Date(iso));
const AMOUNT = 300_001;
const FEE = feeOf(AMOUNT, 1_000);

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  clock(HIRE);
});
afterEach(() => vi.useRealTimers());

const contractRow = (id: string) =>
  db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const available = (user: { id: string }) => balanceOf(account.available(user.id));
/** The contract's months, oldest first (the schedule's counts include other tests' contracts). */
const monthsOf = (id: string) =>
  db.selectFrom("contract_months").select("month").where("contract_id", "=", id).orderBy("month").execute();

/** A monthly hire with December funded, delivered and (optionally) approved. */
async function workedMonth({ approve = true } = {}) {
  const hire = await hiredMonthly({ amount_cents: AMOUNT });
  await fund(hire.owner, hire.id);
  await deliver(hire.applicant, hire.id);
  if (approve) await approveContract(hire.owner, hire.id);
  return hire;
}

describe("a monthly hire", () => {
  it("makes a monthly contract whose first month, starting today, waits for the monthly amount", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    expect(await contractRow(id)).toMatchObject({
      kind: "monthly",
      monthly_day: 2,
      month_includes: MONTH_INCLUDES,
      price_cents: AMOUNT,
      paused_from: null,
    });
    const contract = await getContract(owner, id);
    expect(contract.milestones).toMatchObject([
      { seq: 1, title: "Mês de 12/2026", amount_cents: AMOUNT, status: "awaiting_funding" },
    ]);
    expect(contract.allowed_actions).toContain("fund");
    const months = await listMonths(applicant, id);
    expect(months).toMatchObject({
      monthly_day: 2,
      amount_cents: AMOUNT,
      fee_cents: FEE,
      net_cents: AMOUNT - FEE,
      ends_from: null,
      can_end: true,
      months: [
        {
          month: "2026-12",
          starts_on: "2026-12-02",
          ends_on: "2027-01-01",
          status: "awaiting_funding",
          lapses_on: "2026-12-05",
        },
      ],
    });
  });

  it("starts next month when the hire's day has passed, and on the 1st after the 28th", async () => {
    clock("2026-12-30T13:00:00.000Z");
    const { applicant, id } = await hiredMonthly();
    const months = await listMonths(applicant, id);
    expect(months.monthly_day).toBe(1);
    expect(months.months).toMatchObject([{ month: "2027-01", starts_on: "2027-01-01", ends_on: "2027-01-31" }]);
  });

  it("comes from a monthly proposal on a fixed-budget opportunity only, kept through the counters", async () => {
    const owner = await merchant();
    const applicant = await freelancer();
    const letter = "Olá! Cuido das redes sociais de pequenas empresas há cinco anos.";
    const proposal = { cover_letter: letter, price_cents: 150_000, delivery_days: 30, month_includes: MONTH_INCLUDES };
    const hourly = await createOpportunity(db, { merchant_id: owner.id, budget_type: "hourly" });
    expect(await refusal(applyToOpportunity(applicant, hourly.uuid, proposal))).toMatchObject({
      status: 422,
      fields: { month_includes: "month_includes_not_allowed" },
    });
    const fixed = await createOpportunity(db, { merchant_id: owner.id, budget_type: "fixed" });
    expect(
      await refusal(applyToOpportunity(applicant, fixed.uuid, { ...proposal, month_includes: "curto" })),
    ).toMatchObject({ status: 422, fields: { month_includes: "month_includes_length" } });
    const applied = await applyToOpportunity(applicant, fixed.uuid, proposal);
    expect(applied.month_includes).toBe(MONTH_INCLUDES);
    const counter = await counterOffer(owner, applied.id, { price_cents: 140_000, delivery_days: 30 });
    expect(counter).toMatchObject({ price_cents: 140_000, month_includes: MONTH_INCLUDES });

    // A fixed negotiation does not become monthly halfway.
    const other = await createOpportunity(db, { merchant_id: owner.id, budget_type: "fixed" });
    const plain = await applyToOpportunity(applicant, other.uuid, { ...proposal, month_includes: undefined });
    expect(plain.month_includes).toBeNull();
    expect(
      await refusal(
        counterOffer(owner, plain.id, { price_cents: 1_000, delivery_days: 3, month_includes: MONTH_INCLUDES }),
      ),
    ).toMatchObject({ status: 422, fields: { month_includes: "month_includes_not_allowed" } });
  });
});

describe("a month's work", () => {
  it("is funded, delivered and approved as a milestone: the month's amount released less the fee, the contract goes on", async () => {
    const { owner, applicant, id } = await workedMonth();
    expect(await available(applicant)).toBe(AMOUNT - FEE);
    expect(await balanceOf(account.fees)).toBeGreaterThanOrEqual(FEE);
    expect((await contractRow(id)).status).toBe("in_progress");
    expect((await listMonths(owner, id)).months).toMatchObject([
      { month: "2026-12", status: "approved", released_cents: AMOUNT, fee_cents: FEE, refunded_cents: 0 },
    ]);
    expect(await checkLedger()).toEqual([]);
  });

  it("is approved by the schedule 14 days after the delivery", async () => {
    const { owner, applicant, id } = await workedMonth({ approve: false });
    clock("2026-12-17T18:00:00.000Z");
    await runContractSchedule();
    expect((await listMonths(owner, id)).months[0].status).toBe("approved");
    expect(await available(applicant)).toBe(AMOUNT - FEE);
    expect((await contractRow(id)).status).toBe("in_progress");
    expect(await checkLedger()).toEqual([]);
  });

  it("refuses the fixed contract's milestone moves and the hourly contract's weeks", async () => {
    const { owner, id } = await hiredMonthly();
    const halves = {
      milestones: [
        { title: "Primeira parte", amount_cents: 150_000, days: 5 },
        { title: "Segunda parte", amount_cents: 150_000, days: 5 },
      ],
    };
    expect(await refusal(splitMilestones(owner, id, halves))).toMatchObject({
      status: 409,
      key: "contract_monthly",
    });
    expect(await refusal(listWeeks(owner, id))).toMatchObject({ status: 409, key: "contract_not_hourly" });
    const hourly = await hiredHourly();
    expect(await refusal(listMonths(hourly.owner, hourly.id))).toMatchObject({
      status: 409,
      key: "contract_not_monthly",
    });
    expect(await outcome(listMonths(await createUser(db, { account_type: "merchant" }), id))).toBe(404);
    expect(await outcome(listMonths(owner, "not-a-uuid"))).toBe(404);
  });
});

describe("the schedule", () => {
  it("opens the next month 5 days before it starts, once with two runs at once", async () => {
    const { owner, id } = await workedMonth();
    clock("2026-12-27T18:00:00.000Z");
    await runMonthlySchedule();
    expect(await monthsOf(id)).toHaveLength(1);
    clock("2026-12-28T18:00:00.000Z");
    await Promise.all([runMonthlySchedule(), runMonthlySchedule()]);
    await runMonthlySchedule();
    expect(await monthsOf(id)).toEqual([{ month: "2026-12" }, { month: "2027-01" }]);
    const contract = await getContract(owner, id);
    expect(contract.milestones).toMatchObject([
      { seq: 1, status: "released" },
      { seq: 2, title: "Mês de 01/2027", amount_cents: AMOUNT, status: "awaiting_funding" },
    ]);
    expect((await contractRow(id)).milestones_count).toBe(2);
    expect(contract.allowed_actions).toContain("fund");
  });

  it("funds the next month while the last is delivered, under review; both are released in turn", async () => {
    const { owner, applicant, id } = await workedMonth({ approve: false });
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    expect((await getContract(owner, id)).allowed_actions).toEqual(expect.arrayContaining(["approve", "fund"]));
    await fund(owner, id);
    expect((await listMonths(owner, id)).months.map((m) => m.status)).toEqual(["open", "delivered"]);
    await approveContract(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect(await available(applicant)).toBe(2 * (AMOUNT - FEE));
    expect((await contractRow(id)).status).toBe("in_progress");
    expect(await checkLedger()).toEqual([]);
  });

  it("lapses a month still unfunded 3 days after its start: its charge withdrawn, a late Pix owed back", async () => {
    const { owner, id } = await workedMonth();
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    const { charge } = await issueCharge(owner, id);
    clock("2027-01-04T18:00:00.000Z");
    await runMonthlySchedule();
    expect((await listMonths(owner, id)).months[0]).toMatchObject({ month: "2027-01", status: "awaiting_funding" });
    clock("2027-01-05T18:00:00.000Z");
    await Promise.all([runMonthlySchedule(), runMonthlySchedule()]);
    expect((await listMonths(owner, id)).months[0]).toMatchObject({ month: "2027-01", status: "cancelled" });
    const stored = await db
      .selectFrom("pix_charges")
      .select("status")
      .where("id", "=", charge.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe("superseded");
    // The Pix paid anyway: the money is owed back, not held.
    await confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents });
    const refund = await db
      .selectFrom("refunds")
      .selectAll()
      .where("charge_id", "=", charge.id)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ amount_cents: AMOUNT, status: "due" });
    expect((await contractRow(id)).status).toBe("in_progress");
    expect(await checkLedger()).toEqual([]);
  });
});

describe("ending", () => {
  it("from the next month: the funded month runs to its end, the next one waiting is dropped; the last approval completes", async () => {
    const { owner, applicant, id } = await workedMonth({ approve: false });
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    const ended = await endMonthlyContract(applicant, id);
    expect(ended).toMatchObject({ ends_from: "2027-01", can_end: false });
    expect(ended.months.map((m) => m.status)).toEqual(["cancelled", "delivered"]);
    expect(await refusal(endMonthlyContract(owner, id))).toMatchObject({ status: 409 });
    clock("2027-02-01T18:00:00.000Z");
    await runMonthlySchedule();
    expect(await monthsOf(id)).toHaveLength(2);
    await approveContract(owner, id);
    expect(await contractRow(id)).toMatchObject({ status: "completed", ended_by: "merchant" });
    expect(await available(applicant)).toBe(AMOUNT - FEE);
    expect(await checkLedger()).toEqual([]);
  });

  it("with nothing left to work completes the contract at once", async () => {
    const { owner, id } = await workedMonth();
    await endMonthlyContract(owner, id);
    expect(await contractRow(id)).toMatchObject({ status: "completed", ended_by: "merchant", paused_from: "2027-01" });
  });

  it("is refused to anyone else and during a dispute", async () => {
    const { owner, applicant, id } = await workedMonth({ approve: false });
    expect(await outcome(endMonthlyContract(await createUser(db, { account_type: "freelancer" }), id))).toBe(404);
    await openDispute(owner, id, { reason: "quality", statement: "O mês não entregou os posts combinados." });
    expect(await refusal(endMonthlyContract(applicant, id))).toMatchObject({ status: 409 });
  });
});

describe("races", () => {
  it("two schedules approving a delivered month at once release it once", async () => {
    const { applicant, id } = await workedMonth({ approve: false });
    clock("2026-12-17T18:00:00.000Z");
    await Promise.all([runContractSchedule(), runContractSchedule()]);
    expect(await available(applicant)).toBe(AMOUNT - FEE);
    const releases = await db
      .selectFrom("ledger_transactions")
      .select("id")
      .where("contract_id", "=", id)
      .where("kind", "=", "release")
      .execute();
    expect(releases).toHaveLength(1);
    expect(await checkLedger()).toEqual([]);
  });

  it("an end and the schedule opening the next month at once never leave a month to fund after the end", async () => {
    const { owner, id } = await workedMonth();
    clock("2026-12-28T18:00:00.000Z");
    await Promise.allSettled([endMonthlyContract(owner, id), runMonthlySchedule()]);
    const row = await contractRow(id);
    const months = (await listMonths(owner, id)).months;
    if (row.paused_from === null) {
      // The opening won and the end answered 409: the month waits for its money, the contract goes on.
      expect(months.map((m) => m.status)).toEqual(["awaiting_funding", "approved"]);
    } else {
      expect(row.status).toBe("completed");
      expect(months.every((m) => m.status !== "awaiting_funding")).toBe(true);
    }
    expect(await checkLedger()).toEqual([]);
  });

  it("a dispute's refund racing the month's Pix: the money is held or owed back, never both", async () => {
    const { owner, id } = await workedMonth({ approve: false });
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    const { charge } = await issueCharge(owner, id);
    await openDispute(owner, id, { reason: "quality", statement: "O mês não entregou os posts combinados." });
    const [decided] = await Promise.allSettled([
      settleDispute(operator, id, "cancel"),
      confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents }),
    ]);
    // The decision may lose to the Pix (409 contract_changed: the contract moved under it); the
    // operator decides again.
    if (decided.status === "rejected") {
      expect(decided.reason).toMatchObject({ status: 409, key: "contract_changed" });
      await settleDispute(operator, id, "cancel");
    }
    const refunds = await db.selectFrom("refunds").select("amount_cents").where("contract_id", "=", id).execute();
    // December refunded by the decision; January's Pix owed back whichever came first.
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([AMOUNT, AMOUNT]);
    expect((await contractRow(id)).status).toBe("cancelled");
    expect(await checkLedger()).toEqual([]);
  });
});

describe("money held for two months", () => {
  async function twoMonthsHeld() {
    const hire = await workedMonth({ approve: false });
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    await fund(hire.owner, hire.id);
    return hire;
  }

  it("a dispute cancelled by the operator refunds the month disputed and the month funded ahead", async () => {
    const { owner, applicant, id } = await twoMonthsHeld();
    await openDispute(owner, id, { reason: "quality", statement: "O mês não entregou os posts combinados." });
    await settleDispute(operator, id, "cancel");
    const refunds = await db.selectFrom("refunds").select("amount_cents").where("contract_id", "=", id).execute();
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([AMOUNT, AMOUNT]);
    expect(await available(applicant)).toBe(0);
    expect((await contractRow(id)).status).toBe("cancelled");
    expect((await listMonths(owner, id)).months.map((m) => m.status)).toEqual(["refunded", "refunded"]);
    expect(await checkLedger()).toEqual([]);
  });

  it("a split of the month disputed ends the contract: the month funded ahead is owed back too", async () => {
    const { owner, applicant, id } = await twoMonthsHeld();
    await openDispute(owner, id, { reason: "quality", statement: "O mês não entregou os posts combinados." });
    await settleDispute(operator, id, "split", { freelancer_cents: 100_000 });
    expect(await available(applicant)).toBe(100_000 - feeOf(100_000, 1_000));
    const refunds = await db.selectFrom("refunds").select("amount_cents").where("contract_id", "=", id).execute();
    expect(refunds.map((r) => Number(r.amount_cents)).sort()).toEqual([AMOUNT - 100_000, AMOUNT]);
    expect((await contractRow(id)).status).toBe("cancelled");
    expect((await listMonths(owner, id)).months.map((m) => m.status)).toEqual(["refunded", "approved"]);
    expect(await checkLedger()).toEqual([]);
  });

  it("a cancellation before the month's delivery refunds both months", async () => {
    const hire = await hiredMonthly({ amount_cents: AMOUNT });
    await fund(hire.owner, hire.id);
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    await fund(hire.owner, hire.id);
    await cancelContract(hire.owner, hire.id, { reason: "O projeto foi suspenso pela diretoria." });
    const refunds = await db.selectFrom("refunds").select("amount_cents").where("contract_id", "=", hire.id).execute();
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([AMOUNT, AMOUNT]);
    expect(await checkLedger()).toEqual([]);
  });
});
