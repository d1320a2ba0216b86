import { DOMParser } from "@xmldom/xmldom";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import { approveContract } from "~/services/contracts/contracts.server";
import { cancelNota, drainNotas, enqueueNotas } from "~/services/fiscal/notas.server";
import { PLATFORM_ISSUER } from "~/services/fiscal/issuers.server";
import { validateDpsXml } from "~/services/fiscal/schema.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { MAX_ATTEMPTS } from "~/services/platform/outbox.server";
import { createVerifiedIdentity } from "../../db/factories";
import { fakeSefin } from "../support/fake-sefin";
import { insertIssuer } from "../support/fiscal-issuers";
import { outcome } from "../support/market";
import { statementsOf } from "../support/statements";
import { deliver, escrow, fund, hired, operator } from "../payments/support";

const HOUR = 3_600_000;

let platform: Awaited<ReturnType<typeof insertIssuer>>;

beforeAll(async () => {
  escrow(1_000);
  platform = await insertIssuer(PLATFORM_ISSUER, { name: "FREELA INTERMEDIAÇÃO LTDA" });
});

beforeEach(async () => {
  escrow(1_000);
  // Each test drains its own notas only: those left waiting by the ones before are dropped.
  await db.deleteFrom("nfse_documents").where("status", "!=", "issued").execute();
});

/** A milestone released to a freelancer with a verified identity (their CPF for the fee's nota). */
async function released(options: { identity?: boolean; ownIssuer?: boolean } = {}) {
  const { owner, applicant, id } = await hired();
  if (options.identity !== false) await createVerifiedIdentity(db, applicant.id, { legal_name: "Ana Freelancer" });
  const own = options.ownIssuer ? await insertIssuer(applicant.id) : null;
  await fund(owner, id);
  await deliver(applicant, id);
  await approveContract(owner, id);
  return { owner, applicant, id, own };
}

const notasOf = (contractId: string) =>
  db.selectFrom("nfse_documents").selectAll().where("contract_id", "=", contractId).orderBy("kind").execute();

const priceOf = async (id: string) =>
  (await db.selectFrom("milestones").select("amount_cents").where("contract_id", "=", id).executeTakeFirstOrThrow())
    .amount_cents;

/** Drains (`parallel` drains at once) until nothing waits, the clock moved past every backoff. */
async function drainAll(client: ReturnType<typeof fakeSefin>["client"], at = new Date(), parallel = 1) {
  for (let i = 0; i < 20; i++) {
    const now = new Date(at.getTime() + i * 7 * HOUR);
    await Promise.all(Array.from({ length: parallel }, () => drainNotas({ at: now, client, limit: 2 })));
    const waiting = await db
      .selectFrom("nfse_documents")
      .select("id")
      .where("status", "in", ["pending", "issuing"])
      .executeTakeFirst();
    if (!waiting) break;
  }
}

function certificateIn(xml: string) {
  return new DOMParser().parseFromString(xml, "text/xml").getElementsByTagName("X509Certificate")[0]?.textContent;
}

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, "");

describe("notas enqueued by a settlement", () => {
  it("a release enqueues the fee's nota to the freelancer, once, in the settlement", async () => {
    const { applicant, owner, id } = await released();
    const price = await priceOf(id);
    const notas = await notasOf(id);
    expect(notas).toHaveLength(1);
    expect(notas[0]).toMatchObject({
      kind: "fee",
      issuer_id: platform.id,
      provider_user_id: null,
      taker_user_id: applicant.id,
      amount_cents: feeOf(price, 1_000),
      status: "pending",
      number: null,
      attempts: 0,
    });
    expect(notas[0]!.taker_user_id).not.toBe(owner.id);
    expect(notas[0]!.competence).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("with the freelancer's own issuer on, also their nota for the amount released, to the merchant", async () => {
    const { applicant, owner, id, own } = await released({ ownIssuer: true });
    const price = await priceOf(id);
    const [fee, service] = await notasOf(id);
    expect(fee).toMatchObject({ kind: "fee", amount_cents: feeOf(price, 1_000), taker_user_id: applicant.id });
    expect(service).toMatchObject({
      kind: "service",
      issuer_id: own!.id,
      provider_user_id: applicant.id,
      taker_user_id: owner.id,
      amount_cents: price,
    });
  });

  it("a freelancer's issuer turned off enqueues nothing of theirs", async () => {
    const { owner, applicant, id } = await hired();
    await insertIssuer(applicant.id, { enabled: 0 });
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect((await notasOf(id)).map((n) => n.kind)).toEqual(["fee"]);
  });

  it("a dispute split enqueues on the freelancer's part only", async () => {
    const { owner, applicant, id } = await hired();
    await insertIssuer(applicant.id);
    await fund(owner, id);
    await deliver(applicant, id);
    await settleDispute(operator, id, "split", { freelancer_cents: 120_000 });
    const [fee, service] = await notasOf(id);
    expect(fee).toMatchObject({ kind: "fee", amount_cents: 12_000 });
    expect(service).toMatchObject({ kind: "service", amount_cents: 120_000 });
  });

  it("a dispute decided all for the merchant enqueues none", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await settleDispute(operator, id, "split", { freelancer_cents: 0 });
    expect(await notasOf(id)).toEqual([]);
  });

  it("costs the settlement one statement, both notas at once, and a second time changes nothing", async () => {
    const { applicant, owner, id } = await released({ ownIssuer: true });
    const milestone = await db
      .selectFrom("milestones")
      .selectAll()
      .where("contract_id", "=", id)
      .executeTakeFirstOrThrow();
    const contract = { id, merchant_id: owner.id, freelancer_id: applicant.id };
    const before = await notasOf(id);
    expect(
      await statementsOf(() =>
        enqueueNotas(db, contract, milestone, { releasedCents: 1_000, feeCents: 100 }, new Date().toISOString()),
      ),
    ).toBe(1);
    expect(await notasOf(id)).toEqual(before);
  });

  it("a contract without payments gets none", async () => {
    config.PAYMENTS = "off";
    const { owner, applicant, id } = await hired();
    await insertIssuer(applicant.id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect((await db.selectFrom("milestones").select("status").where("contract_id", "=", id).execute())[0]).toEqual({
      status: "released",
    });
    expect(await notasOf(id)).toEqual([]);
  });
});

describe("the drain", () => {
  it("issues the fee's nota exactly once with two drains at once, and stores what the Sefin returned", async () => {
    const { id, applicant } = await released();
    const sefin = fakeSefin();
    const [a, b] = await Promise.all([drainNotas({ client: sefin.client }), drainNotas({ client: sefin.client })]);
    expect(a.issued + b.issued).toBe(1);
    expect(sefin.sent).toHaveLength(1);
    const [nota] = await notasOf(id);
    const returned = sefin.notas.get(nota!.dps_id!)!;
    expect(nota).toMatchObject({
      status: "issued",
      access_key: returned.accessKey,
      xml: returned.nfseXml,
      nfse_number: "1",
      attempts: 1,
      claim: null,
      error_code: null,
    });
    expect(nota!.issued_at).not.toBeNull();
    // The DPS sent: the platform's certificate, the freelancer's CPF as tomador, valid against the XSD.
    const sent = sefin.sent[0]!;
    expect(sent.dpsId).toBe(nota!.dps_id);
    expect(validateDpsXml(sent.xml)).toEqual({ valid: true, errors: [] });
    expect(certificateIn(sent.xml)).toBe(pemBody(platform.certificatePem));
    const identity = await db
      .selectFrom("identities")
      .select("document")
      .where("user_id", "=", applicant.id)
      .executeTakeFirstOrThrow();
    expect(sent.xml).toContain(`<CPF>${identity.document}</CPF>`);
    expect(nota!.taker_document).toBe(identity.document);
    // Nothing more to do, at any later time.
    await drainAll(sefin.client);
    expect(sefin.sent).toHaveLength(1);
  });

  it("retries a 5xx with backoff, then issues", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then("fail");
    const at = new Date();
    expect(await drainNotas({ at, client: sefin.client })).toMatchObject({ retried: 1, issued: 0 });
    const [waiting] = await notasOf(id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, error_message: "Serviço indisponível." });
    expect(Date.parse(waiting!.next_attempt_at)).toBe(at.getTime() + 60_000);
    // Not before its time.
    expect(await drainNotas({ at: new Date(at.getTime() + 30_000), client: sefin.client })).toMatchObject({
      issued: 0,
      retried: 0,
    });
    expect(await drainNotas({ at: new Date(at.getTime() + 61_000), client: sefin.client })).toMatchObject({
      issued: 1,
    });
    const [nota] = await notasOf(id);
    expect(nota).toMatchObject({ status: "issued", attempts: 2, number: waiting!.number, error_code: null });
    expect(new Set(sefin.sent.map((s) => s.dpsId))).toEqual(new Set([nota!.dps_id]));
  });

  it("a timeout after the Sefin accepted is recovered by the DPS id, never issued twice", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then("accept-then-timeout");
    expect(await drainNotas({ client: sefin.client })).toMatchObject({ retried: 1 });
    expect(sefin.notas.size).toBe(1);
    await drainAll(sefin.client);
    const [nota] = await notasOf(id);
    expect(nota).toMatchObject({ status: "issued", access_key: sefin.notas.get(nota!.dps_id!)!.accessKey });
    expect(sefin.sent).toHaveLength(1);
    expect(sefin.lookups).toEqual([nota!.dps_id]);
  });

  it("a lookup that fails is retried too, and still sends nothing twice", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then("accept-then-timeout");
    sefin.failLookups(2);
    await drainAll(sefin.client);
    expect((await notasOf(id))[0]).toMatchObject({ status: "issued", attempts: 4 });
    expect(sefin.sent).toHaveLength(1);
  });

  it("gives up after the last attempt with the error", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then(...Array.from({ length: MAX_ATTEMPTS }, () => "fail" as const));
    await drainAll(sefin.client);
    expect((await notasOf(id))[0]).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      error_message: "Serviço indisponível.",
    });
  });

  it("a rejection stores the Sefin's code and message and is not retried", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then({ reject: "E0312", message: "Código de tributação nacional inexistente." });
    expect(await drainNotas({ client: sefin.client })).toMatchObject({ rejected: 1 });
    await drainAll(sefin.client);
    expect(sefin.sent).toHaveLength(1);
    expect((await notasOf(id))[0]).toMatchObject({
      status: "rejected",
      error_code: "E0312",
      error_message: "Código de tributação nacional inexistente.",
      access_key: null,
    });
  });

  it("a duplicate DPS answer is recovered as the NFS-e already issued", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    sefin.then("duplicate");
    expect(await drainNotas({ client: sefin.client })).toMatchObject({ issued: 1 });
    const [nota] = await notasOf(id);
    expect(nota).toMatchObject({ status: "issued", access_key: sefin.notas.get(nota!.dps_id!)!.accessKey });
  });

  it("without the freelancer's CPF or CNPJ: rejected with a message, no number taken", async () => {
    const { id } = await released({ identity: false });
    const sefin = fakeSefin();
    const before = await db
      .selectFrom("fiscal_issuers")
      .select("next_number")
      .where("id", "=", platform.id)
      .executeTakeFirstOrThrow();
    expect(await drainNotas({ client: sefin.client })).toMatchObject({ rejected: 1 });
    expect((await notasOf(id))[0]).toMatchObject({
      status: "rejected",
      error_code: "FREELA-TOMADOR",
      error_message:
        "O freelancer ainda não tem CPF ou CNPJ conhecido (identidade verificada ou chave Pix cadastrada).",
      number: null,
    });
    expect(sefin.sent).toHaveLength(0);
    const after = await db
      .selectFrom("fiscal_issuers")
      .select("next_number")
      .where("id", "=", platform.id)
      .executeTakeFirstOrThrow();
    expect(after.next_number).toBe(before.next_number);
  });

  it("the freelancer's own nota is signed with their certificate, never the platform's", async () => {
    const { id, own, owner } = await released({ ownIssuer: true });
    const sefin = fakeSefin();
    await drainAll(sefin.client);
    const [fee, service] = await notasOf(id);
    expect(fee!.status).toBe("issued");
    expect(service!.status).toBe("issued");
    const sentOwn = sefin.sent.find((s) => s.dpsId === service!.dps_id)!;
    expect(certificateIn(sentOwn.xml)).toBe(pemBody(own!.certificatePem));
    expect(certificateIn(sentOwn.xml)).not.toBe(pemBody(platform.certificatePem));
    expect(sentOwn.credentials.pfx.equals(own!.pfx)).toBe(true);
    expect(sentOwn.xml).toContain(`<prest><CNPJ>${own!.cnpj}</CNPJ>`);
    expect(validateDpsXml(sentOwn.xml).valid).toBe(true);
    // The merchant's verified document is the tomador.
    const merchant = await db
      .selectFrom("identities")
      .select("document")
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(service!.taker_document).toBe(merchant.document);
    const sentFee = sefin.sent.find((s) => s.dpsId === fee!.dps_id)!;
    expect(sentFee.credentials.pfx.equals(platform.pfx)).toBe(true);
    // Nothing of either certificate's secrets is kept on the notas.
    const kept = JSON.stringify(await notasOf(id));
    for (const secret of [own!.password, platform.password, own!.pfx.toString("base64").slice(0, 40)])
      expect(kept).not.toContain(secret);
  });

  it("a certificate that expired rejects the nota with its message", async () => {
    const { applicant, owner, id } = await hired();
    await createVerifiedIdentity(db, applicant.id);
    await insertIssuer(applicant.id, { notAfter: new Date(Date.now() + HOUR) });
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const sefin = fakeSefin();
    await drainNotas({ client: sefin.client, at: new Date(Date.now() + 2 * HOUR) });
    const service = (await notasOf(id)).find((n) => n.kind === "service");
    expect(service).toMatchObject({
      status: "rejected",
      error_code: "FREELA-CERTIFICADO",
      error_message: "O certificado está vencido.",
      number: null,
    });
  });

  it("numbers are unique and without gaps per issuer under parallel drains", async () => {
    const contracts = [];
    for (let i = 0; i < 5; i++) contracts.push((await released()).id);
    const sefin = fakeSefin();
    sefin.then("fail", "fail");
    const at = new Date(Date.now() + 3 * HOUR);
    await Promise.all([
      drainNotas({ at, client: sefin.client, limit: 2 }),
      drainNotas({ at, client: sefin.client, limit: 2 }),
      drainNotas({ at, client: sefin.client, limit: 2 }),
    ]);
    await drainAll(sefin.client, at, 2);
    const notas = await db
      .selectFrom("nfse_documents")
      .select(["number", "status", "dps_id"])
      .where("issuer_id", "=", platform.id)
      .where("contract_id", "in", contracts)
      .execute();
    expect(notas.every((n) => n.status === "issued")).toBe(true);
    const numbers = notas.map((n) => n.number!);
    expect(new Set(numbers).size).toBe(5);
    expect(new Set(notas.map((n) => n.dps_id)).size).toBe(5);
    const { next_number } = await db
      .selectFrom("fiscal_issuers")
      .select("next_number")
      .where("id", "=", platform.id)
      .executeTakeFirstOrThrow();
    expect(Math.max(...numbers)).toBe(next_number - 1);
    expect(Math.max(...numbers) - Math.min(...numbers)).toBe(4);
    expect(sefin.sent.length).toBe(7);
    expect(sefin.notas.size).toBe(5);
  });
});

describe("cancelling a nota", () => {
  it("cancels an issued nota through the Sefin, and answers 409 for one not issued", async () => {
    const { id } = await released();
    const sefin = fakeSefin();
    const [pending] = await notasOf(id);
    expect(await outcome(cancelNota(pending!.id, "Taxa devolvida ao freelancer.", sefin.client))).toBe(409);
    await drainAll(sefin.client);
    await cancelNota(pending!.id, "Taxa devolvida ao freelancer.", sefin.client);
    const [nota] = await notasOf(id);
    expect(nota!.status).toBe("cancelled");
    expect(nota!.cancelled_at).not.toBeNull();
    expect(await outcome(cancelNota(pending!.id, "De novo.", sefin.client))).toBe(409);
  });
});
