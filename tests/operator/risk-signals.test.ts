import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser, createVerifiedIdentity } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import * as riskApi from "~/routes/api+/admin+/users.$id.risk";
import * as reportsApi from "~/routes/api+/admin+/reports._index";
import * as memberPage from "~/routes/admin+/users.$id";
import { riskSignals } from "~/services/operator/risk-signals.server";
import { signedInUser } from "../support/helpers";
import { statementsOf } from "../support/statements";
import { get, signedInOperator } from "./support";

// An account's risk signals on the console (docs/product.md, "Sinais de risco"), seeded row by
// row, on both engines.

const at = () => new Date().toISOString();

async function hired(freelancer: UserRow, merchant: UserRow) {
  const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
  const app = await createApplication(db, { opportunity, freelancer_id: freelancer.id, status: "accepted" });
  const milestone = await db
    .selectFrom("milestones")
    .select("id")
    .where("contract_id", "=", app.id)
    .executeTakeFirstOrThrow();
  return { contractId: app.id, milestoneId: milestone.id };
}

async function decided(contractId: string, decision: string) {
  await db
    .insertInto("disputes")
    .values({
      id: randomUUID(),
      contract_id: contractId,
      opened_by: "merchant",
      reason: "O trabalho não foi entregue.",
      status: "decided",
      respond_by: at(),
      answered_at: null,
      reminded_at: null,
      decision,
      decision_reason: "Conforme as provas.",
      decided_by: null,
      decided_at: at(),
      created_at: at(),
      updated_at: at(),
    })
    .execute();
}

async function payoutKey(userId: string, document: string) {
  await db
    .insertInto("payout_accounts")
    .values({
      user_id: userId,
      key_type: "cpf",
      pix_key: document,
      holder_name: "Titular",
      holder_document: document,
      updated_at: at(),
      held_until: null,
    })
    .execute();
}

async function reported(author: UserRow, status: "open" | "dismissed") {
  const reporter = await createUser(db, { account_type: "merchant" });
  await db
    .insertInto("reports")
    .values({
      id: randomUUID(),
      reporter_id: reporter.id,
      target_type: "profile",
      target_id: author.id,
      author_id: author.id,
      reason: "fraud",
      details: null,
      status,
      resolution: status === "open" ? null : "dismiss",
      resolution_reason: null,
      resolved_by: null,
      resolved_at: status === "open" ? null : at(),
      created_at: at(),
    })
    .execute();
}

/** A freelancer with one of everything the section counts, and the accounts it shares documents with. */
async function seeded() {
  const suspect = await createUser(db, { account_type: "freelancer", full_name: "Suspeito Silva" });
  const merchant = await createUser(db, { account_type: "merchant" });
  const twin = await createUser(db, { account_type: "freelancer", full_name: "Gêmeo Identidade" });
  const payer = await createUser(db, { account_type: "freelancer", full_name: "Mesma Chave" });
  const owner = await createUser(db, { account_type: "freelancer", full_name: "Dono Do Cpf" });
  await db
    .insertInto("identity_conflicts")
    .values({ id: randomUUID(), user_id: twin.id, holder_user_id: suspect.id, created_at: at() })
    .execute();
  // Its payout key's holder is another account's payout holder and another account's identity.
  const document = await createVerifiedIdentity(db, owner.id);
  await payoutKey(suspect.id, document);
  await payoutKey(payer.id, document);
  await reported(suspect, "open");
  await reported(suspect, "open");
  await reported(suspect, "dismissed");
  const lost = await hired(suspect, merchant);
  await decided(lost.contractId, "cancel");
  await decided((await hired(suspect, merchant)).contractId, "complete");
  await decided((await hired(suspect, merchant)).contractId, "split");
  for (const cents of [30_000, 12_345]) {
    await db
      .insertInto("refunds")
      .values({
        id: randomUUID(),
        user_id: merchant.id,
        contract_id: lost.contractId,
        milestone_id: lost.milestoneId,
        charge_id: null,
        amount_cents: cents,
        status: "due",
        e2e_id: null,
        decided_by: null,
        decided_at: null,
        created_at: at(),
      })
      .execute();
  }
  return { suspect, merchant, twin, payer, owner };
}

describe("risk signals", () => {
  it("count shared documents, reports, disputes lost and refunds, in two statements whatever the data", async () => {
    const { suspect, merchant, twin, payer, owner } = await seeded();
    const risk = await riskSignals(suspect.id);
    expect(risk).toEqual({
      shared_documents: expect.arrayContaining([
        { id: twin.id, name: "Gêmeo Identidade", via: "identity" },
        { id: payer.id, name: "Mesma Chave", via: "payout_key" },
        { id: owner.id, name: "Dono Do Cpf", via: "payout_key" },
      ]),
      reports_received: { total: 3, open: 2 },
      masked_contacts: 0,
      disputes_lost: 1,
      refunds: { count: 2, amount_cents: 42_345 },
    });
    expect(risk.shared_documents).toHaveLength(3);
    // Seen from the other side: the twin and the owner share with the suspect.
    expect((await riskSignals(twin.id)).shared_documents).toEqual([
      { id: suspect.id, name: "Suspeito Silva", via: "identity" },
    ]);
    expect((await riskSignals(owner.id)).shared_documents.map((s) => s.id).sort()).toEqual(
      [suspect.id, payer.id].sort(),
    );
    // The merchant won the cancelled one and lost the completed one; the refunds are on its contract too.
    expect(await riskSignals(merchant.id)).toMatchObject({ disputes_lost: 1, refunds: { count: 2 } });
    // The page's added cost: two statements, for a clean account as for this one.
    const clean = await createUser(db, {});
    expect(await statementsOf(() => riskSignals(clean.id))).toBe(2);
    expect(await statementsOf(() => riskSignals(suspect.id))).toBe(2);
    // Texts it sent with a contact masked (the contact detector's flags), in the same statement.
    const at = new Date().toISOString();
    await db
      .insertInto("contact_flags")
      .values(
        (["message", "invitation"] as const).map((source) => ({
          id: randomUUID(),
          user_id: suspect.id,
          source,
          source_id: randomUUID(),
          kinds: "phone",
          created_at: at,
        })),
      )
      .execute();
    expect((await riskSignals(suspect.id)).masked_contacts).toBe(2);
    expect((await riskSignals(owner.id)).masked_contacts).toBe(0);
    expect(await statementsOf(() => riskSignals(suspect.id))).toBe(2);
  });

  it("by the API and on the page; the reports link filters the queue by author; 404 and 422", async () => {
    const { suspect } = await seeded();
    const operator = await signedInOperator();
    const path = `/api/admin/users/${suspect.id}/risk`;
    const answer = await get(riskApi, path, operator.token, { id: suspect.id });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ reports_received: { total: 3, open: 2 }, disputes_lost: 1 });
    const nobody = randomUUID();
    expect((await get(riskApi, `/api/admin/users/${nobody}/risk`, operator.token, { id: nobody })).status).toBe(404);
    const member = await signedInUser({ account_type: "merchant" });
    expect((await get(riskApi, path, member.token, { id: suspect.id })).status).toBe(404);

    const page = await get(memberPage, `/admin/users/${suspect.id}`, operator.token, { id: suspect.id });
    expect(page.status).toBe(200);
    expect(page.body.risk).toEqual(answer.body.data);

    const queue = await get(reportsApi, `/api/admin/reports?author=${suspect.id}`, operator.token);
    expect(queue.body.data.map((g: { target: { id: string } }) => g.target.id)).toEqual([suspect.id]);
    expect(queue.body.data[0].reports_count).toBe(2);
    const bad = await get(reportsApi, "/api/admin/reports?author=x", operator.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.author).toBe("Autor inválido: use o id da conta.");
  });
});

describe("the person's identity on the console page", () => {
  it("its state, the decision, the document masked and whether another account shares it; the same by the API", async () => {
    const { decideIdentity } = await import("~/services/accounts/identity.server");
    const userApi = await import("~/routes/api+/admin+/users.$id");
    const operator = await signedInOperator();
    const identityOf = async (id: string) =>
      (await get(userApi, `/api/admin/users/${id}`, operator.token, { id })).body.data.identity;

    const { suspect, twin, owner } = await seeded();
    // No identity yet; the attempt of another account with its document is there.
    expect(await identityOf(suspect.id)).toEqual({
      status: "none",
      kind: null,
      document_masked: null,
      submitted_at: null,
      decided_at: null,
      reason: null,
      shared_with: 1,
    });
    expect((await identityOf(twin.id)).shared_with).toBe(1);

    // Verified: the decision's date; the document only masked.
    const document = "52998224725";
    await createVerifiedIdentity(db, suspect.id, { document });
    const verified = await identityOf(suspect.id);
    expect(verified).toMatchObject({ status: "verified", kind: "person", document_masked: "•••.•••.247-25" });
    expect(verified.decided_at).toEqual(expect.any(String));
    const answer = await get(userApi, `/api/admin/users/${suspect.id}`, operator.token, { id: suspect.id });
    expect(JSON.stringify(answer.body)).not.toContain(document);
    expect((await identityOf(owner.id)).shared_with).toBe(0);

    // Sent again and rejected: the reason the person reads.
    await db
      .updateTable("identities")
      .set({ status: "pending", decided_at: null })
      .where("user_id", "=", suspect.id)
      .execute();
    expect((await identityOf(suspect.id)).status).toBe("pending");
    await decideIdentity(operator.user, suspect.id, {
      decision: "reject",
      version: 1,
      reason: "A selfie está ilegível.",
    });
    expect(await identityOf(suspect.id)).toMatchObject({ status: "rejected", reason: "A selfie está ilegível." });

    // The page's loader reads the same, in the same statements as before.
    const page = await get(memberPage, `/admin/users/${suspect.id}`, operator.token, { id: suspect.id });
    expect(page.body.member.identity).toEqual(await identityOf(suspect.id));
    const { getMember } = await import("~/services/operator/members.server");
    expect(await statementsOf(() => getMember(suspect.id))).toBe(5);

    // Anyone else: 404.
    const member = await signedInUser({ account_type: "merchant" });
    expect((await get(userApi, `/api/admin/users/${suspect.id}`, member.token, { id: suspect.id })).status).toBe(404);
  });
});
