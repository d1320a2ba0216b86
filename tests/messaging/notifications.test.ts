import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import type { NotificationKind, UserRow } from "../../db/schema";
import { openedRecord } from "~/lib/notifications";
import { listNotifications, readOpenedRecord } from "~/services/messaging/notifications.server";
import * as root from "~/root";
import { createApplication, createOpportunity } from "../../db/factories";
import { get } from "../operator/support";
import { signedInUser } from "../support/helpers";
import { negotiation } from "../support/market";

async function notice(user: Pick<UserRow, "id">, kind: NotificationKind, applicationId: string | null) {
  await db
    .insertInto("notifications")
    .values({
      id: randomUUID(),
      user_id: user.id,
      kind,
      application_id: applicationId,
      opportunity_id: null,
      created_at: new Date().toISOString(),
      read_at: null,
    })
    .execute();
}

const unreadKinds = async (user: UserRow) =>
  (await listNotifications(user, { unread: "1" })).data.map((n) => n.kind).sort();

describe("opening a record reads its notifications", () => {
  it("knows which pages are records: applications (with negotiation and conversation), contracts, invitations", () => {
    const id = randomUUID();
    expect(openedRecord(`/applications/${id}`)).toEqual({ target: `/applications/${id}`, id });
    expect(openedRecord(`/applications/${id}/negotiate`)).toEqual({ target: `/applications/${id}`, id });
    expect(openedRecord(`/applications/${id}/messages`)).toEqual({ target: `/applications/${id}`, id });
    expect(openedRecord(`/contracts/${id}`)).toEqual({ target: `/contracts/${id}`, id });
    expect(openedRecord("/invitations")).toEqual({ target: "/invitations", id: null });
    for (const other of ["/dashboard", "/contracts", `/contracts/${id}/files/x`, "/applications/nope", "/"]) {
      expect(openedRecord(other)).toBeNull();
    }
  });

  it("marks read what leads to the opened page, and only that, whoever opened it however", async () => {
    const { owner, applicant, application } = await negotiation("accepted");
    const other = await negotiation("pending", {});
    await notice(owner, "application_received", application.id);
    await notice(owner, "offer_received", application.id);
    await notice(owner, "contract_delivered", application.id);
    await notice(owner, "application_received", other.application.id);
    await notice(applicant, "application_accepted", application.id);

    // The application's page: its two notifications, not the contract's, not another record's.
    await readOpenedRecord(owner, `/applications/${application.id}/negotiate`);
    expect(await unreadKinds(owner)).toEqual(["application_received", "contract_delivered"]);
    expect((await listNotifications(owner, {})).unread_count).toBe(2);
    // The contract's page: its own.
    await readOpenedRecord(owner, `/contracts/${application.id}`);
    expect(await unreadKinds(owner)).toEqual(["application_received"]);
    // Someone else's notifications stay as they are.
    expect(await unreadKinds(applicant)).toEqual(["application_accepted"]);
    // Any other page reads nothing.
    await readOpenedRecord(owner, "/dashboard");
    expect(await unreadKinds(owner)).toEqual(["application_received"]);
  });

  it("reads the invitations' notifications on the invitations page", async () => {
    const { applicant, application } = await negotiation("pending");
    await notice(applicant, "invitation_received", null);
    await notice(applicant, "offer_received", application.id);
    await readOpenedRecord(applicant, "/invitations");
    expect(await unreadKinds(applicant)).toEqual(["offer_received"]);
  });

  it("a page loaded whole, as without JavaScript, reads them before its bell counts", async () => {
    // The browser story (tests/e2e/contracts.spec.ts) opens the same records with JavaScript.
    const m = await signedInUser({ account_type: "merchant" });
    const f = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: m.user.id });
    const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id, status: "accepted" });
    await notice(m.user, "application_received", app.id);
    await notice(m.user, "contract_delivered", app.id);
    const bell = async (path: string) => (await get(root, path, m.token)).body.notifications.unread;
    expect(await bell("/dashboard")).toBe(2);
    // The contract's page, reached from the contracts list: its delivery is read.
    expect(await bell(`/contracts/${app.id}`)).toBe(1);
    // The application's page, from the contract's: the rest.
    expect(await bell(`/applications/${app.id}`)).toBe(0);
  });
});
