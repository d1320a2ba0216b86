import { describe, expect, it } from "vitest";
import { db } from "../../db";
import * as pauseApi from "~/routes/api+/contracts+/$id.pause";
import * as resumeApi from "~/routes/api+/contracts+/$id.resume";
import * as contractPage from "~/routes/contracts+/$id";
import { createSession } from "~/services/accounts/sessions.server";
import { getContract } from "~/services/contracts/contracts.server";
import {
  approveWeek,
  endHourlyContract,
  listWeeks,
  logEntry,
  pauseHourlyContract,
  resumeHourlyContract,
  runHourlySchedule,
  submitWeek,
} from "~/services/contracts/hourly.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { outcome, refusal } from "../support/market";
import { get, postForm, toastOf } from "../operator/support";
import { fund, hired, hiredHourly } from "../payments/support";
import { clock, entry, fundedWeek, hourlyClock, MONDAY, NEXT_MONDAY } from "./hourly-support";

// Pausing an hourly contract (docs/payments.md, "Contratos por hora"): either side, from the next
// week (the week in hand goes on to its end, and a week waiting for its money may still be paid);
// no week opens while paused; resuming opens the next week at once when none is in hand.

const weeksOf = async (user: Parameters<typeof listWeeks>[0], id: string) =>
  (await listWeeks(user, id)).map((w) => [w.week_start, w.status]);
const pausedFrom = async (id: string) =>
  (await db.selectFrom("contracts").select("hourly_paused_from").where("id", "=", id).executeTakeFirstOrThrow())
    .hourly_paused_from;

hourlyClock();

describe("pausing an hourly contract", () => {
  it("from the next week: the open week goes on, is sent and approved, and no week opens until resumed", async () => {
    const { owner, applicant, id } = await fundedWeek();
    expect(await pauseHourlyContract(applicant, id)).toEqual({ hourly_paused_from: NEXT_MONDAY, opened_week: null });
    expect((await getContract(owner, id)).hourly_paused_from).toBe(NEXT_MONDAY);
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 120));
    await submitWeek(applicant, id, MONDAY);
    expect(await weeksOf(owner, id)).toEqual([[MONDAY, "submitted"]]);
    await approveWeek(owner, id, MONDAY);
    // Weeks later the schedule opens nothing; the contract goes on, paused.
    clock("2026-12-22T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect(await weeksOf(owner, id)).toEqual([[MONDAY, "approved"]]);
    expect((await getContract(owner, id)).status).toBe("in_progress");
    // Resumed on Tuesday 22 December: that week opens now, waiting for its money.
    expect(await resumeHourlyContract(owner, id)).toEqual({ hourly_paused_from: null, opened_week: "2026-12-21" });
    expect(await weeksOf(owner, id)).toEqual([
      ["2026-12-21", "awaiting_funding"],
      [MONDAY, "approved"],
    ]);
    await fund(owner, id);
    expect((await weeksOf(applicant, id))[0]).toEqual(["2026-12-21", "open"]);
    await checkLedger();
  });

  it("a week awaiting its money stays and may be paid; the pause starts after it, and it lapses unpaid", async () => {
    const { owner, applicant, id } = await hiredHourly();
    expect((await pauseHourlyContract(owner, id)).hourly_paused_from).toBe(NEXT_MONDAY);
    await fund(owner, id);
    expect(await weeksOf(applicant, id)).toEqual([[MONDAY, "open"]]);
    // Submitted by the schedule on Monday 12:00: nothing opens after it.
    clock("2026-12-07T15:30:00.000Z");
    expect(await runHourlySchedule(new Date())).toMatchObject({ submitted: 1 });
    expect(await weeksOf(owner, id)).toEqual([[MONDAY, "submitted"]]);

    // Unpaid: the week lapses on its Monday 12:00 and no week opens instead.
    clock("2026-12-02T18:00:00.000Z");
    const other = await hiredHourly();
    await pauseHourlyContract(other.applicant, other.id);
    clock("2026-12-07T15:30:00.000Z");
    expect(await runHourlySchedule(new Date())).toMatchObject({ lapsed: 1 });
    expect(await weeksOf(other.owner, other.id)).toEqual([[MONDAY, "lapsed"]]);
    expect((await resumeHourlyContract(other.applicant, other.id)).opened_week).toBe(NEXT_MONDAY);
    await checkLedger();
  });

  it("resumed while the week in hand goes on: nothing opens now, the next week opens when it is sent", async () => {
    const { owner, applicant, id } = await fundedWeek();
    await pauseHourlyContract(owner, id);
    expect(await resumeHourlyContract(applicant, id)).toEqual({ hourly_paused_from: null, opened_week: null });
    await submitWeek(applicant, id, MONDAY);
    expect(await weeksOf(owner, id)).toEqual([
      [NEXT_MONDAY, "awaiting_funding"],
      [MONDAY, "submitted"],
    ]);
  });

  it("refuses strangers, a pause twice, a resume not paused, an ended, a disputed or a fixed contract", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const stranger = await createUser(db, { account_type: "merchant" });
    expect(await refusal(pauseHourlyContract(stranger, id))).toMatchObject({ status: 404 });
    expect(await refusal(resumeHourlyContract(owner, id))).toMatchObject({ status: 409, key: "contract_not_paused" });
    await pauseHourlyContract(owner, id);
    expect(await refusal(pauseHourlyContract(applicant, id))).toMatchObject({ status: 409, key: "contract_paused" });
    // Ended while paused: the week in hand is the last; neither move is open any more.
    await endHourlyContract(applicant, id);
    expect(await refusal(pauseHourlyContract(owner, id))).toMatchObject({ status: 409 });
    expect(await refusal(resumeHourlyContract(owner, id))).toMatchObject({ status: 409 });
    const running = await fundedWeek();
    await db
      .updateTable("contracts")
      .set({ disputed_at: new Date().toISOString() })
      .where("id", "=", running.id)
      .execute();
    expect(await refusal(pauseHourlyContract(running.owner, running.id))).toMatchObject({
      status: 409,
      key: "contract_disputed",
    });
    const fixed = await hired();
    expect(await refusal(pauseHourlyContract(fixed.owner, fixed.id))).toMatchObject({
      status: 409,
      key: "contract_not_hourly",
    });
  });
});

describe("races", () => {
  it("two pauses at once: one wins, the other is 409; two resumes at once: the same", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, applicant, id } = await fundedWeek();
      const paused = await Promise.all([
        outcome(pauseHourlyContract(owner, id)),
        outcome(pauseHourlyContract(applicant, id)),
      ]);
      expect(paused.sort()).toEqual([200, 409]);
      const resumed = await Promise.all([
        outcome(resumeHourlyContract(owner, id)),
        outcome(resumeHourlyContract(applicant, id)),
      ]);
      expect(resumed.sort()).toEqual([200, 409]);
      expect(await pausedFrom(id)).toBeNull();
    }
  });

  it("a pause racing the end: the contract ends either way; a pause after it is 409", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, applicant, id } = await fundedWeek();
      const [paused, ended] = await Promise.all([
        outcome(pauseHourlyContract(owner, id)),
        outcome(endHourlyContract(applicant, id)),
      ]);
      expect(ended).toBe(200);
      expect([200, 409]).toContain(paused);
      const row = await db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.paused_from).toBe(NEXT_MONDAY);
    }
  });

  it("a pause or a resume racing the week's submission: one week in hand after it, never two, never none", async () => {
    for (let round = 0; round < 3; round++) {
      // Pause against submit: either the next week opened first (the pause starts after it) or none opens.
      const a = await fundedWeek();
      await logEntry(a.applicant, a.id, MONDAY, entry(MONDAY, 60));
      const [paused] = await Promise.all([pauseHourlyContract(a.owner, a.id), submitWeek(a.applicant, a.id, MONDAY)]);
      const aWeeks = await weeksOf(a.owner, a.id);
      expect(aWeeks.at(-1)).toEqual([MONDAY, "submitted"]);
      if (aWeeks.length === 2) expect(paused.hourly_paused_from).toBe("2026-12-14");
      else expect(paused.hourly_paused_from).toBe(NEXT_MONDAY);

      // Resume against submit: the next week opens once, by one or the other.
      const b = await fundedWeek();
      await pauseHourlyContract(b.owner, b.id);
      await Promise.all([resumeHourlyContract(b.owner, b.id), submitWeek(b.applicant, b.id, MONDAY)]);
      expect(await weeksOf(b.owner, b.id)).toEqual([
        [NEXT_MONDAY, "awaiting_funding"],
        [MONDAY, "submitted"],
      ]);
    }
  });
});

describe("by the API and by the page", () => {
  it("POST /pause and /resume; the page's confirmation steps and the paused state shown", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const merchant = await createSession(owner.id);
    const freelancer = await createSession(applicant.id);
    const post = (route: typeof pauseApi, token: string) =>
      call(route.action, jsonRequest("/x", {}, { token, method: "POST" }), { id });
    const paused = await post(pauseApi, freelancer.token);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toEqual({ hourly_paused_from: NEXT_MONDAY, opened_week: null });
    const twice = await post(pauseApi, merchant.token);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("O contrato já está pausado.");
    expect((await post(resumeApi, merchant.token)).status).toBe(200);

    const path = `/contracts/${id}`;
    const unconfirmed = await postForm(contractPage, path, merchant.token, { intent: "pause_hourly" }, { id });
    expect(unconfirmed.status).toBe(302);
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=pause_hourly`);
    expect(await pausedFrom(id)).toBeNull();
    const done = await postForm(contractPage, path, merchant.token, { intent: "pause_hourly", confirmed: "1" }, { id });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`${path}#pause`);
    expect(await toastOf(done)).toBe("Contrato pausado: nenhuma semana nova começa até ele ser retomado.");
    const page = await get(contractPage, path, freelancer.token, { id });
    expect(page.body.contract.hourly_paused_from).toBe(NEXT_MONDAY);
    const again = await postForm(
      contractPage,
      path,
      merchant.token,
      { intent: "pause_hourly", confirmed: "1" },
      { id },
    );
    expect(again.status).toBe(409);
    const resumed = await postForm(
      contractPage,
      path,
      freelancer.token,
      { intent: "resume_hourly", confirmed: "1" },
      { id },
    );
    expect(await toastOf(resumed)).toBe("Contrato retomado: as semanas voltam a abrir.");
    expect(await pausedFrom(id)).toBeNull();
  });
});
