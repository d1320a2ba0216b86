import { describe, expect, it } from "vitest";
import { db } from "../../db";
import * as capApi from "~/routes/api+/contracts+/$id.cap";
import * as contractPage from "~/routes/contracts+/$id";
import { createSession } from "~/services/accounts/sessions.server";
import {
  approveWeek,
  changeWeeklyCap,
  endHourlyContract,
  listWeeks,
  logEntry,
  submitWeek,
} from "~/services/contracts/hourly.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { refusal } from "../support/market";
import { get, postForm, toastOf } from "../operator/support";
import { fund, hiredHourly } from "../payments/support";
import { hourlyClock, MONDAY, NEXT_MONDAY } from "./hourly-support";

// The merchant changes an hourly contract's weekly cap (docs/payments.md, "Contratos por hora"):
// from the next week not opened yet; a week opened keeps its cap and its money.

const RATE = 10_000;

hourlyClock();

const caps = async (owner: Parameters<typeof listWeeks>[0], id: string) =>
  (await listWeeks(owner, id)).map((w) => [w.week_start, w.cap_minutes, w.money.amount_cents]);

describe("changing the weekly cap", () => {
  it("applies from the next week not opened; the open week and the one awaiting its money keep theirs", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: RATE, cap_hours: 10 });
    // The hire's week waits for its money: it keeps 10 h, the next one takes 4 h.
    expect(await changeWeeklyCap(owner, id, { weekly_cap_hours: 4 })).toEqual({
      weekly_cap_minutes: 240,
      from_week: NEXT_MONDAY,
    });
    await fund(owner, id);
    await logEntry(applicant, id, MONDAY, { day: MONDAY, minutes: 600, description: "Dez horas de trabalho na API." });
    await submitWeek(applicant, id, MONDAY);
    expect(await caps(owner, id)).toEqual([
      [NEXT_MONDAY, 240, 40_000],
      [MONDAY, 600, 100_000],
    ]);
    // Changed again with the next week opened (awaiting its money): from the week after.
    expect((await changeWeeklyCap(owner, id, { weekly_cap_hours: "60" })).from_week).toBe("2026-12-14");
    expect((await caps(owner, id))[0]).toEqual([NEXT_MONDAY, 240, 40_000]);
    await approveWeek(owner, id, MONDAY);
    await checkLedger();
  });

  it("refuses the freelancer, strangers, caps out of 1 to 60, an ended or a fixed contract", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: RATE, cap_hours: 10 });
    const stranger = await createUser(db, { account_type: "merchant" });
    expect(await refusal(changeWeeklyCap(applicant, id, { weekly_cap_hours: 5 }))).toMatchObject({ status: 403 });
    expect(await refusal(changeWeeklyCap(stranger, id, { weekly_cap_hours: 5 }))).toMatchObject({ status: 404 });
    for (const bad of [0, 61, 2.5, "x", null, undefined]) {
      expect(await refusal(changeWeeklyCap(owner, id, { weekly_cap_hours: bad }))).toMatchObject({
        status: 422,
        fields: { weekly_cap_hours: "weekly_cap_invalid" },
      });
    }
    await endHourlyContract(owner, id);
    expect(await refusal(changeWeeklyCap(owner, id, { weekly_cap_hours: 5 }))).toMatchObject({ status: 409 });
  });

  it("a cap change racing the approval of a week and the opening of the next: each week has one cap, its money as funded", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, applicant, id } = await hiredHourly({ rate_cents: RATE, cap_hours: 10 });
      await fund(owner, id);
      await logEntry(applicant, id, MONDAY, { day: MONDAY, minutes: 90, description: "Uma hora e meia na API." });
      const [changed] = await Promise.all([
        changeWeeklyCap(owner, id, { weekly_cap_hours: 3 }),
        submitWeek(applicant, id, MONDAY),
      ]);
      const weeks = await listWeeks(owner, id);
      const next = weeks.find((w) => w.week_start === NEXT_MONDAY)!;
      // The week opened first keeps 10 h and the reply names the week after; or it takes 3 h.
      expect(next.cap_minutes).toBe(changed.from_week === NEXT_MONDAY ? 180 : 600);
      expect(next.money.amount_cents).toBe((RATE * next.cap_minutes) / 60);
      await Promise.all([approveWeek(owner, id, MONDAY), changeWeeklyCap(owner, id, { weekly_cap_hours: 7 })]);
      expect(weeks.find((w) => w.week_start === MONDAY)!.cap_minutes).toBe(600);
    }
    await checkLedger();
  });

  it("by the API and by the page's plain form, refusals on the field", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: RATE, cap_hours: 10 });
    const merchant = await createSession(owner.id);
    const freelancer = await createSession(applicant.id);
    const post = (token: string, body: unknown) =>
      call(capApi.action, jsonRequest("/x", body, { token, method: "POST" }), { id });
    const done = await post(merchant.token, { weekly_cap_hours: 20 });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ weekly_cap_minutes: 1_200, from_week: NEXT_MONDAY });
    expect((await post(merchant.token, { weekly_cap_hours: 70 })).body.errors).toEqual({
      weekly_cap_hours: "O limite semanal deve ser de 1 a 60 horas.",
    });
    expect((await post(freelancer.token, { weekly_cap_hours: 5 })).status).toBe(403);

    const path = `/contracts/${id}`;
    const page = await get(contractPage, path, merchant.token, { id });
    expect(page.body.contract.weekly_cap_minutes).toBe(1_200);
    const refused = await postForm(
      contractPage,
      path,
      merchant.token,
      { intent: "change_cap", weekly_cap_hours: "0" },
      { id },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ weekly_cap_hours: "O limite semanal deve ser de 1 a 60 horas." });
    expect(refused.body.values).toMatchObject({ weekly_cap_hours: "0" });
    const changed = await postForm(
      contractPage,
      path,
      merchant.token,
      { intent: "change_cap", weekly_cap_hours: "8" },
      { id },
    );
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe(`${path}#cap`);
    expect(await toastOf(changed)).toBe("Limite mudado: vale a partir da próxima semana ainda não aberta.");
    const row = await db
      .selectFrom("contracts")
      .select("weekly_cap_minutes")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.weekly_cap_minutes).toBe(480);
  });
});
