import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { approveContract } from "~/services/contracts/contracts.server";
import { PLATFORM_ISSUER } from "~/services/fiscal/issuers.server";
import { cancelNota, drainNotas } from "~/services/fiscal/notas.server";
import { validateDpsXml } from "~/services/fiscal/schema.server";
import { sefinClient, type SefinClient } from "~/services/fiscal/sefin-client.server";
import { createUser, createVerifiedIdentity } from "../../db/factories";
import { reissueNota } from "~/services/fiscal/nota-views.server";
import { makeTestCa, type TestCa } from "../support/fiscal-certificates";
import { insertIssuer } from "../support/fiscal-issuers";
import { startSefinStandIn, type SefinStandIn } from "../support/sefin-standin";
import { deliver, escrow, fund, hired } from "../payments/support";

// The notas issued through the real mutual-TLS client against the Sefin stand-in (tests/support).

let ca: TestCa;
let standIn: SefinStandIn;
let client: SefinClient;

beforeAll(async () => {
  escrow(1_000);
  ca = makeTestCa();
  await insertIssuer(PLATFORM_ISSUER, { ca, name: "FREELA INTERMEDIAÇÃO LTDA" });
  standIn = await startSefinStandIn({ ca });
  client = sefinClient({ baseUrl: standIn.url, ca: standIn.ca, timeoutMs: 1_500 });
});

afterAll(() => standIn?.close());

async function released(ownIssuer = false) {
  const { owner, applicant, id } = await hired();
  await createVerifiedIdentity(db, applicant.id);
  if (ownIssuer) await insertIssuer(applicant.id, { ca });
  await fund(owner, id);
  await deliver(applicant, id);
  await approveContract(owner, id);
  return id;
}

const notasOf = (contractId: string) =>
  db.selectFrom("nfse_documents").selectAll().where("contract_id", "=", contractId).orderBy("kind").execute();

/** The DPS inside the NFS-e the Sefin returned. */
const dpsOf = (nfseXml: string) => /<DPS [\s\S]*<\/DPS>/.exec(nfseXml)![0];

describe("notas through the Sefin stand-in", () => {
  it("issues the fee's and the freelancer's notas once each; each DPS validates against the XSD", async () => {
    const id = await released(true);
    const [a, b] = await Promise.all([drainNotas({ client }), drainNotas({ client })]);
    expect(a.issued + b.issued).toBe(2);
    for (const nota of await notasOf(id)) {
      expect(nota.status).toBe("issued");
      expect(standIn.issuedFor(nota.dps_id!)).toBe(1);
      const kept = standIn.notas.get(nota.access_key!)!;
      expect(nota.xml).toBe(kept.nfseXml);
      expect(nota.nfse_number).toMatch(/^\d+$/);
      expect(validateDpsXml(dpsOf(nota.xml!))).toEqual({ valid: true, errors: [] });
    }
  });

  it("a 503 is retried, and an answer lost after the Sefin accepted is recovered by the DPS id", async () => {
    const id = await released();
    const at = new Date();
    standIn.failNext(1, 503);
    expect(await drainNotas({ client, at })).toMatchObject({ retried: 1 });
    standIn.acceptThenHang(1);
    expect(await drainNotas({ client, at: new Date(at.getTime() + 61_000) })).toMatchObject({ retried: 1 });
    expect(await drainNotas({ client, at: new Date(at.getTime() + 200_000) })).toMatchObject({ issued: 1 });
    const [nota] = await notasOf(id);
    expect(nota).toMatchObject({ status: "issued", attempts: 3 });
    expect(standIn.issuedFor(nota!.dps_id!)).toBe(1);
    expect(nota!.xml).toBe(standIn.notas.get(nota!.access_key!)!.nfseXml);
  }, 20_000);

  it("a rejection shows the Sefin's code and message; the settings fixed, emitir de novo issues it", async () => {
    const id = await released();
    standIn.rejectNext({ code: "E0312", description: "Código de tributação nacional inexistente." });
    expect(await drainNotas({ client })).toMatchObject({ rejected: 1 });
    const [rejected] = await notasOf(id);
    expect(rejected).toMatchObject({
      status: "rejected",
      error_code: "E0312",
      error_message: expect.stringContaining("Código de tributação nacional inexistente."),
    });
    // Not retried until someone asks.
    expect(await drainNotas({ client, at: new Date(Date.now() + 86_400_000) })).toMatchObject({ rejected: 0 });

    await db
      .updateTable("fiscal_issuers")
      .set({ national_code: "100201" })
      .where("owner", "=", PLATFORM_ISSUER)
      .execute();
    const operator = await createUser(db, { account_type: "operator" });
    await reissueNota(operator, rejected!.id);
    expect(await drainNotas({ client })).toMatchObject({ issued: 1 });
    const [issued] = await notasOf(id);
    expect(issued).toMatchObject({ status: "issued", dps_id: rejected!.dps_id, error_code: null });
    expect(standIn.issuedFor(issued!.dps_id!)).toBe(1);
    expect(dpsOf(issued!.xml!)).toContain("<cTribNac>100201</cTribNac>");
  });

  it("cancels an issued nota through the cancellation event", async () => {
    const id = await released();
    await drainNotas({ client });
    const [nota] = await notasOf(id);
    await cancelNota(nota!.id, "Taxa devolvida ao freelancer por reembolso.", client);
    expect((await notasOf(id))[0]).toMatchObject({ status: "cancelled" });
    expect(standIn.notas.get(nota!.access_key!)!.cancelled).toBe(true);
  });
});
