import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import type { ApplicationRow, UserRow } from "../../db/schema";
import { MAX_OFFERS } from "~/lib/market-schemas";
import {
  acceptOffer,
  allowedActions,
  applyToOpportunity,
  counterOffer,
  getApplication,
  rejectApplication,
  withdrawApplication,
} from "~/services/marketplace/applications.server";
import { AppError } from "~/services/platform/errors.server";
import { closeOpportunity, reopenOpportunity } from "~/services/marketplace/opportunities.server";
import {
  applicationRow,
  brokenInvariants,
  freelancer,
  merchant,
  negotiation,
  notificationsOf,
  offersFor,
  offersOf,
  opportunityRow,
  outcome,
  validApplication,
} from "../support/market";

async function latestOfferId(applicationId: string) {
  const offers = await getApplicationOffers(applicationId);
  return offers[offers.length - 1].id;
}

async function getApplicationOffers(applicationId: string) {
  return db.selectFrom("offers").select("id").where("application_id", "=", applicationId).orderBy("seq").execute();
}

describe("applying", () => {
  it("creates a pending application awaiting the merchant, its first offer, and notifies the merchant", async () => {
    const owner = await merchant();
    const opp = await createOpportunity(db, { merchant_id: owner.id });
    const applicant = await freelancer();
    const app = await applyToOpportunity(applicant, opp.uuid, validApplication);
    expect(app).toMatchObject({
      status: "pending",
      awaiting: "merchant",
      price_cents: 350_000,
      delivery_days: 14,
      offers_count: 1,
      rejection_reason: null,
      opportunity: { uuid: opp.uuid, status: "open", merchant: { id: owner.id } },
      freelancer: { id: applicant.id },
    });
    const offers = await offersOf(app.id);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ author: "freelancer", price_cents: 350_000, delivery_days: 14 });
    expect((await opportunityRow(opp.id)).applications_count).toBe(1);
    const notes = await notificationsOf(owner);
    expect(notes).toMatchObject([{ kind: "application_received", application_id: app.id, opportunity_id: opp.id }]);
  });

  it("refuses a second application, a closed or filled opportunity, an unknown one and a merchant", async () => {
    const opp = await createOpportunity(db);
    const applicant = await freelancer();
    await applyToOpportunity(applicant, opp.uuid, validApplication);
    expect(await outcome(applyToOpportunity(applicant, opp.uuid, validApplication))).toBe(409);
    const closed = await createOpportunity(db, { status: "closed" });
    expect(await outcome(applyToOpportunity(applicant, closed.uuid, validApplication))).toBe(409);
    const filled = await createOpportunity(db);
    await createApplication(db, { opportunity: filled, status: "accepted" });
    expect((await opportunityRow(filled.id)).status).toBe("filled");
    expect(await outcome(applyToOpportunity(applicant, filled.uuid, validApplication))).toBe(409);
    expect(await outcome(applyToOpportunity(applicant, "nope", validApplication))).toBe(404);
    expect(await outcome(applyToOpportunity(await merchant(), opp.uuid, validApplication))).toBe(403);
    // Refusals leave the counters alone.
    expect((await opportunityRow(opp.id)).applications_count).toBe(1);
    expect((await opportunityRow(closed.id)).applications_count).toBe(0);
  });

  it("answers 422 with a message per field", async () => {
    const opp = await createOpportunity(db);
    const error = await applyToOpportunity(await freelancer(), opp.uuid, {
      cover_letter: "curta",
      price_cents: 0,
      delivery_days: 366,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual({
      cover_letter: "cover_letter_length",
      price_cents: "price_invalid",
      delivery_days: "delivery_days_invalid",
    });
  });
});

type Role = "merchant" | "freelancer" | "stranger_merchant" | "stranger_freelancer";
type Action = "accept" | "counter" | "reject" | "withdraw";
const STATUSES: ApplicationRow["status"][] = ["pending", "countered", "accepted", "rejected", "withdrawn"];
const ROLES: Role[] = ["merchant", "freelancer", "stranger_merchant", "stranger_freelancer"];
const ACTIONS: Action[] = ["accept", "counter", "reject", "withdraw"];

/** docs/product.md §3 as a table: what each role gets for each action in each state. */
function expected(status: ApplicationRow["status"], role: Role, action: Action): number {
  const negotiating = status === "pending" || status === "countered";
  const roleType = role.endsWith("merchant") ? "merchant" : "freelancer";
  if (action === "reject" && roleType !== "merchant") return 403;
  if (action === "withdraw" && roleType !== "freelancer") return 403;
  if (role.startsWith("stranger")) return 404;
  if (!negotiating) return 409;
  if (action === "reject" || action === "withdraw") return 200;
  const myTurn = (role === "merchant" && status === "pending") || (role === "freelancer" && status === "countered");
  return myTurn ? 200 : 409;
}

describe("the transition table (every action, role and state)", () => {
  for (const status of STATUSES) {
    for (const action of ACTIONS) {
      it(`${action} on a ${status} application`, async () => {
        const results: Record<string, number> = {};
        const wanted: Record<string, number> = {};
        for (const role of ROLES) {
          const { owner, applicant, application } = await negotiation(status);
          const actor: UserRow =
            role === "merchant"
              ? owner
              : role === "freelancer"
                ? applicant
                : role === "stranger_merchant"
                  ? await merchant()
                  : await freelancer();
          const before = await applicationRow(application.id);
          const offerId = application.offers[application.offers.length - 1].id;
          const run =
            action === "accept"
              ? acceptOffer(actor, application.id, { offer_id: offerId })
              : action === "counter"
                ? counterOffer(actor, application.id, { price_cents: 222_000, delivery_days: 9 })
                : action === "reject"
                  ? rejectApplication(actor, application.id, {})
                  : withdrawApplication(actor, application.id);
          results[role] = await outcome(run);
          wanted[role] = expected(status, role, action);
          if (results[role] !== 200) {
            // A refused move changes nothing.
            expect(await applicationRow(application.id)).toEqual(before);
            expect(await offersOf(application.id)).toHaveLength(application.offers.length);
          }
        }
        expect(results).toEqual(wanted);
      });
    }
  }
});

describe("allowedActions agrees with the transitions", () => {
  it("lists exactly the moves the services accept", async () => {
    for (const status of STATUSES) {
      const { owner, applicant, application } = await negotiation(status);
      const json = await getApplication(owner, application.id);
      for (const [role, user] of [
        ["merchant", owner],
        ["freelancer", applicant],
      ] as const) {
        const wanted = ACTIONS.filter((a) => expected(status, role, a) === 200);
        expect(allowedActions(user, json).sort()).toEqual(wanted.sort());
      }
    }
  });

  it("shows nothing to a stranger", async () => {
    const { application, owner } = await negotiation("pending");
    const json = await getApplication(owner, application.id);
    expect(allowedActions(await merchant(), json)).toEqual([]);
    expect(allowedActions(await freelancer(), json)).toEqual([]);
  });
});

async function applicantOf(applicationId: string) {
  return db
    .selectFrom("applications")
    .innerJoin("users", "users.id", "applications.freelancer_id")
    .selectAll("users")
    .where("applications.id", "=", applicationId)
    .executeTakeFirstOrThrow();
}

describe("counter-offers", () => {
  it("pass the turn back and forth, record each offer and notify the other party", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const offer = await counterOffer(owner, application.id, {
      price_cents: 260_000,
      delivery_days: 18,
      message: "Fecha em 2.600?",
    });
    expect(offer).toMatchObject({
      author: "merchant",
      price_cents: 260_000,
      delivery_days: 18,
      message: "Fecha em 2.600?",
    });
    expect(await applicationRow(application.id)).toMatchObject({
      status: "countered",
      awaiting: "freelancer",
      price_cents: 260_000,
      delivery_days: 18,
      offers_count: 2,
    });
    expect(await notificationsOf(applicant)).toMatchObject([
      { kind: "offer_received", application_id: application.id },
    ]);

    await counterOffer(applicant, application.id, { price_cents: 280_000, delivery_days: 15 });
    expect(await applicationRow(application.id)).toMatchObject({
      status: "pending",
      awaiting: "merchant",
      offers_count: 3,
    });
    expect((await notificationsOf(owner)).map((n) => n.kind)).toEqual(["offer_received"]);

    const detail = await getApplication(applicant, application.id);
    expect(detail.offers.map((o) => [o.author, o.price_cents])).toEqual([
      ["freelancer", 300_000],
      ["merchant", 260_000],
      ["freelancer", 280_000],
    ]);
  });

  it(`stop at ${MAX_OFFERS} offers, while accepting stays possible`, async () => {
    const owner = await merchant();
    const opp = await createOpportunity(db, { merchant_id: owner.id });
    const offers = Array.from({ length: MAX_OFFERS }, (_, i) => ({
      author: (i % 2 === 0 ? "freelancer" : "merchant") as "freelancer" | "merchant",
      price_cents: 100_000 + i,
      delivery_days: 10,
    }));
    // 30 offers, the last by the merchant: the freelancer's turn.
    const application = await createApplication(db, { opportunity: opp, status: "countered", offers });
    const applicant = await applicantOf(application.id);
    const error = await counterOffer(applicant, application.id, { price_cents: 1, delivery_days: 1 }).catch((e) => e);
    expect(error).toMatchObject({ status: 409, key: "offers_limit" });
    const json = await getApplication(applicant, application.id);
    expect(allowedActions(applicant, json)).toEqual(["accept", "withdraw"]);
    const accepted = await acceptOffer(applicant, application.id, { offer_id: application.offers[MAX_OFFERS - 1].id });
    expect(accepted).toMatchObject({ status: "accepted", price_cents: 100_029 });
  });

  it("refuse bounds violations with 422", async () => {
    const { owner, application } = await negotiation("pending");
    const error = await counterOffer(owner, application.id, {
      price_cents: 100_000_001,
      delivery_days: 0,
      message: "x".repeat(2001),
    }).catch((e) => e);
    expect(error).toMatchObject({
      status: 422,
      fieldErrors: {
        price_cents: "price_invalid",
        delivery_days: "delivery_days_invalid",
        message: "offer_message_length",
      },
    });
    expect((await applicationRow(application.id)).offers_count).toBe(1);
  });
});

describe("accepting", () => {
  it("hires on the latest offer's terms, counts the vacancy and notifies the freelancer", async () => {
    const { owner, applicant, application, opportunity } = await negotiation("pending", { vacancies: 2 });
    const result = await acceptOffer(owner, application.id, { offer_id: application.offers[0].id });
    expect(result).toMatchObject({ status: "accepted", awaiting: null, price_cents: 300_000, delivery_days: 20 });
    expect(await opportunityRow(opportunity.id)).toMatchObject({
      status: "open",
      accepted_count: 1,
      applications_count: 1,
    });
    expect(await notificationsOf(applicant)).toMatchObject([{ kind: "application_accepted" }]);
  });

  it("a freelancer accepting a counter-offer notifies the merchant", async () => {
    const { owner, applicant, application } = await negotiation("countered", { vacancies: 3 });
    const result = await acceptOffer(applicant, application.id, { offer_id: application.offers[1].id });
    expect(result).toMatchObject({ status: "accepted", price_cents: 250_000 });
    expect(await notificationsOf(owner)).toMatchObject([
      { kind: "application_accepted", application_id: application.id },
    ]);
  });

  it("answers 409 for an offer that is no longer the latest, and changes nothing", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const first = application.offers[0].id;
    await counterOffer(owner, application.id, { price_cents: 200_000, delivery_days: 10 });
    await counterOffer(applicant, application.id, { price_cents: 240_000, delivery_days: 12 });
    const before = await applicationRow(application.id);
    const error = await acceptOffer(owner, application.id, { offer_id: first }).catch((e) => e);
    expect(error).toMatchObject({ status: 409, key: "offer_not_latest" });
    const unknown = await acceptOffer(owner, application.id, { offer_id: "someone-else" }).catch((e) => e);
    expect(unknown).toMatchObject({ status: 409, key: "offer_not_latest" });
    expect(await applicationRow(application.id)).toEqual(before);
    const ok = await acceptOffer(owner, application.id, { offer_id: await latestOfferId(application.id) });
    expect(ok).toMatchObject({ status: "accepted", price_cents: 240_000, delivery_days: 12 });
  });

  it("taking the last vacancy fills the opportunity and declines the other negotiations with reason filled", async () => {
    const owner = await merchant();
    const opp = await createOpportunity(db, { merchant_id: owner.id, vacancies: 2 });
    const make = (status: ApplicationRow["status"]) =>
      createApplication(db, { opportunity: opp, status, offers: offersFor(status) });
    const first = await make("pending");
    const second = await make("pending");
    const countered = await make("countered");
    const pending = await make("pending");
    const withdrawn = await make("withdrawn");

    await acceptOffer(owner, first.id, { offer_id: first.offers[0].id });
    expect((await opportunityRow(opp.id)).status).toBe("open");
    await acceptOffer(owner, second.id, { offer_id: second.offers[0].id });

    expect(await opportunityRow(opp.id)).toMatchObject({ status: "filled", accepted_count: 2, applications_count: 5 });
    for (const other of [countered, pending]) {
      expect(await applicationRow(other.id)).toMatchObject({
        status: "rejected",
        rejection_reason: "filled",
        awaiting: null,
      });
      expect(await notificationsOf({ id: other.freelancer_id })).toMatchObject([
        { kind: "application_rejected", application_id: other.id },
      ]);
    }
    expect((await applicationRow(withdrawn.id)).status).toBe("withdrawn");
    expect(await notificationsOf({ id: withdrawn.freelancer_id })).toEqual([]);
    // Filled is not closed: it cannot be reopened.
    expect(await outcome(reopenOpportunity(owner, opp.uuid))).toBe(409);
  });
});

describe("rejecting and withdrawing", () => {
  it("the merchant declines with an optional message; the freelancer is told", async () => {
    const { owner, applicant, application } = await negotiation("countered");
    const result = await rejectApplication(owner, application.id, { message: "Escolhemos outra proposta." });
    expect(result).toMatchObject({
      status: "rejected",
      awaiting: null,
      rejection_reason: "declined",
      rejection_message: "Escolhemos outra proposta.",
    });
    expect(await notificationsOf(applicant)).toMatchObject([{ kind: "application_rejected" }]);
  });

  it("the freelancer withdraws; the merchant is told", async () => {
    const { owner, applicant, application } = await negotiation("pending");
    const result = await withdrawApplication(applicant, application.id);
    expect(result).toMatchObject({ status: "withdrawn", awaiting: null });
    expect(await notificationsOf(owner)).toMatchObject([{ kind: "application_withdrawn" }]);
  });
});

describe("closing and reopening", () => {
  it("closing declines what is under negotiation with reason closed and keeps the hired", async () => {
    const owner = await merchant();
    const opp = await createOpportunity(db, { merchant_id: owner.id, vacancies: 3 });
    const hired = await createApplication(db, { opportunity: opp, status: "accepted" });
    const pending = await createApplication(db, { opportunity: opp, status: "pending" });
    const countered = await createApplication(db, {
      opportunity: opp,
      status: "countered",
      offers: offersFor("countered"),
    });
    const closed = await closeOpportunity(owner, opp.uuid);
    expect(closed).toMatchObject({ status: "closed", accepted_count: 1, applications_count: 3 });
    expect((await applicationRow(hired.id)).status).toBe("accepted");
    for (const app of [pending, countered]) {
      expect(await applicationRow(app.id)).toMatchObject({ status: "rejected", rejection_reason: "closed" });
      expect(await notificationsOf({ id: app.freelancer_id })).toMatchObject([{ kind: "application_rejected" }]);
    }
    expect(await outcome(closeOpportunity(owner, opp.uuid))).toBe(409);
    expect(await outcome(applyToOpportunity(await freelancer(), opp.uuid, validApplication))).toBe(409);

    const reopened = await reopenOpportunity(owner, opp.uuid);
    expect(reopened.status).toBe("open");
    expect(await outcome(reopenOpportunity(owner, opp.uuid))).toBe(409);
    // Declined applications stay declined.
    expect((await applicationRow(pending.id)).status).toBe("rejected");
  });

  it("only the owner closes or reopens (others get 404, freelancers 403)", async () => {
    const opp = await createOpportunity(db);
    expect(await outcome(closeOpportunity(await merchant(), opp.uuid))).toBe(404);
    expect(await outcome(closeOpportunity(await freelancer(), opp.uuid))).toBe(403);
    expect((await opportunityRow(opp.id)).status).toBe("open");
  });
});

describe("concurrency", () => {
  it("two accepts of the same offer at once: exactly one wins", async () => {
    const { owner, application, opportunity, applicant } = await negotiation("pending", { vacancies: 2 });
    const offerId = application.offers[0].id;
    const results = await Promise.all([
      outcome(acceptOffer(owner, application.id, { offer_id: offerId })),
      outcome(acceptOffer(owner, application.id, { offer_id: offerId })),
    ]);
    expect(results.sort()).toEqual([200, 409]);
    expect(await opportunityRow(opportunity.id)).toMatchObject({ accepted_count: 1, status: "open" });
    expect((await applicationRow(application.id)).status).toBe("accepted");
    expect(await notificationsOf(applicant)).toHaveLength(1);
  });

  it("two applications racing for the last vacancy: one hired, the other declined as filled", async () => {
    const owner = await merchant();
    const opp = await createOpportunity(db, { merchant_id: owner.id, vacancies: 1 });
    const a = await createApplication(db, { opportunity: opp, status: "pending" });
    const b = await createApplication(db, { opportunity: opp, status: "countered", offers: offersFor("countered") });
    const bFreelancer = await applicantOf(b.id);
    const results = await Promise.all([
      outcome(acceptOffer(owner, a.id, { offer_id: a.offers[0].id })),
      outcome(acceptOffer(bFreelancer, b.id, { offer_id: b.offers[1].id })),
    ]);
    expect(results.sort()).toEqual([200, 409]);
    const rows = [await applicationRow(a.id), await applicationRow(b.id)];
    expect(rows.map((r) => r.status).sort()).toEqual(["accepted", "rejected"]);
    expect(rows.find((r) => r.status === "rejected")!.rejection_reason).toBe("filled");
    expect(await opportunityRow(opp.id)).toMatchObject({ accepted_count: 1, status: "filled" });
  });

  it("accept, withdraw and reject at once: one wins, the others get 409", async () => {
    const { owner, applicant, application } = await negotiation("countered", { vacancies: 2 });
    const results = await Promise.all([
      outcome(acceptOffer(applicant, application.id, { offer_id: application.offers[1].id })),
      outcome(withdrawApplication(applicant, application.id)),
      outcome(rejectApplication(owner, application.id, {})),
    ]);
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(2);
    const offers = await offersOf(application.id);
    expect(offers).toHaveLength(2);
  });
});

describe("after every test above", () => {
  it("the counters, turns, terms and reasons are all consistent", async () => {
    expect(await brokenInvariants()).toEqual([]);
  });
});
