import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { UserRow } from "../../db/schema";
import { createSession } from "~/services/accounts/sessions.server";
import { getWeek, logEntry, questionEntries, submitWeek } from "~/services/contracts/hourly.server";
import { WEEKS_LISTED } from "~/services/contracts/weeks-read.server";
import { insertWeek } from "../../db/contracts";
import { addDays } from "~/lib/work-weeks";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import * as contractPage from "~/routes/contracts+/$id";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { freelancer as newFreelancer, merchant as newMerchant } from "../support/market";
import { get, postForm, toastOf } from "../operator/support";
import { fund, hiredHourly } from "../payments/support";
import { statementsOf } from "../support/statements";
import { hourlyClock, MONDAY } from "./hourly-support";

// The hourly contract's page without JavaScript (docs/payments.md, "Contratos por hora"): the
// freelancer's quick entry (hours and minutes typed apart), its refusals on their fields, the week
// sent and approved through their confirmation steps, and the money the page shows.

const tokenOf = async (user: UserRow) => (await createSession(user.id)).token;

hourlyClock();

describe("the proposal form on an hourly opportunity", () => {
  it("takes a weekly cap: the application is hourly; a cap out of range is refused on its field", async () => {
    const owner = await newMerchant();
    const applicant = await newFreelancer();
    const opp = await createOpportunity(db, { merchant_id: owner.id, budget_type: "hourly" });
    const path = `/opportunities/${opp.uuid}`;
    const token = await tokenOf(applicant);
    const form = {
      intent: "apply",
      cover_letter: "Olá! Trabalho com React há seis anos e posso começar já nesta semana.",
      price: "80,00",
      delivery_days: "30",
    };
    const refused = await postForm(
      opportunityPage,
      path,
      token,
      { ...form, weekly_cap_hours: "61" },
      { uuid: opp.uuid },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ weekly_cap_hours: "O limite semanal deve ser de 1 a 60 horas." });
    const applied = await postForm(
      opportunityPage,
      path,
      token,
      { ...form, weekly_cap_hours: "12" },
      { uuid: opp.uuid },
    );
    expect(applied.status).toBe(302);
    const row = await db
      .selectFrom("applications")
      .select(["price_cents", "weekly_cap_hours"])
      .where("opportunity_id", "=", opp.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price_cents: 8_000, weekly_cap_hours: 12 });
  });
});

describe("the hourly contract's page", () => {
  it("log → refused entry → send → approve, all by plain forms", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: 8_000, cap_hours: 20 });
    await fund(owner, id);
    const [freelancer, merchant] = [await tokenOf(applicant), await tokenOf(owner)];
    const path = `/contracts/${id}`;
    const params = { id };

    const page = await get(contractPage, path, freelancer, params);
    expect(page.status).toBe(200);
    expect(page.body.week).toMatchObject({
      week_start: MONDAY,
      status: "open",
      allowed_actions: ["log_time", "submit"],
    });
    expect(page.body.today).toBe("2026-12-02");

    const logged = await postForm(
      contractPage,
      path,
      freelancer,
      {
        intent: "log_time",
        week: MONDAY,
        day: "2026-12-01",
        hours: "2",
        minutes: "35",
        description: "Modelei o banco.",
      },
      params,
    );
    expect(logged.status).toBe(302);
    expect(logged.headers.get("Location")).toBe(`${path}#week`);
    expect(await toastOf(logged)).toBe("Horas lançadas.");

    const refused = await postForm(
      contractPage,
      path,
      freelancer,
      { intent: "log_time", week: MONDAY, day: "2026-12-03", hours: "x", minutes: "", description: "curta" },
      params,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      minutes: "Informe a duração, de 1 minuto a 24 horas.",
      description: "Descreva o que foi feito (de 10 a 2000 caracteres).",
    });
    expect(refused.body.values).toMatchObject({ hours: "x", description: "curta" });

    // Sending takes its confirmation step; the merchant may not.
    const unconfirmed = await postForm(contractPage, path, freelancer, { intent: "submit_week", week: MONDAY }, params);
    expect(unconfirmed.status).toBe(302);
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=submit_week`);
    expect((await getWeek(applicant, id, MONDAY)).status).toBe("open");
    const wrongSide = await postForm(
      contractPage,
      path,
      merchant,
      { intent: "submit_week", week: MONDAY, confirmed: "1" },
      params,
    );
    expect(wrongSide.status).toBe(403);
    const sent = await postForm(
      contractPage,
      path,
      freelancer,
      { intent: "submit_week", week: MONDAY, confirmed: "1" },
      params,
    );
    expect(await toastOf(sent)).toBe("Semana enviada ao contratante.");

    // The merchant's page shows the week sent, with what approving it moves.
    const review = await get(contractPage, path, merchant, params);
    const released = Math.floor((155 * 8_000) / 60);
    expect(review.body.week).toMatchObject({
      status: "submitted",
      allowed_actions: ["approve", "question"],
      money: { released_cents: released, refunded_cents: 160_000 - released },
    });
    const approved = await postForm(
      contractPage,
      path,
      merchant,
      { intent: "approve_week", week: MONDAY, confirmed: "1" },
      params,
    );
    expect(await toastOf(approved)).toBe("Semana aprovada: o valor das horas foi liberado.");
    expect(await balanceOf(account.available(applicant.id))).toBe(released - Math.floor(released / 10));
    expect(await checkLedger()).toEqual([]);

    // The next week waits for its money: ending the contract drops it and completes the contract.
    const ended = await postForm(contractPage, path, merchant, { intent: "end_hourly", confirmed: "1" }, params);
    expect(await toastOf(ended)).toBe("Contrato encerrado: a semana em andamento é a última.");
    expect((await get(contractPage, path, merchant, params)).body.contract).toMatchObject({ status: "completed" });
  });

  it("edit an entry; question it → answer and amend, by plain forms, refusals on their fields", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: 6_000, cap_hours: 10 });
    await fund(owner, id);
    const [freelancer, merchant] = [await tokenOf(applicant), await tokenOf(owner)];
    const path = `/contracts/${id}`;
    const params = { id };
    const post = (token: string, form: Record<string, string>) => postForm(contractPage, path, token, form, params);
    const description = "Implementei a tela de login e os testes.";
    for (const day of [MONDAY, "2026-12-01"]) {
      await post(freelancer, { intent: "log_time", week: MONDAY, day, hours: "1", minutes: "0", description });
    }
    const [monday, tuesday] = (await getWeek(applicant, id, MONDAY)).entries;

    // The open week's edit form: its day, hours and minutes.
    const edited = await post(freelancer, {
      intent: "edit_entry",
      entry_id: monday!.id,
      day: MONDAY,
      hours: "1",
      minutes: "30",
      description,
    });
    expect(await toastOf(edited)).toBe("Lançamento salvo.");
    const tooLong = await post(freelancer, {
      intent: "edit_entry",
      entry_id: monday!.id,
      day: MONDAY,
      hours: "11",
      minutes: "0",
      description,
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual({ minutes: "Essas horas passam do limite semanal do contrato." });
    expect(tooLong.body.values).toMatchObject({ entry_id: monday!.id, hours: "11" });
    await post(freelancer, { intent: "submit_week", week: MONDAY, confirmed: "1" });

    // The merchant questions one entry: a short reason is refused on its field.
    const short = await post(merchant, {
      intent: "question_entry",
      week: MONDAY,
      entry_id: monday!.id,
      reason: "Hein?",
    });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ reason: "Escreva a pergunta sobre o lançamento (de 10 a 1000 caracteres)." });
    const foreign = await post(merchant, {
      intent: "question_entry",
      week: MONDAY,
      entry_id: "00000000-0000-4000-8000-000000000000",
      reason: "O que foi feito aqui?",
    });
    expect(foreign.body.errors).toEqual({ entry_id: "Escolha lançamentos desta semana." });
    for (const entry of [monday!, tuesday!]) {
      const asked = await post(merchant, {
        intent: "question_entry",
        week: MONDAY,
        entry_id: entry.id,
        reason: "O que foi feito aqui, em detalhe?",
      });
      expect(await toastOf(asked)).toBe("Pergunta enviada ao freelancer.");
    }
    const questioned = await get(contractPage, path, freelancer, params);
    expect(questioned.body.week).toMatchObject({
      status: "questioned",
      open_questions: 2,
      allowed_actions: ["answer", "dispute"],
    });

    // The freelancer answers one and amends the other (its day stays).
    const empty = await post(freelancer, { intent: "answer_entry", entry_id: monday!.id, answer: "" });
    expect(empty.body.errors).toEqual({ answer: "Escreva a resposta (de 2 a 2000 caracteres)." });
    const answered = await post(freelancer, {
      intent: "answer_entry",
      entry_id: monday!.id,
      answer: "A tela e os testes do login.",
    });
    expect(await toastOf(answered)).toBe("Resposta enviada ao contratante.");
    const amended = await post(freelancer, {
      intent: "edit_entry",
      entry_id: tuesday!.id,
      day: "2026-12-01",
      hours: "0",
      minutes: "45",
      description: "Revisão da tela de login com o designer.",
    });
    expect(await toastOf(amended)).toBe("Lançamento salvo.");

    const review = await get(contractPage, path, merchant, params);
    expect(review.body.week).toMatchObject({
      status: "submitted",
      minutes_total: 135,
      open_questions: 0,
      allowed_actions: ["approve", "question"],
      money: { released_cents: 13_500 },
    });
    const entries = review.body.week.entries as { answer: string | null; question_open: boolean }[];
    expect(entries.map((e) => [e.answer, e.question_open])).toEqual([
      ["A tela e os testes do login.", false],
      [null, false],
    ]);
  });

  it("takes a fixed number of statements, whatever the entries and their questions (3 or 200)", async () => {
    const pageOf = async (entries: number) => {
      const { owner, applicant, id } = await hiredHourly({ rate_cents: 6_000, cap_hours: 60 });
      await fund(owner, id);
      // Written straight to the tables: 200 entries through the service would pass the write limit.
      const week = await db
        .selectFrom("contract_weeks")
        .selectAll()
        .where("contract_id", "=", id)
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const logged = Array.from({ length: entries }, (_, i) => ({
        id: randomUUID(),
        week_id: week.id,
        contract_id: id,
        day: ["2026-11-30", "2026-12-01", "2026-12-02"][i % 3]!,
        minutes: 5,
        description: "Trabalho do dia no app.",
        question: null,
        answer: null,
        answered_at: null,
        created_at: at,
        updated_at: at,
      }));
      await db.insertInto("time_entries").values(logged).execute();
      await db
        .updateTable("contract_weeks")
        .set({ minutes_total: entries * 5 })
        .where("id", "=", week.id)
        .execute();
      await submitWeek(applicant, id, MONDAY);
      const reason = "O que foi feito aqui, em detalhe?";
      const asked = logged.slice(0, Math.min(entries, 150)).map((e) => ({ id: e.id, reason }));
      if (entries > 3) await questionEntries(owner, id, MONDAY, { entries: asked });
      return { id, tokens: [await tokenOf(owner), await tokenOf(applicant)] };
    };
    const few = await pageOf(3);
    const many = await pageOf(200);
    for (const side of [0, 1]) {
      const count = async (c: typeof few) =>
        statementsOf(() => get(contractPage, `/contracts/${c.id}`, c.tokens[side]!, { id: c.id }));
      expect(await count(many)).toBe(await count(few));
    }
  });

  it("lists the earlier weeks with their money; ?semana shows one of them, read-only once sent", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: 8_000, cap_hours: 10 });
    await fund(owner, id);
    const description = "Modelei o banco de dados do app.";
    await logEntry(applicant, id, MONDAY, { day: "2026-12-01", minutes: 90, description });
    await submitWeek(applicant, id, MONDAY);
    const [freelancer, merchant] = [await tokenOf(applicant), await tokenOf(owner)];
    const path = `/contracts/${id}`;
    // A move posted from a named week comes back to it.
    const approved = await postForm(
      contractPage,
      `${path}?semana=${MONDAY}`,
      merchant,
      { intent: "approve_week", week: MONDAY, confirmed: "1" },
      { id },
    );
    expect(approved.headers.get("Location")).toBe(`${path}?semana=${MONDAY}#week`);

    // The week in hand is the next one, waiting for its money; the list has both.
    const page = await get(contractPage, path, freelancer, { id });
    expect(page.body.week).toMatchObject({ week_start: "2026-12-07", status: "awaiting_funding" });
    const released = 12_000;
    expect(page.body.weeks).toEqual([
      expect.objectContaining({ week_start: "2026-12-07", status: "awaiting_funding", minutes_total: 0 }),
      {
        week_start: MONDAY,
        week_end: "2026-12-06",
        status: "approved",
        minutes_total: 90,
        cap_minutes: 600,
        money: {
          amount_cents: 80_000,
          released_cents: released,
          fee_cents: 1_200,
          net_cents: released - 1_200,
          refunded_cents: 80_000 - released,
          kept_cents: 0,
          carried_in_cents: 0,
          carried_from: null,
          due_cents: 80_000,
        },
      },
    ]);

    // ?semana: the approved week, its entries, no move left on it, for either side.
    for (const token of [freelancer, merchant]) {
      const earlier = await get(contractPage, `${path}?semana=${MONDAY}`, token, { id });
      expect(earlier.body.week).toMatchObject({ week_start: MONDAY, status: "approved", allowed_actions: [] });
      expect(earlier.body.week.entries).toEqual([expect.objectContaining({ minutes: 90, description })]);
    }
    // A week the contract does not have, or no date at all: not found.
    for (const semana of ["2026-12-14", "2026-12-02", "segunda"]) {
      expect((await get(contractPage, `${path}?semana=${semana}`, freelancer, { id })).status).toBe(404);
    }
  });

  it("takes a fixed number of statements, whatever the weeks (1 or 30) and whichever is shown", async () => {
    const pageOf = async (weeks: number) => {
      const { owner, applicant, id } = await hiredHourly({ rate_cents: 6_000, cap_hours: 10 });
      const contract = await db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      // Earlier weeks written straight to the tables, as the weeks a long contract had.
      for (let i = 1; i < weeks; i++) {
        await insertWeek(db, contract, addDays(MONDAY, -7 * i), i + 1, new Date().toISOString());
      }
      return { id, tokens: [await tokenOf(owner), await tokenOf(applicant)] };
    };
    const one = await pageOf(1);
    const thirty = await pageOf(30);
    const listed = await get(contractPage, `/contracts/${thirty.id}`, thirty.tokens[0]!, { id: thirty.id });
    expect(listed.body.weeks).toHaveLength(WEEKS_LISTED);
    expect(listed.body.weeks[0]).toMatchObject({ week_start: MONDAY });
    for (const side of [0, 1]) {
      const count = async (c: typeof one, query = "") =>
        statementsOf(() => get(contractPage, `/contracts/${c.id}${query}`, c.tokens[side]!, { id: c.id }));
      const base = await count(one);
      expect(await count(thirty)).toBe(base);
      expect(await count(thirty, `?semana=${addDays(MONDAY, -7 * 20)}`)).toBe(base);
    }
  });
});
