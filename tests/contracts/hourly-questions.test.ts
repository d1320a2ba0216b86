import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { feeOf } from "~/lib/fees";
import {
  answerEntry,
  approveWeek,
  editEntry,
  getWeek,
  listWeeks,
  questionEntries,
  runHourlySchedule,
} from "~/services/contracts/hourly.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { createUser } from "../../db/factories";
import { outcome, refusal } from "../support/market";
import { clock, entry, hourlyClock, MONDAY, submittedWeek, TUESDAY } from "./hourly-support";

// The merchant's questions on a submitted week (docs/payments.md, "Contratos por hora"): the week
// is questioned and its review clock stops; each answer or amendment settles its entry; the last
// one sends the week back for 5 days more; approval then releases floor(minutes × rate / 60) once.

const reason = "Essas horas parecem muitas para a tela de login.";

hourlyClock();

describe("questions on a submitted week", () => {
  it("questions entries: the week waits for answers, its clock stopped, and cannot be approved yet", async () => {
    const { owner, applicant, id, monday } = await submittedWeek();
    const week = await questionEntries(owner, id, MONDAY, { entries: [{ id: monday.id, reason }] });
    expect(week).toMatchObject({ status: "questioned", review_due_at: null, open_questions: 1 });
    expect(week.entries.find((e) => e.id === monday.id)).toMatchObject({
      question: reason,
      answer: null,
      question_open: true,
    });
    expect(week.allowed_actions).toEqual(["question", "dispute"]);
    expect((await getWeek(applicant, id, MONDAY)).allowed_actions).toEqual(["answer", "dispute"]);
    expect(await refusal(approveWeek(owner, id, MONDAY))).toMatchObject({ status: 409, key: "week_not_submitted" });
    // Ten days later the schedule still leaves it alone.
    clock("2026-12-12T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect((await getWeek(owner, id, MONDAY)).status).toBe("questioned");
  });

  it("refuses the freelancer, strangers, a short reason, no entry, an entry twice or of another week", async () => {
    const { owner, applicant, id, monday } = await submittedWeek();
    const stranger = await createUser(db, { account_type: "merchant" });
    const ask = (who: typeof owner, input: unknown) => refusal(questionEntries(who, id, MONDAY, input));
    expect(await ask(applicant, { entries: [{ id: monday.id, reason }] })).toMatchObject({ status: 403 });
    expect(await ask(stranger, { entries: [{ id: monday.id, reason }] })).toMatchObject({ status: 404 });
    expect((await ask(owner, { entries: [{ id: monday.id, reason: "Por quê?" }] })).fields).toEqual({
      entries: "entry_question_length",
    });
    expect((await ask(owner, { entries: [] })).fields).toEqual({ entries: "entry_questions_none" });
    expect((await ask(owner, {})).fields).toEqual({ entries: "entry_questions_none" });
    expect((await ask(owner, { entries: [{ id: "x", reason }] })).fields).toEqual({ entries: "entry_question_entry" });
    expect(
      (
        await ask(owner, {
          entries: [
            { id: monday.id, reason },
            { id: monday.id, reason },
          ],
        })
      ).fields,
    ).toEqual({ entries: "entry_question_twice" });
    // An entry of another contract names nothing of this week: 422, and nothing moved.
    const other = await submittedWeek();
    expect((await ask(owner, { entries: [{ id: other.monday.id, reason }] })).fields).toEqual({
      entries: "entry_question_entry",
    });
    expect((await getWeek(owner, id, MONDAY)).status).toBe("submitted");
  });

  it("an answer and an amendment settle the questions; the last sends the week back for 5 days; approval pays the amended minutes once", async () => {
    const rate = 10_001;
    const { owner, applicant, id, monday, tuesday } = await submittedWeek({ rate_cents: rate, cap_hours: 10 });
    await questionEntries(owner, id, MONDAY, {
      entries: [
        { id: monday.id, reason },
        { id: tuesday.id, reason: "O que foi feito na terça, exatamente?" },
      ],
    });
    // The merchant does not answer; the freelancer answers only an open question.
    expect(await refusal(answerEntry(owner, id, monday.id, { answer: "Sim." }))).toMatchObject({ status: 403 });
    expect((await refusal(answerEntry(applicant, id, monday.id, { answer: "" }))).fields).toEqual({
      answer: "entry_answer_length",
    });
    const answered = await answerEntry(applicant, id, tuesday.id, { answer: "Revisei o layout com o designer." });
    expect(answered).toMatchObject({ answer: "Revisei o layout com o designer.", question_open: false });
    expect(await refusal(answerEntry(applicant, id, tuesday.id, { answer: "De novo." }))).toMatchObject({
      status: 409,
      key: "entry_not_questioned",
    });
    expect(await getWeek(owner, id, MONDAY)).toMatchObject({ status: "questioned", open_questions: 1 });
    // A settled entry takes no amendment.
    expect(await refusal(editEntry(applicant, id, tuesday.id, entry(TUESDAY, 10)))).toMatchObject({
      status: 409,
      key: "entry_not_questioned",
    });

    // Amending: the day stays, the cap and the day's 24 h hold.
    expect((await refusal(editEntry(applicant, id, monday.id, entry(TUESDAY, 60)))).fields).toEqual({
      day: "entry_day_fixed",
    });
    expect((await refusal(editEntry(applicant, id, monday.id, entry(MONDAY, 600)))).fields).toEqual({
      minutes: "entry_over_cap",
    });
    clock("2026-12-03T18:00:00.000Z");
    const amended = await editEntry(
      applicant,
      id,
      monday.id,
      entry(MONDAY, 47, "Tela de login: 47 minutos, revisado."),
    );
    expect(amended).toMatchObject({ minutes: 47, question: reason, answer: null, question_open: false });

    const week = await getWeek(owner, id, MONDAY);
    expect(week).toMatchObject({
      status: "submitted",
      minutes_total: 137,
      open_questions: 0,
      // Thursday 15:00 São Paulo + 5 days.
      review_due_at: "2026-12-08T18:00:00.000Z",
      allowed_actions: ["approve", "question"],
    });

    const results = await Promise.all([
      outcome(approveWeek(owner, id, MONDAY)),
      outcome(approveWeek(owner, id, MONDAY)),
    ]);
    expect(results.sort()).toEqual([200, 409]);
    const released = Math.floor((137 * rate) / 60);
    expect((await getWeek(applicant, id, MONDAY)).money).toMatchObject({
      released_cents: released,
      fee_cents: feeOf(released, 1_000),
      refunded_cents: rate * 10 - released,
    });
    expect(await balanceOf(account.available(applicant.id))).toBe(released - feeOf(released, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("the schedule approves a settled week 5 days after the last answer, not before", async () => {
    const { owner, applicant, id, monday } = await submittedWeek({ rate_cents: 6_000, cap_hours: 10 });
    await questionEntries(owner, id, MONDAY, { entries: [{ id: monday.id, reason }] });
    clock("2026-12-06T18:00:00.000Z");
    await answerEntry(applicant, id, monday.id, { answer: "Foram duas horas de verdade, com testes." });
    // The first review would have ended on 7 December; it now ends on 11 December.
    clock("2026-12-10T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect((await getWeek(owner, id, MONDAY)).status).toBe("submitted");
    clock("2026-12-11T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect(await getWeek(owner, id, MONDAY)).toMatchObject({ status: "approved", approved_by: "system" });
    expect(await balanceOf(account.available(applicant.id))).toBe(21_000 - feeOf(21_000, 1_000));
  });

  it("races: a question and an approval, one wins; two last answers at once settle the week once", async () => {
    const first = await submittedWeek();
    const raced = await Promise.all([
      outcome(approveWeek(first.owner, first.id, MONDAY)),
      outcome(questionEntries(first.owner, first.id, MONDAY, { entries: [{ id: first.monday.id, reason }] })),
    ]);
    expect(raced.sort()).toEqual([200, 409]);
    const status = (await getWeek(first.owner, first.id, MONDAY)).status;
    expect(["approved", "questioned"]).toContain(status);

    const { owner, applicant, id, monday, tuesday } = await submittedWeek();
    await questionEntries(owner, id, MONDAY, {
      entries: [
        { id: monday.id, reason },
        { id: tuesday.id, reason },
      ],
    });
    const answers = await Promise.all([
      outcome(answerEntry(applicant, id, monday.id, { answer: "Duas horas, com os testes." })),
      outcome(editEntry(applicant, id, tuesday.id, entry(TUESDAY, 60))),
    ]);
    expect(answers).toEqual([200, 200]);
    const week = await getWeek(owner, id, MONDAY);
    expect(week).toMatchObject({ status: "submitted", minutes_total: 180, open_questions: 0 });
    expect((await listWeeks(owner, id)).find((w) => w.week_start === MONDAY)?.open_questions).toBe(0);
    // The same entry answered twice at once: one answer.
    const again = await submittedWeek();
    await questionEntries(again.owner, again.id, MONDAY, { entries: [{ id: again.monday.id, reason }] });
    const twice = await Promise.all([
      outcome(answerEntry(again.applicant, again.id, again.monday.id, { answer: "Primeira resposta." })),
      outcome(answerEntry(again.applicant, again.id, again.monday.id, { answer: "Segunda resposta." })),
    ]);
    expect(twice.sort()).toEqual([200, 409]);
  });

  it("the copy of a user's data: the question in the merchant's, the answer in the freelancer's", async () => {
    const { owner, applicant, id, monday } = await submittedWeek();
    await questionEntries(owner, id, MONDAY, { entries: [{ id: monday.id, reason }] });
    await answerEntry(applicant, id, monday.id, { answer: "Foram duas horas, com os testes." });
    const entriesOf = async (userId: string) => {
      const { kinds } = await collectPersonalData(userId);
      return (kinds["timesheets.json"] as { contract_id: string; entries: unknown[] }[]).find(
        (w) => w.contract_id === id,
      )?.entries;
    };
    expect(await entriesOf(owner.id)).toEqual([{ day: MONDAY, question: reason }]);
    expect(await entriesOf(applicant.id)).toEqual([
      expect.objectContaining({ day: MONDAY, answer: "Foram duas horas, com os testes." }),
      expect.objectContaining({ day: TUESDAY, answer: null }),
    ]);
  });
});
