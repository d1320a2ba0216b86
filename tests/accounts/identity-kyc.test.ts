import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { db } from "../../db";
import { config } from "~/config.server";
import * as identityRoute from "~/routes/api+/_account+/identity._index";
import * as identityPage from "~/routes/_account+/identidade";
import * as webhookRoute from "~/routes/api+/identity+/webhooks.kyc";
import { createSession } from "~/services/accounts/sessions.server";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { approveContract } from "~/services/contracts/contracts.server";
import { requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { BASE, call, mailsTo } from "../support/helpers";
import { PNG_1X1 } from "../support/fixtures";
import { auditRows, get, signedInOperator } from "../operator/support";
import { deliver, escrow, fund, hired } from "../payments/support";
import { decide, identityOf, pending, person, saveIdentity, sendPhotos } from "./identity-support";
import { startKyc, type KycMock } from "./kyc-server";

// The automatic identity provider (IDENTITY_PROVIDER=kyc; docs/product.md, "Identidade"), against
// its local stand-in: the app sends the documents and typed data, the service answers with an id
// and later posts its decision, signed, to the app's webhook, here served over HTTP as in
// production.

const TOKEN = "kyc-test-token";
const SECRET = "kyc-webhook-secret-0123456789";
const KYC_ACTOR = "verificação automática (kyc)";
let kyc: KycMock;
let app: Server;
const saved = { ...config };

beforeAll(async () => {
  kyc = await startKyc({ token: TOKEN, secret: SECRET });
  // The app's webhook on a local port: the stand-in posts to the callback_url it was given.
  app = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const headers = Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]);
    const answer = await call(
      webhookRoute.action,
      new Request(BASE + req.url, { method: req.method, headers, body: req.method === "GET" ? undefined : body }),
    );
    res.writeHead(answer.status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  const address = app.address();
  Object.assign(config, {
    APP_URL: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
    IDENTITY_PROVIDER: "kyc",
    IDENTITY_PROVIDER_URL: kyc.url,
    IDENTITY_PROVIDER_TOKEN: TOKEN,
    IDENTITY_WEBHOOK_SECRET: SECRET,
  });
});
afterAll(async () => {
  Object.assign(config, saved);
  await new Promise<void>((resolve) => app.close(() => resolve()));
  await kyc.close();
});

const APPROVED = { status: "approved" } as const;

/** The audit log's entries about this account. */
const auditsOf = async (userId: string) => (await auditRows()).filter((r) => r.target_id === userId);

/** What the app recorded of the provider's webhooks, by outcome. */
async function eventCounts() {
  const rows = await db.selectFrom("identity_events").select("outcome").execute();
  const counts: Record<string, number> = {};
  for (const { outcome } of rows) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** The account's latest verification at the stand-in. */
const latest = (userId: string) => kyc.latestFor(userId)!;

describe("the automatic provider decides", () => {
  it("pending → approved by the provider → verified: documents and typed data sent once, payouts unblock, audited, e-mailed", async () => {
    escrow();
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const { token } = await createSession(applicant.id);
    const cpf = generateCpf();
    expect((await saveIdentity(token, person(cpf))).status).toBe(200);
    expect(kyc.latestFor(applicant.id)).toBeUndefined(); // no photos yet: nothing to check
    const sent = await sendPhotos(token);
    expect(sent.status).toBe(200);
    expect(sent.body.data.status).toBe("pending");

    // The service received the typed data and the three photos, under the identity's version.
    const row = await identityOf(applicant.id);
    const v = latest(applicant.id);
    expect(v.input).toMatchObject({
      reference: `${applicant.id}:${row.version}`,
      kind: "person",
      document: cpf,
      legal_name: "Júlia Recebedora da Silva",
      birth_date: "1990-05-17",
      doc_type: "rg",
      callback_url: `${config.APP_URL}/api/identity/webhooks/kyc`,
    });
    for (const f of ["front", "back", "selfie"]) {
      expect(Buffer.from(v.input.files[f].base64, "base64").equals(Buffer.from(PNG_1X1))).toBe(true);
    }
    expect(v.idempotencyKey).toBe(v.reference);
    expect(
      await db.selectFrom("identity_verifications").selectAll().where("user_id", "=", applicant.id).execute(),
    ).toEqual([expect.objectContaining({ ref: v.id, provider: "kyc", version: row.version })]);
    // Nothing pending without its verification: the hourly job sends nothing again.
    expect((await pruneExpired()).verificationsResent).toBe(0);
    expect([...kyc.verifications.values()].filter((x) => x.reference.startsWith(applicant.id))).toHaveLength(1);

    await setPayoutAccount(applicant, { key_type: "cpf", pix_key: cpf, holder_name: "Júlia", holder_document: cpf });
    await expect(requestPayout(applicant)).rejects.toMatchObject({ key: "identity_not_verified_payout" });

    const answer = await kyc.decide(v.id, APPROVED);
    expect(answer).toMatchObject({ status: 200, body: { received: true, outcome: "processed" } });
    expect(await identityOf(applicant.id)).toMatchObject({ status: "verified", decided_by: null, reason: null });
    expect((await requestPayout(applicant)).status).toBe("requested");

    const audits = await auditsOf(applicant.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: "identity.approve", actor_id: null, actor_name: KYC_ACTOR });
    const mails = (await mailsTo(applicant.email)).filter((m) => m.text.includes(`${config.APP_URL}/identidade`));
    expect(mails).toHaveLength(1);
    // The person's copy of their data says who received their documents, and when.
    const copy = (await collectPersonalData(applicant.id)).kinds["identity.json"];
    expect(copy).toMatchObject({ status: "verified", sent_to_provider: [{ provider: "kyc", ref: v.id }] });
  });

  it("rejected by the provider with a reason the person reads; sent again, a new verification, then approved", async () => {
    const { user, token } = await pending();
    const first = latest(user.id);
    const reason = "A selfie não mostra o documento inteiro.";
    expect((await kyc.decide(first.id, { status: "rejected", reason })).body.outcome).toBe("processed");

    const seen = await get(identityRoute, "/api/identity", token);
    expect(seen.body.data).toMatchObject({ status: "rejected", reason });
    const page = await get(identityPage, "/identidade", token);
    expect(JSON.stringify(page.body)).toContain(reason);
    // The page says who checks (the pending notice names the automatic check, not an operator).
    expect(page.body.automatic).toBe(true);
    expect((await mailsTo(user.email))[0]!.text).toContain(reason);

    expect((await sendPhotos(token)).body.data.status).toBe("pending");
    const second = latest(user.id);
    expect(second.id).not.toBe(first.id);
    expect(second.reference).toBe(`${user.id}:${(await identityOf(user.id)).version}`);
    expect((await kyc.decide(second.id, APPROVED)).body.outcome).toBe("processed");
    expect((await identityOf(user.id)).status).toBe("verified");
    expect((await auditsOf(user.id)).map((a) => [a.action, a.actor_name, a.reason])).toEqual([
      ["identity.reject", KYC_ACTOR, reason],
      ["identity.approve", KYC_ACTOR, null],
    ]);

    // The typed data changed after the verification: the new version goes to the provider too.
    expect((await saveIdentity(token, { ...person(first.input.document), legal_name: "Júlia Souza" })).status).toBe(
      200,
    );
    expect(latest(user.id).input).toMatchObject({ legal_name: "Júlia Souza" });
    expect(latest(user.id).id).not.toBe(second.id);
  });
});

describe("the webhook refuses", () => {
  it("a bad signature (401, in Portuguese), a stale or future timestamp, malformed bodies, an unknown verification; nothing decided, each refusal recorded", async () => {
    const { user } = await pending();
    const v = latest(user.id);
    const before = await eventCounts();

    const forged = await kyc.deliver(kyc.notification(v.id, APPROVED, { secret: "someone-elses-secret-00000" }));
    expect(forged).toEqual({ status: 401, body: { message: "Assinatura da notificação inválida." } });
    expect((await kyc.deliver(kyc.notification(v.id, APPROVED, { signature: null }))).status).toBe(401);
    expect((await kyc.deliver(kyc.notification(v.id, APPROVED, { signature: "sha256=zz" }))).status).toBe(401);
    // A genuine signature over another body (a rejection turned into an approval).
    const genuine = kyc.notification(v.id, { status: "rejected", reason: "Documento ilegível." });
    const swapped = { ...genuine, body: genuine.body.replace(/"status":"rejected"/, '"status":"approved"') };
    expect((await kyc.deliver(swapped)).status).toBe(401);
    // The timestamp: missing, not a number, or signed with it but ten minutes old or ahead.
    const noTime = kyc.notification(v.id, APPROVED);
    delete noTime.headers["x-kyc-timestamp"];
    expect((await kyc.deliver(noTime)).status).toBe(401);
    expect((await kyc.deliver({ ...noTime, headers: { ...noTime.headers, "x-kyc-timestamp": "ontem" } })).status).toBe(
      401,
    );
    const now = Math.floor(Date.now() / 1000);
    const stale = await kyc.deliver(kyc.notification(v.id, APPROVED, { ts: now - 600 }));
    expect(stale).toEqual({ status: 401, body: { message: "Notificação antiga demais (possível repetição)." } });
    expect((await kyc.deliver(kyc.notification(v.id, APPROVED, { ts: now + 600 }))).status).toBe(401);

    // Signed, but not a result: 400.
    for (const body of [
      "{not json",
      "[]",
      JSON.stringify({ id: "evt_1", type: "verification.completed", data: { id: v.id, status: "maybe" } }),
      JSON.stringify({ id: "evt_2", type: "verification.completed", data: { id: v.id, status: "rejected" } }),
      JSON.stringify({ id: "evt_3", type: "other.event", data: { id: v.id, status: "approved" } }),
      JSON.stringify({ id: "evt 4", type: "verification.completed", data: { id: v.id, status: "approved" } }),
    ]) {
      const malformed = await kyc.deliver({ url: noTime.url, headers: kyc.sign(body), body });
      expect(malformed, body).toEqual({ status: 400, body: { message: "Notificação malformada." } });
    }
    // A verification this app never created.
    const unknown = await kyc.deliver(kyc.notification("ver_desconhecida", APPROVED));
    expect(unknown).toEqual({ status: 404, body: { message: "Verificação desconhecida." } });

    expect(await identityOf(user.id)).toMatchObject({ status: "pending", decided_at: null });
    expect(await auditsOf(user.id)).toEqual([]);
    const after = await eventCounts();
    const added = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    expect([added("webhook_bad_signature"), added("webhook_stale"), added("webhook_malformed")]).toEqual([6, 2, 6]);
    expect([added("webhook_unknown_verification"), added("processed"), added("superseded")]).toEqual([1, 0, 0]);
    // The genuine one still applies.
    expect((await kyc.deliver(kyc.notification(v.id, APPROVED))).body.outcome).toBe("processed");
  });
});

describe("one decision", () => {
  it("a replayed webhook, also twice at once, decides once: one audit entry, one e-mail", async () => {
    const { user } = await pending();
    const v = latest(user.id);
    const n = kyc.notification(v.id, APPROVED, { eventId: `evt_replay_${user.id.slice(0, 8)}` });
    const both = await Promise.all([kyc.deliver(n), kyc.deliver(n)]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    expect(both.map((a) => a.body.outcome).sort()).toEqual(["duplicate", "processed"]);
    expect((await kyc.deliver(n)).body.outcome).toBe("duplicate");
    // The same result again as a new event (the service retried with another id): ignored.
    expect((await kyc.deliver(kyc.notification(v.id, APPROVED))).body.outcome).toBe("superseded");
    expect((await identityOf(user.id)).status).toBe("verified");
    expect(await auditsOf(user.id)).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
    const events = await db.selectFrom("identity_events").selectAll().where("ref", "=", v.id).execute();
    expect(events.filter((e) => e.outcome === "processed")).toHaveLength(1);
  });

  it("a result for photos replaced by a resend is recorded and ignored; the new verification decides", async () => {
    const { user, token } = await pending();
    const old = latest(user.id);
    expect((await sendPhotos(token)).status).toBe(200);
    const fresh = latest(user.id);
    expect(fresh.id).not.toBe(old.id);

    const late = await kyc.decide(old.id, APPROVED);
    expect(late).toMatchObject({ status: 200, body: { outcome: "superseded" } });
    expect(await identityOf(user.id)).toMatchObject({ status: "pending", decided_at: null });
    expect(await auditsOf(user.id)).toEqual([]);
    const recorded = await db.selectFrom("identity_events").select("outcome").where("ref", "=", old.id).execute();
    expect(recorded).toEqual([{ outcome: "superseded" }]);

    const reason = "Documento vencido, envie outro.";
    expect((await kyc.decide(fresh.id, { status: "rejected", reason })).body.outcome).toBe("processed");
    expect(await identityOf(user.id)).toMatchObject({ status: "rejected", reason });
  });

  it("the operator and the provider at once: one wins; the operator who lost gets 409, the provider's result is ignored", async () => {
    const op = await signedInOperator();
    // In turn, each way round.
    const first = await pending();
    expect(
      (
        await decide(op.token, first.user.id, {
          decision: "approve",
          version: (await identityOf(first.user.id)).version,
        })
      ).status,
    ).toBe(200);
    expect(
      (await kyc.decide(latest(first.user.id).id, { status: "rejected", reason: "Foto ilegível." })).body.outcome,
    ).toBe("superseded");
    expect((await identityOf(first.user.id)).status).toBe("verified");

    const second = await pending();
    const version = (await identityOf(second.user.id)).version;
    expect((await kyc.decide(latest(second.user.id).id, APPROVED)).body.outcome).toBe("processed");
    const lost = await decide(op.token, second.user.id, { decision: "reject", version, reason: "Foto ilegível." });
    expect(lost.status).toBe(409);
    expect(lost.body.message).toBe("Esta identidade mudou ou já foi decidida por outro operador. Recarregue a fila.");
    expect((await identityOf(second.user.id)).status).toBe("verified");

    // At the same moment.
    for (let round = 0; round < 4; round++) {
      const { user } = await pending();
      const seen = (await identityOf(user.id)).version;
      const [operator, provider] = await Promise.all([
        decide(op.token, user.id, { decision: "reject", version: seen, reason: "Documento vencido." }),
        kyc.decide(latest(user.id).id, APPROVED),
      ]);
      expect(provider.status).toBe(200);
      const status = (await identityOf(user.id)).status;
      if (operator.status === 200) {
        expect([status, provider.body.outcome]).toEqual(["rejected", "superseded"]);
      } else {
        expect([operator.status, status, provider.body.outcome]).toEqual([409, "verified", "processed"]);
      }
      const audits = await auditsOf(user.id);
      expect(audits).toHaveLength(1);
      expect(audits[0]!.actor_name === KYC_ACTOR).toBe(status === "verified");
      expect(await mailsTo(user.email)).toHaveLength(1);
    }
    for (const { user } of [first, second]) expect(await auditsOf(user.id)).toHaveLength(1);
  });
});

describe("the provider is down", () => {
  it("when the photos are sent: they stay pending, and the hourly job sends them once it answers; nothing lost", async () => {
    // Unreachable, then answering 503.
    config.IDENTITY_PROVIDER_URL = "http://127.0.0.1:9";
    const { user } = await pending();
    config.IDENTITY_PROVIDER_URL = kyc.url;
    kyc.setDown(true);
    const row = await identityOf(user.id);
    expect(row).toMatchObject({ status: "pending" });
    expect(row.front_file).not.toBeNull();
    expect(kyc.latestFor(user.id)).toBeUndefined();
    expect(await db.selectFrom("identity_verifications").selectAll().where("user_id", "=", user.id).execute()).toEqual(
      [],
    );
    const tried = kyc.requests.length;
    expect((await pruneExpired()).verificationsResent).toBe(0);
    expect(kyc.requests.length).toBeGreaterThan(tried); // it was asked, and answered 503

    kyc.setDown(false);
    expect((await pruneExpired()).verificationsResent).toBe(1);
    expect((await pruneExpired()).verificationsResent).toBe(0);
    const v = latest(user.id);
    expect(v.reference).toBe(`${user.id}:${row.version}`);
    for (const f of ["front", "back", "selfie"]) {
      expect(Buffer.from(v.input.files[f].base64, "base64").equals(Buffer.from(PNG_1X1))).toBe(true);
    }
    expect((await kyc.decide(v.id, APPROVED)).body.outcome).toBe("processed");
    expect((await identityOf(user.id)).status).toBe("verified");
    expect(await auditsOf(user.id)).toHaveLength(1);
  });
});
