import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserRow } from "../../db/schema";
import { createSession } from "~/services/accounts/sessions.server";
import { approveContract } from "~/services/contracts/contracts.server";
import { approveWeek, logEntry, submitWeek } from "~/services/contracts/hourly.server";
import { getStatement, statementCsv } from "~/services/payments/finance.server";
import { checkLedger } from "~/services/payments/ledger.server";
import * as financePage from "~/routes/_account+/financeiro._index";
import { get } from "../operator/support";
import { statementsOf } from "../support/statements";
import { deliver, escrow, fund, hired, hiredHourly, hiredMonthly } from "./support";

// /financeiro's lines of hourly and monthly contracts (docs/payments.md): a week's lines are
// "Semana de dd/mm — <contract>" (its approval, "Semana aprovada", with what reached the
// freelancer and what went back), a month's "Mês de MM/AAAA — <contract>"; the CSV carries the
// same split per line; the page's statements are the same whatever its lines are.

const MONDAY = "2026-11-30";
const tokenOf = async (user: UserRow) => (await createSession(user.id)).token;

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2 December 2026, 15:00 in São Paulo.
  vi.setSystemTime(new Date("2026-12-02T18:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

/** An hourly week (R$ 80,00 × 10 h paid) with 1 h 30 min logged, sent and approved. */
async function approvedWeek() {
  const hire = await hiredHourly({ rate_cents: 8_000, cap_hours: 10 });
  await fund(hire.owner, hire.id);
  await logEntry(hire.applicant, hire.id, MONDAY, { day: "2026-12-01", minutes: 90, description: "Modelei o banco." });
  await submitWeek(hire.applicant, hire.id, MONDAY);
  await approveWeek(hire.owner, hire.id, MONDAY);
  return hire;
}

describe("/financeiro's lines of weeks and months", () => {
  it("names a week's lines by the week, its approval with the release and the refund, on both sides", async () => {
    const { owner, applicant, opportunity } = await approvedWeek();
    const released = 12_000;
    const fee = 1_200;
    for (const [who, token] of [
      [applicant, await tokenOf(applicant)],
      [owner, await tokenOf(owner)],
    ] as const) {
      // The same instant (the clock is held): by kind, not by order.
      const lines = (await getStatement(who, {})).lines.sort((a, b) => a.kind.localeCompare(b.kind));
      expect(lines.map((l) => [l.kind, l.period])).toEqual([
        ["charge_received", { kind: "week", start: MONDAY }],
        ["split", { kind: "week", start: MONDAY }],
      ]);
      expect(lines[1]).toMatchObject({
        amount_cents: 80_000,
        fee_cents: fee,
        freelancer_cents: released - fee,
        refund_cents: 80_000 - released,
        contract: { title: opportunity.title },
        milestone: "Semana de 30/11/2026",
      });
      const page = await get(financePage, "/financeiro", token);
      expect(page.status).toBe(200);
      expect(page.body.statement.lines.map((l: { period: unknown }) => l.period)).toEqual([
        { kind: "week", start: MONDAY },
        { kind: "week", start: MONDAY },
      ]);
    }
    const csv = await statementCsv(applicant, { split: "Divisão", week_approved: "Semana aprovada" });
    expect(csv).toContain(
      `;Semana aprovada;${opportunity.title};Semana de 30/11/2026;"800,00";"12,00";"108,00";"680,00";`,
    );
    expect(await checkLedger()).toEqual([]);
  });

  it("names a month's lines by the month", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: 300_000 });
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const lines = (await getStatement(applicant, {})).lines.sort((a, b) => a.kind.localeCompare(b.kind));
    expect(lines.map((l) => [l.kind, l.period?.kind])).toEqual([
      ["charge_received", "month"],
      ["release", "month"],
    ]);
    expect(lines[1]).toMatchObject({ freelancer_cents: 270_000, refund_cents: 0 });
    expect(lines[1]!.period!.start).toMatch(/^\d{4}-\d{2}$/);
  });

  it("takes the same statements with a fixed contract's lines as with weeks' and months'", async () => {
    const fixed = await hired();
    await fund(fixed.owner, fixed.id);
    await deliver(fixed.applicant, fixed.id);
    await approveContract(fixed.owner, fixed.id);
    const week = await approvedWeek();
    const count = async (user: UserRow) => {
      const token = await tokenOf(user);
      return statementsOf(() => get(financePage, "/financeiro", token));
    };
    for (const side of ["owner", "applicant"] as const) {
      expect(await count(week[side])).toBe(await count(fixed[side]));
    }
  });
});
