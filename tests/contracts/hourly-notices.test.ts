import { describe, expect, it } from "vitest";
import { db } from "../../db";
import {
  answerEntry,
  approveWeek,
  changeWeeklyCap,
  pauseHourlyContract,
  questionEntries,
  resumeHourlyContract,
  runHourlySchedule,
} from "~/services/contracts/hourly.server";
import { hiredHourly } from "../payments/support";
import { clock, hourlyClock, MONDAY, submittedWeek } from "./hourly-support";

// The notices and the timeline of an hourly contract's weeks (docs/product.md, "Contrato por hora
// (semanas)"): each move tells the side it is for, and writes a line on the contract's timeline.

hourlyClock();

const HOURLY_KINDS = [
  "contract_week_submitted",
  "contract_week_approved",
  "contract_week_questioned",
  "contract_week_answered",
  "contract_week_lapsed",
  "contract_cap_changed",
  "contract_paused",
  "contract_resumed",
] as const;

/** The hourly kinds told to each side of the contract, oldest first. */
async function notices(id: string, user: { id: string }) {
  const rows = await db
    .selectFrom("notifications")
    .select("kind")
    .where("application_id", "=", id)
    .where("user_id", "=", user.id)
    .where("kind", "in", HOURLY_KINDS)
    .orderBy("created_at")
    .execute();
  return rows.map((r) => r.kind);
}

const events = async (id: string) =>
  (
    await db
      .selectFrom("contract_events")
      .select(["kind", "author", "message"])
      .where("contract_id", "=", id)
      .orderBy("seq")
      .execute()
  ).filter((e) => /^(week_|cap_changed|paused|resumed)/.test(e.kind));

describe("the notices of the weeks", () => {
  it("sent → questioned → answered → approved, the cap, the pause and the resume: each side told, each on the timeline", async () => {
    const { owner, applicant, id, monday, tuesday } = await submittedWeek();
    await questionEntries(owner, id, MONDAY, { entries: [{ id: monday.id, reason: "Essas horas parecem muitas." }] });
    await answerEntry(applicant, id, monday.id, { answer: "A tela de login teve duas revisões." });
    expect(tuesday.question).toBeNull();
    await approveWeek(owner, id, MONDAY);
    await changeWeeklyCap(owner, id, { weekly_cap_hours: 8 });
    await pauseHourlyContract(applicant, id);
    await resumeHourlyContract(owner, id);
    expect(await notices(id, owner)).toEqual(["contract_week_submitted", "contract_week_answered", "contract_paused"]);
    expect(await notices(id, applicant)).toEqual([
      "contract_week_questioned",
      "contract_week_approved",
      "contract_cap_changed",
      "contract_resumed",
    ]);
    expect(await events(id)).toEqual([
      { kind: "week_submitted", author: "freelancer", message: "Semana de 30/11/2026" },
      { kind: "week_questioned", author: "merchant", message: "Semana de 30/11/2026" },
      { kind: "week_answered", author: "freelancer", message: "Semana de 30/11/2026" },
      { kind: "week_approved", author: "merchant", message: "Semana de 30/11/2026" },
      { kind: "cap_changed", author: "merchant", message: "8 h" },
      { kind: "paused", author: "freelancer", message: null },
      { kind: "resumed", author: "merchant", message: null },
    ]);
    // Their e-mails are queued with them, for the side each is for (the outbox sends them).
    const queued = await db
      .selectFrom("outbox")
      .select(["user_id", "kind"])
      .where("application_id", "=", id)
      .where("kind", "in", ["contract_week_submitted", "contract_week_approved"])
      .orderBy("kind")
      .execute();
    expect(queued).toEqual([
      { user_id: applicant.id, kind: "contract_week_approved" },
      { user_id: owner.id, kind: "contract_week_submitted" },
    ]);
  });

  it("by the schedule: sent on Monday 12:00 and approved after 5 days (by the system), an unpaid week lapsed to both", async () => {
    const { owner, applicant, id } = await submittedWeek();
    const unpaid = await hiredHourly();
    clock("2026-12-07T15:30:00.000Z");
    await runHourlySchedule(new Date());
    clock("2026-12-14T15:30:00.000Z");
    await runHourlySchedule(new Date());
    // The next week, opened when this one was sent, was not paid: it lapsed, told to both.
    expect((await notices(id, applicant)).sort()).toEqual(["contract_week_approved", "contract_week_lapsed"]);
    expect((await events(id)).map((e) => [e.kind, e.author])).toEqual([
      ["week_submitted", "freelancer"],
      ["week_lapsed", "system"],
      ["week_approved", "system"],
    ]);
    expect(await notices(id, owner)).toEqual(["contract_week_submitted", "contract_week_lapsed"]);
    // Never paid: its week lapsed on 7 December, and the one opened instead on the 14th.
    expect(await notices(unpaid.id, unpaid.owner)).toEqual(["contract_week_lapsed", "contract_week_lapsed"]);
    expect(await notices(unpaid.id, unpaid.applicant)).toEqual(["contract_week_lapsed", "contract_week_lapsed"]);
  });
});
