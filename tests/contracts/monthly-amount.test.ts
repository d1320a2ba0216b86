import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import type { UserRow } from "../../db/schema";
import { createUser } from "../../db/factories";
import { feeOf } from "~/lib/fees";
import { MAX_CENTS } from "~/lib/money";
import * as amountRoute from "~/routes/api+/contracts+/$id.amount";
import * as acceptRoute from "~/routes/api+/contracts+/$id.amount.accept";
import * as declineRoute from "~/routes/api+/contracts+/$id.amount.decline";
import * as contractPage from "~/routes/contracts+/$id";
import { createSession } from "~/services/accounts/sessions.server";
import { approveContract, getContract } from "~/services/contracts/contracts.server";
import {
  answerAmount,
  endMonthlyContract,
  listMonths,
  proposeAmount,
  runMonthlySchedule,
} from "~/services/contracts/monthly.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { call, jsonRequest } from "../support/helpers";
import { outcome, refusal } from "../support/market";
import { get, postForm, toastOf } from "../operator/support";
import { deliver, escrow, fund, hiredHourly, hiredMonthly } from "../payments/support";

// Changing a monthly contract's amount (docs/payments.md, "Contratos mensais", "Mudar o valor do
// mês"): one side proposes, the other accepts or refuses (or the proposer withdraws); accepted, it
// takes the next month to open, a month opened keeps its own. By the service, the API and the page.

const AMOUNT = 300_001;
const NEW = 350_007;
const FEE = feeOf(AMOUNT, 1_000);
const NEW_FEE = feeOf(NEW, 1_000);

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2 December 2026, 15:00 in São Paulo: the contract's day is the 2nd.
  vi.setSystemTime(new Date("2026-12-02T18:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

const clock = (iso: string) => vi.setSystemTime(new Date(iso));
const priceOf = async (id: string) =>
  Number(
    (await db.selectFrom("contracts").select("price_cents").where("id", "=", id).executeTakeFirstOrThrow()).price_cents,
  );
const kindsOf = async (user: UserRow, id: string) =>
  (
    await db
      .selectFrom("notifications")
      .select("kind")
      .where("user_id", "=", user.id)
      .where("application_id", "=", id)
      .execute()
  )
    .map((n) => n.kind)
    .filter((k) => k.startsWith("contract_amount"));
const available = (user: { id: string }) => balanceOf(account.available(user.id));

describe("the month's amount", () => {
  it("proposed by the freelancer and accepted by the merchant: the month opened keeps its amount, the next one takes the new", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    await fund(owner, id);
    const proposed = await proposeAmount(applicant, id, { amount_cents: NEW });
    expect(proposed).toMatchObject({
      amount_cents: AMOUNT,
      next_month: "2027-01",
      amount_change: { amount_cents: NEW, fee_cents: NEW_FEE, net_cents: NEW - NEW_FEE, by: "freelancer" },
      can_change_amount: false,
      can_accept_amount: false,
    });
    expect(proposed.amount_change!.from_month).toBe("2027-01");
    expect((await listMonths(owner, id)).can_accept_amount).toBe(true);
    expect(await kindsOf(owner, id)).toEqual(["contract_amount_proposed"]);

    const accepted = await answerAmount(owner, id, true);
    expect(accepted).toMatchObject({
      amount_cents: NEW,
      fee_cents: NEW_FEE,
      net_cents: NEW - NEW_FEE,
      amount_change: null,
      can_change_amount: true,
    });
    expect(accepted.months).toMatchObject([{ month: "2026-12", amount_cents: AMOUNT, status: "open" }]);
    expect(await kindsOf(applicant, id)).toEqual(["contract_amount_accepted"]);

    // December is worked and released at its own amount; January opens with the new one.
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect(await available(applicant)).toBe(AMOUNT - FEE);
    clock("2026-12-28T18:00:00.000Z");
    await runMonthlySchedule();
    expect((await getContract(owner, id)).milestones.map((m) => m.amount_cents)).toEqual([AMOUNT, NEW]);
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect(await available(applicant)).toBe(AMOUNT - FEE + NEW - NEW_FEE);
    expect(await checkLedger()).toEqual([]);
  });

  it("refused by the other side (told) or withdrawn by its side (nobody told): the amount stays", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    await proposeAmount(owner, id, { amount_cents: NEW });
    expect(await kindsOf(applicant, id)).toEqual(["contract_amount_proposed"]);
    expect((await answerAmount(applicant, id, false)).amount_change).toBeNull();
    expect(await kindsOf(owner, id)).toEqual(["contract_amount_declined"]);
    expect(await priceOf(id)).toBe(AMOUNT);

    await proposeAmount(owner, id, { amount_cents: NEW });
    expect((await answerAmount(owner, id, false)).amount_change).toBeNull();
    expect(await kindsOf(owner, id)).toEqual(["contract_amount_declined"]);
    expect(await kindsOf(applicant, id)).toEqual(["contract_amount_proposed", "contract_amount_proposed"]);
    expect(await priceOf(id)).toBe(AMOUNT);
  });

  it("refuses what is not a change: the same amount, out of bounds, a second one, one's own, none, a stranger, another kind, an ended contract", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    const fields = async (amount_cents: unknown) => (await refusal(proposeAmount(owner, id, { amount_cents }))).fields;
    expect(await fields(AMOUNT)).toEqual({ amount_cents: "amount_unchanged" });
    for (const bad of [0, -1, MAX_CENTS + 1, 1.5, "abc", null]) {
      expect(await fields(bad)).toEqual({ amount_cents: "price_invalid" });
    }
    expect(await refusal(answerAmount(applicant, id, true))).toMatchObject({ status: 409, key: "amount_change_none" });
    await proposeAmount(owner, id, { amount_cents: NEW });
    for (const side of [owner, applicant]) {
      expect(await refusal(proposeAmount(side, id, { amount_cents: 1_000 }))).toMatchObject({
        status: 409,
        key: "amount_change_pending",
      });
    }
    expect(await refusal(answerAmount(owner, id, true))).toMatchObject({ status: 403, key: "amount_change_own" });
    const stranger = await createUser(db, { account_type: "merchant" });
    expect(await outcome(answerAmount(stranger, id, true))).toBe(404);
    expect(await outcome(proposeAmount(stranger, id, { amount_cents: NEW }))).toBe(404);
    const hourly = await hiredHourly();
    expect(await refusal(proposeAmount(hourly.owner, hourly.id, { amount_cents: NEW }))).toMatchObject({
      status: 409,
      key: "contract_not_monthly",
    });
    // Ended: nothing opens any more, so the change waiting is not accepted (it may still be refused).
    await endMonthlyContract(applicant, id);
    expect(await refusal(answerAmount(applicant, id, true))).toMatchObject({
      status: 409,
      key: "contract_action_unavailable",
    });
    expect((await answerAmount(applicant, id, false)).amount_change).toBeNull();
    expect(await refusal(proposeAmount(owner, id, { amount_cents: NEW }))).toMatchObject({
      status: 409,
      key: "contract_action_unavailable",
    });
    expect(await priceOf(id)).toBe(AMOUNT);
  });

  it("accepted twice at once, or accepted and refused at once: one answer wins, the other is a 409", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    await proposeAmount(applicant, id, { amount_cents: NEW });
    const twice = await Promise.all([outcome(answerAmount(owner, id, true)), outcome(answerAmount(owner, id, true))]);
    expect(twice.sort()).toEqual([200, 409]);
    expect(await priceOf(id)).toBe(NEW);
    expect(await kindsOf(applicant, id)).toEqual(["contract_amount_accepted"]);

    await proposeAmount(applicant, id, { amount_cents: AMOUNT });
    const both = await Promise.all([
      outcome(answerAmount(owner, id, true)),
      outcome(answerAmount(owner, id, false)),
      outcome(answerAmount(applicant, id, false)),
    ]);
    expect(both.filter((s) => s === 200)).toHaveLength(1);
    expect([AMOUNT, NEW]).toContain(await priceOf(id));
    expect((await listMonths(owner, id)).amount_change).toBeNull();
  });

  it("accepted while the schedule opens the next month: the month takes the old amount or the new, never a mix", async () => {
    for (let i = 0; i < 3; i++) {
      clock("2026-12-02T18:00:00.000Z");
      const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
      await fund(owner, id);
      await proposeAmount(applicant, id, { amount_cents: NEW });
      clock("2026-12-28T18:00:00.000Z");
      await Promise.all([runMonthlySchedule(), answerAmount(owner, id, true)]);
      await runMonthlySchedule();
      const months = (await listMonths(owner, id)).months;
      expect(months.map((m) => m.month)).toEqual(["2027-01", "2026-12"]);
      expect([AMOUNT, NEW]).toContain(months[0]!.amount_cents);
      expect(months[1]!.amount_cents).toBe(AMOUNT);
      expect(await priceOf(id)).toBe(NEW);
      // The charge of January is the month's own amount.
      const { milestones } = await getContract(owner, id);
      expect(milestones.at(-1)!.amount_cents).toBe(months[0]!.amount_cents);
    }
  });
});

describe("the month's amount by the API", () => {
  type Who = { token: string };
  const post = (route: { action: any }, path: string, who: Who, id: string, body?: unknown) =>
    call(route.action, jsonRequest(path, body, { token: who.token, method: "POST" }), { id });

  it("POST /amount (201), /amount/accept (200, then 409), /amount/decline; bad input a 422 on its field", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    const m = { token: (await createSession(owner.id)).token };
    const f = { token: (await createSession(applicant.id)).token };
    const base = `/api/contracts/${id}/amount`;
    const bad = await post(amountRoute, base, m, id, { amount_cents: "muito" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors ?? bad.body.fields).toBeTruthy();
    expect((await post(amountRoute, base, m, id, "not json")).status).toBeLessThan(500);
    const made = await post(amountRoute, base, m, id, { amount_cents: NEW });
    expect(made.status).toBe(201);
    expect(made.body.data.amount_change).toMatchObject({ amount_cents: NEW, by: "merchant" });
    expect((await post(acceptRoute, `${base}/accept`, m, id)).status).toBe(403);
    const accepted = await post(acceptRoute, `${base}/accept`, f, id);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ amount_cents: NEW, amount_change: null });
    expect((await post(acceptRoute, `${base}/accept`, f, id)).status).toBe(409);
    expect((await post(declineRoute, `${base}/decline`, f, id)).status).toBe(409);
    expect((await post(amountRoute, `/api/contracts/nope/amount`, m, "nope", { amount_cents: NEW })).status).toBe(404);
  });
});

describe("the month's amount on the page (no JavaScript)", () => {
  it("proposed through its confirmation step (the amount typed kept, its problem on its field), accepted through its own", async () => {
    const { owner, applicant, id } = await hiredMonthly({ amount_cents: AMOUNT });
    const path = `/contracts/${id}`;
    const params = { id };
    const merchant = (await createSession(owner.id)).token;
    const freelancer = (await createSession(applicant.id)).token;
    const page = await get(contractPage, path, merchant, params);
    expect(page.body.months).toMatchObject({ can_change_amount: true, next_month: "2027-01", fee_bps: 1_000 });

    const unconfirmed = await postForm(
      contractPage,
      path,
      merchant,
      { intent: "propose_amount", amount: "3.500,07" },
      params,
    );
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=propose_amount`);
    const typo = await postForm(
      contractPage,
      `${path}?confirm=propose_amount&amount=3.5OO`,
      merchant,
      { intent: "propose_amount", confirmed: "1", amount: "3.5OO" },
      params,
    );
    expect(typo.status).toBe(422);
    expect(Object.keys(typo.body.errors)).toEqual(["amount"]);
    expect(typo.body.values).toMatchObject({ amount: "3.5OO" });
    const same = await postForm(
      contractPage,
      path,
      merchant,
      { intent: "propose_amount", confirmed: "1", amount: "3.000,01" },
      params,
    );
    expect(same.body.errors).toEqual({ amount: "Este já é o valor do mês: informe um valor diferente." });

    const proposed = await postForm(
      contractPage,
      path,
      merchant,
      { intent: "propose_amount", confirmed: "1", amount: "3.500,07" },
      params,
    );
    expect(proposed.status).toBe(302);
    expect(proposed.headers.get("Location")).toBe(`${path}#retainer`);
    expect(await toastOf(proposed)).toBe("Novo valor do mês proposto.");

    const theirs = await get(contractPage, path, freelancer, params);
    expect(theirs.body.months).toMatchObject({ can_accept_amount: true, amount_change: { amount_cents: NEW } });
    const accepted = await postForm(
      contractPage,
      path,
      freelancer,
      { intent: "accept_amount", confirmed: "1" },
      params,
    );
    expect(await toastOf(accepted)).toBe("Novo valor do mês aceito: vale a partir do próximo mês.");
    expect(await priceOf(id)).toBe(NEW);
    const again = await postForm(contractPage, path, freelancer, { intent: "decline_amount" }, params);
    expect(again.status).toBe(409);
  });
});
