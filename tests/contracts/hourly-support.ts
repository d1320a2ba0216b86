import { afterEach, beforeAll, beforeEach, vi } from "vitest";
import { config } from "~/config.server";
import { logEntry, submitWeek } from "~/services/contracts/hourly.server";
import { escrow, fund, hiredHourly } from "../payments/support";

// The setting every hourly test shares (docs/payments.md, "Contratos por hora"): the clock on
// Wednesday 2 December 2026, 15:00 in São Paulo, payments held in escrow with a 10% fee, and the
// hires a week's story starts from. The clock is set in UTC; comments say the São Paulo time (UTC−3).

export const MONDAY = "2026-11-30";
export const TUESDAY = "2026-12-01";
export const NEXT_MONDAY = "2026-12-07";
/** Wednesday 2 December 2026, 15:00 in São Paulo. */
export const WEDNESDAY = "2026-12-02T18:00:00.000Z";

export const clock = (iso: string) => vi.setSystemTime(new Date(iso));

export const entry = (day: string, minutes: number, description = "Implementei a tela de login e os testes.") => ({
  day,
  minutes,
  description,
});

/** Escrow with a 10% fee, the clock on WEDNESDAY before each test, and both put back after it. */
export function hourlyClock() {
  beforeAll(() => escrow(1_000));
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clock(WEDNESDAY);
  });
  afterEach(() => {
    vi.useRealTimers();
    config.PAYMENTS = "escrow";
  });
}

/** An hourly hire made on Wednesday with its first week funded. */
export async function fundedWeek(terms: { rate_cents?: number; cap_hours?: number } = {}) {
  const hire = await hiredHourly(terms);
  if (config.PAYMENTS === "escrow") await fund(hire.owner, hire.id);
  return hire;
}

/** A funded week with two entries (Monday 120 min, Tuesday 90 min), submitted. */
export async function submittedWeek(terms: { rate_cents?: number; cap_hours?: number } = {}) {
  const hire = await fundedWeek(terms);
  const monday = await logEntry(hire.applicant, hire.id, MONDAY, entry(MONDAY, 120));
  const tuesday = await logEntry(hire.applicant, hire.id, MONDAY, entry(TUESDAY, 90));
  await submitWeek(hire.applicant, hire.id, MONDAY);
  return { ...hire, monday, tuesday };
}
