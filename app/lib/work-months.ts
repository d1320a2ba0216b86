import { addDays } from "./work-weeks";

// The months of monthly contracts (docs/payments.md, "Contratos mensais"): a month is named
// 'YYYY-MM' and starts on the contract's day (1–28, so every month has it) in São Paulo; it runs
// to the day before the next month's start. Calendar dates only, as the weeks' (work-weeks.ts).

/** The last day a month may start on: every month has it. */
export const MAX_MONTHLY_DAY = 28;

/** The month's first day: its `day` ('YYYY-MM-DD'). */
export const monthStart = (month: string, day: number) => `${month}-${String(day).padStart(2, "0")}`;

/** The month after `month` ('YYYY-MM'). */
export function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/** The month's last day: the day before the next month's start. */
export const monthEnd = (month: string, day: number) => addDays(monthStart(nextMonth(month), day), -1);

/** The days a month lasts (28 to 31). */
export const monthDays = (month: string, day: number) =>
  Math.round((Date.parse(monthStart(nextMonth(month), day)) - Date.parse(monthStart(month, day))) / 86_400_000);

/**
 * The day of a contract hired on `today` ('YYYY-MM-DD', São Paulo): the hire's day, or the 1st
 * after the 28th (the first month then starts on the 1st of the next month).
 */
export const monthlyDayOf = (today: string) => {
  const day = Number(today.slice(8, 10));
  return day > MAX_MONTHLY_DAY ? 1 : day;
};

/** The month running on `today` (started on or before it), or the first one to start after it. */
export function monthOn(today: string, day: number): string {
  const month = today.slice(0, 7);
  if (monthStart(month, day) <= today) return month;
  // Before this calendar month's day: the month that started last calendar month still runs.
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** The first month of a contract hired on `today`: this calendar month if its day is not past, else the next. */
export function firstMonth(today: string, day: number): string {
  const month = today.slice(0, 7);
  return monthStart(month, day) >= today ? month : nextMonth(month);
}

/** A month's title as its milestone and charge carry it: "Mês de 12/2026". */
export function monthTitle(month: string) {
  const [y, m] = month.split("-");
  return `Mês de ${m}/${y}`;
}
