import { randomBytes, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { config } from "../app/config.server";
import { fundMilestone, releaseMilestone } from "../app/services/payments/escrow.server";
import { account, post } from "../app/services/payments/ledger.server";
import { manualProvider } from "../app/services/payments/providers.server";
import type { ContractRow, Database, MilestoneRow } from "./schema";
import { createVerifiedIdentity } from "./factories";

// The demo's money (PAYMENTS=escrow, the demo's mode): every finished hire was funded by Pix and
// released, the in-progress ones funded or waiting for their charge, and two freelancers were
// paid out, so /financeiro and the dashboards show real ledger lines. Posted through the same
// ledger functions as the services, at the times the hires happened.

const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();
let e2eCounter = 0;
const e2eAt = (t: number) => {
  e2eCounter += 1;
  const stamp = iso(t).replace(/\D/g, "").slice(0, 12);
  return `E18236120${stamp}DEMO${String(e2eCounter).padStart(7, "0")}`.slice(0, 32);
};

/** Valid CPFs for the demo's payout keys' holders. */
const DEMO_CPFS = ["52998224725", "11144477735", "39053344705"];

/** A Pix charge of the milestone made at `at` by the manual provider, paid an hour later (or still pending). */
export async function charge(
  db: Kysely<Database>,
  contract: ContractRow,
  milestone: MilestoneRow,
  at: number,
  paid: boolean,
) {
  const id = randomUUID();
  const txid = `FRL${randomBytes(11).toString("hex").toUpperCase()}`;
  const issued = await manualProvider.createCharge({
    chargeId: id,
    txid,
    amountCents: milestone.amount_cents,
    description: `Freela: ${milestone.title}`,
    payerEmail: "",
    expiresAt: iso(at + 24 * HOUR),
  });
  await db
    .insertInto("pix_charges")
    .values({
      id,
      milestone_id: milestone.id,
      contract_id: contract.id,
      merchant_id: contract.merchant_id,
      provider: "manual",
      txid,
      provider_payment_id: null,
      amount_cents: milestone.amount_cents,
      br_code: issued.br_code,
      status: paid ? "paid" : "pending",
      e2e_id: paid ? e2eAt(at + HOUR) : null,
      expires_at: iso(at + 24 * HOUR),
      paid_at: paid ? iso(at + HOUR) : null,
      confirmed_by: paid ? "demo" : null,
      created_at: iso(at),
    })
    .execute();
  return id;
}

export async function seedPayments(db: Kysely<Database>) {
  if (config.PAYMENTS !== "escrow") return;
  const now = Date.now();
  const contracts = await db.selectFrom("contracts").selectAll().orderBy("created_at").orderBy("id").execute();
  for (const [i, contract] of contracts.entries()) {
    const milestone = await db
      .selectFrom("milestones")
      .selectAll()
      .where("contract_id", "=", contract.id)
      .executeTakeFirstOrThrow();
    const hired = Date.parse(contract.created_at);
    if (contract.status === "completed") {
      const chargeId = await charge(db, contract, milestone, hired, true);
      await fundMilestone(db, contract, milestone, chargeId, iso(hired + HOUR));
      const funded = { ...milestone, status: "funded" as const };
      await releaseMilestone(db, contract, funded, contract.ended_at ?? iso(now));
    } else if (contract.status === "in_progress" && (i % 3 !== 2 || contract.kind === "monthly")) {
      const at = Math.max(hired, now - 20 * HOUR);
      const chargeId = await charge(db, contract, milestone, at, true);
      await fundMilestone(db, contract, milestone, chargeId, iso(at + HOUR));
    } else if (contract.status === "in_progress") {
      await charge(db, contract, milestone, now - 2 * HOUR, false);
    }
  }
  // Two freelancers with money released registered a key and were paid out, two days ago.
  const earners = await db
    .selectFrom("ledger_entries")
    .select(["user_id", (eb) => eb.fn.sum<number>("amount_cents").as("balance")])
    .where("account", "like", "available:%")
    .groupBy("user_id")
    .orderBy("user_id")
    .execute();
  for (const [i, earner] of earners.entries()) {
    const userId = earner.user_id!;
    const user = await db
      .selectFrom("users")
      .select(["email", "full_name"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    // Payouts go to the verified person: each earner's identity, verified, is the key's holder.
    const document = await createVerifiedIdentity(db, userId, {
      document: DEMO_CPFS[i],
      legal_name: user.full_name,
    });
    await db
      .insertInto("payout_accounts")
      .values({
        user_id: userId,
        key_type: "email",
        pix_key: user.email,
        holder_name: user.full_name,
        holder_document: document,
        updated_at: iso(now - 3 * 24 * HOUR),
      })
      .execute();
    if (i >= 2) continue;
    const amount = Number(earner.balance);
    const id = randomUUID();
    const asked = now - 2 * 24 * HOUR;
    await db
      .insertInto("payouts")
      .values({
        id,
        user_id: userId,
        amount_cents: amount,
        key_type: "email",
        pix_key: user.email,
        holder_name: user.full_name,
        holder_document: document,
        status: "paid",
        e2e_id: e2eAt(asked + 20 * HOUR),
        failure_reason: null,
        decided_by: "demo",
        decided_at: iso(asked + 20 * HOUR),
        created_at: iso(asked),
      })
      .execute();
    await post(
      db,
      { kind: "payout_requested", payout_id: id, freelancer_id: userId },
      [
        { account: account.available(userId), user_id: userId, amount_cents: -amount },
        { account: account.payout(id), user_id: userId, amount_cents: amount },
      ],
      iso(asked),
    );
    await post(
      db,
      { kind: "payout_paid", payout_id: id, freelancer_id: userId },
      [
        { account: account.payout(id), user_id: userId, amount_cents: -amount },
        { account: account.external(userId), user_id: userId, amount_cents: amount },
      ],
      iso(asked + 20 * HOUR),
    );
  }
}
