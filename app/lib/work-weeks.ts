import { TIME_ZONE } from "./market-constants";

// The weeks of hourly contracts (docs/payments.md, "Contratos por hora"): Monday to Sunday in São
// Paulo, named by their Monday ('YYYY-MM-DD'). Days are calendar dates, computed as UTC dates so
// that no local offset moves them; instants (Monday 12:00) are found through the zone's offset.

const DAY_MS = 86_400_000;

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE });
const offsetFormat = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, timeZoneName: "longOffset" });

/** The date (YYYY-MM-DD) in São Paulo at the instant `at`. */
export const dayInSaoPaulo = (at: Date) => dayFormat.format(at);

const parseDay = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `day` plus `n` days (n may be negative). */
export const addDays = (day: string, n: number) => new Date(parseDay(day) + n * DAY_MS).toISOString().slice(0, 10);

/** The Monday of the week `day` belongs to. */
export function weekStartOf(day: string): string {
  const weekday = new Date(parseDay(day)).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The seven days of the week starting on `weekStart`, Monday first. */
export const daysOfWeek = (weekStart: string) => Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));

/** São Paulo's offset from UTC in minutes at the instant `at` (−180 since 2019). */
function offsetMinutes(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant of `hour`:00 on `day` in São Paulo. */
export function saoPauloInstant(day: string, hour: number): Date {
  const wall = parseDay(day) + hour * 3_600_000;
  return new Date(wall - offsetMinutes(new Date(wall)) * 60_000);
}

/** When a week still open is submitted by the schedule: the following Monday at 12:00 in São Paulo. */
export const autoSubmitAt = (weekStart: string) => saoPauloInstant(addDays(weekStart, 7), 12);

/** A week's title as its milestone and charge carry it: "Semana de 30/11/2026". */
export function weekTitle(weekStart: string) {
  const [y, m, d] = weekStart.split("-");
  return `Semana de ${d}/${m}/${y}`;
}
