import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createInvitation, createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import {
  listAwaitingConfirmation,
  listMyApplications,
  listOpportunityApplications,
} from "~/services/marketplace/applications.server";
import { listContracts } from "~/services/contracts/contracts.server";
import { getDashboard } from "~/services/marketplace/dashboard.server";
import { listConversations } from "~/services/messaging/inbox.server";
import { unreadMessages } from "~/services/messaging/messages.server";
import { bellOf, listNotifications } from "~/services/messaging/notifications.server";
import { listOpportunities } from "~/services/marketplace/opportunities.server";
import { listFreelancers } from "~/services/reputation/profiles.server";
import { listUserReviews } from "~/services/reputation/reviews.server";
import { listInvitations } from "~/services/marketplace/invitations.server";
import { offersFor } from "../support/market";
import { statementsOf } from "../support/statements";

// Lists must not query once per item: the number of statements is the same for a page of 5
// and a page of 50 (which holds all 40 items).

let merchant: UserRow;
let freelancer: UserRow;
let uuid: string;
let hiredId: string;

beforeAll(async () => {
  merchant = await createUser(db, { account_type: "merchant" });
  freelancer = await createUser(db, { account_type: "freelancer" });
  for (let i = 0; i < 40; i++) {
    const opp = await createOpportunity(db, { merchant_id: merchant.id, vacancies: 20 });
    uuid ??= opp.uuid;
    const status = i % 2 === 0 ? "pending" : "countered";
    const application = await createApplication(db, {
      opportunity: opp,
      freelancer_id: freelancer.id,
      status,
      offers: offersFor(status),
    });
    // A conversation with one message from the freelancer, unread by the merchant.
    const sentAt = new Date(Date.now() + i).toISOString();
    await db
      .insertInto("conversations")
      .values({
        application_id: application.id,
        freelancer_id: freelancer.id,
        merchant_id: merchant.id,
        messages_count: 1,
        last_message_at: sentAt,
      })
      .execute();
    await db
      .insertInto("messages")
      .values({
        id: crypto.randomUUID(),
        application_id: application.id,
        seq: 1,
        author: "freelancer",
        body: `Mensagem ${i}`,
        hidden_at: null,
        hidden_reason: null,
        created_at: sentAt,
      })
      .execute();
    await db
      .insertInto("notifications")
      .values({
        id: crypto.randomUUID(),
        user_id: merchant.id,
        kind: "application_received",
        application_id: null,
        opportunity_id: opp.id,
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    await createInvitation(db, { opportunity_id: opp.id, freelancer_id: freelancer.id, merchant_id: merchant.id });
  }
  for (let i = 0; i < 39; i++) await createUser(db, { account_type: "freelancer" });
  const opp = await db.selectFrom("opportunities").select("id").where("uuid", "=", uuid).executeTakeFirstOrThrow();
  for (let i = 0; i < 39; i++) await createApplication(db, { opportunity: opp });
  // Eight hires of the merchant: eight contracts.
  const hired = await createUser(db, { account_type: "freelancer" });
  hiredId = hired.id;
  for (let i = 0; i < 8; i++) {
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
    const application = await createApplication(db, { opportunity, freelancer_id: hired.id, status: "accepted" });
    // Each hire reviewed by the merchant, published.
    const at = new Date().toISOString();
    await db
      .insertInto("reviews")
      .values({
        id: crypto.randomUUID(),
        contract_id: application.id,
        author_id: merchant.id,
        subject_id: hired.id,
        author_role: "merchant",
        rating: 1 + (i % 5),
        comment: "Bom",
        reply: null,
        replied_at: null,
        publish_due_at: at,
        published_at: at,
        created_at: at,
      })
      .execute();
  }
});

describe("statements per list, whatever the page size", () => {
  it.each([
    ["opportunities (freelancer)", (n: number) => listOpportunities(freelancer, { per_page: String(n) })],
    ["opportunities (merchant)", (n: number) => listOpportunities(merchant, { per_page: String(n) })],
    [
      "opportunities (search)",
      (n: number) => listOpportunities(freelancer, { per_page: String(n), q: "site padaria" }),
    ],
    ["my applications", (n: number) => listMyApplications(freelancer, { per_page: String(n) })],
    ["awaiting confirmation", (n: number) => listAwaitingConfirmation(merchant, { per_page: String(n) })],
    [
      "applications of an opportunity",
      (n: number) => listOpportunityApplications(merchant, uuid, { per_page: String(n) }),
    ],
    ["notifications", (n: number) => listNotifications(merchant, { per_page: String(n) })],
    ["inbox (merchant)", (n: number) => listConversations(merchant, { per_page: String(n) })],
    ["inbox (merchant, unread)", (n: number) => listConversations(merchant, { per_page: String(n), filter: "unread" })],
    ["contracts", (n: number) => listContracts(merchant, { per_page: String(n) })],
    ["a user's published reviews", (n: number) => listUserReviews(hiredId, { per_page: String(n) })],
    ["invitations (freelancer)", (n: number) => listInvitations(freelancer, { per_page: String(n) })],
    ["invitations (merchant)", (n: number) => listInvitations(merchant, { per_page: String(n) })],
    ["freelancer directory", (n: number) => listFreelancers({ per_page: String(n) })],
    [
      "freelancer directory (search)",
      (n: number) => listFreelancers({ per_page: String(n), q: "joão freel", sort: "name" }),
    ],
  ])("%s", async (_name, list) => {
    const few = await statementsOf(() => list(5));
    const many = await statementsOf(() => list(50));
    expect(many).toBe(few);
    expect(few).toBeGreaterThanOrEqual(2);
    expect(few).toBeLessThanOrEqual(3);
    expect(((await list(5)) as { data: unknown[] }).data).toHaveLength(5);
    expect(((await list(50)) as { data: unknown[] }).data.length).toBeGreaterThan(5);
  });

  it("the top bar's unread messages take one statement", async () => {
    expect(await statementsOf(() => unreadMessages(merchant))).toBe(1);
    expect(await statementsOf(() => unreadMessages(freelancer))).toBe(1);
  });

  it("the top bar's bell takes two statements (the latest five, the unread count)", async () => {
    expect(await statementsOf(() => bellOf(merchant))).toBe(2);
    const bell = await bellOf(merchant);
    expect(bell.latest).toHaveLength(5);
    expect(bell.unread).toBe(40);
  });

  it("the dashboard takes three statements (figures, series, contracts)", async () => {
    expect(await statementsOf(() => getDashboard(merchant))).toBe(3);
    expect(await statementsOf(() => getDashboard(freelancer))).toBe(3);
  });
});
