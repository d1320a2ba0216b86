import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadA1Certificate, type A1Certificate } from "~/services/fiscal/certificate.server";
import { buildDps, DpsInputError, type DpsInput } from "~/services/fiscal/dps.server";
import { validateEventRequestXml } from "~/services/fiscal/schema.server";
import { loadConfig } from "~/config.server";
import {
  cancellationRequestXml,
  SEFIN_URLS,
  sefinBaseUrl,
  sefinClient,
  type SefinClient,
  type SefinCredentials,
} from "~/services/fiscal/sefin-client.server";
import { signDps, verifyEventRequest } from "~/services/fiscal/signature.server";
import { makeECnpjPfx, makeTestCa, type TestCa } from "../support/fiscal-certificates";
import { STANDIN_CODES, startSefinStandIn, type SefinStandIn } from "../support/sefin-standin";

const ISSUER = "11222333000181";
const OTHER = "45723174000110";
const PASSWORD = "Senha-Secreta-do-PFX-7391";
const ENV = "producao_restrita" as const;

let ca: TestCa;
let standIn: SefinStandIn;
let client: SefinClient;
let credentials: SefinCredentials;
let certificate: A1Certificate;
/** Every result the tests saw, to check no password in any of them. */
const seen: unknown[] = [];
let number = 100;

function dps(overrides: Partial<DpsInput> = {}) {
  const built = buildDps({
    environment: ENV,
    issuer: { cnpj: ISSUER, municipalRegistration: "123456", municipality: "3550308", simplesNacional: "nao_optante" },
    series: 1,
    number: number++,
    issuedAt: new Date(),
    taker: { document: "52998224725", name: "Maria da Silva" },
    service: { nationalCode: "100501", nbsCode: "118069000", description: "Taxa de intermediação" },
    amountCents: 1_500,
    ...overrides,
  });
  return { id: built.id, xml: signDps(built.xml, certificate) };
}

function noted<T>(result: T): T {
  seen.push(result);
  return result;
}

beforeAll(async () => {
  ca = makeTestCa();
  const pfx = makeECnpjPfx({ cnpj: ISSUER, ca, password: PASSWORD });
  credentials = { pfx: pfx.pfx, password: PASSWORD };
  certificate = loadA1Certificate(pfx.pfx, PASSWORD);
  standIn = await startSefinStandIn({ ca });
  client = sefinClient({ baseUrl: standIn.url, ca: standIn.ca, timeoutMs: 5_000 });
});

afterAll(async () => {
  await standIn?.close();
});

describe("base URL", () => {
  it("is the environment's official one, unless NFSE_SEFIN_URL (https only) or the option says otherwise", () => {
    expect(sefinBaseUrl("producao_restrita", undefined)).toBe(
      "https://sefin.producaorestrita.nfse.gov.br/SefinNacional",
    );
    expect(sefinBaseUrl("producao", undefined)).toBe(SEFIN_URLS.producao);
    expect(sefinBaseUrl("producao", "https://127.0.0.1:4321/SefinNacional/")).toBe(
      "https://127.0.0.1:4321/SefinNacional",
    );
    expect(loadConfig({ NODE_ENV: "test", NFSE_SEFIN_URL: "https://sefin.exemplo/SefinNacional" }).NFSE_SEFIN_URL).toBe(
      "https://sefin.exemplo/SefinNacional",
    );
    expect(() => loadConfig({ NODE_ENV: "test", NFSE_SEFIN_URL: "http://sefin.exemplo" })).toThrow(/NFSE_SEFIN_URL/);
  });
});

describe("issue (POST /nfse)", () => {
  it("issues the NFS-e over mutual TLS: chave de acesso of 50 digits and the NFS-e wrapping the DPS", async () => {
    const { id, xml } = dps();
    const result = noted(await client.issue(xml, credentials, ENV));
    expect(result.kind).toBe("issued");
    if (result.kind !== "issued") return;
    expect(result.dpsId).toBe(id);
    expect(result.accessKey).toMatch(/^3550308\d{43}$/);
    expect(result.accessKey.slice(9, 23)).toBe(ISSUER);
    expect(result.environment).toBe(2);
    expect(result.nfseXml).toContain(`<infDPS Id="${id}">`);
    expect(standIn.issuedFor(id)).toBe(1);
  });

  it("is refused in the TLS handshake without a client certificate, and with one of another CA", async () => {
    const status = await new Promise<string>((resolve) => {
      const req = request(`${standIn.url}/nfse`, { method: "POST", ca: standIn.ca }, (res) =>
        resolve(`answered ${res.statusCode}`),
      );
      req.on("error", () => resolve("refused"));
      req.end("{}");
    });
    expect(status).toBe("refused");

    const stranger = makeECnpjPfx({ cnpj: ISSUER, password: PASSWORD }); // its own CA
    const { id, xml } = dps();
    const result = noted(await client.issue(xml, { pfx: stranger.pfx, password: PASSWORD }, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 0 });
    if (result.kind === "failed") expect(result.errors[0]!.description).toMatch(/Sefin Nacional/);
    expect(standIn.issuedFor(id)).toBe(0);
  });

  it("trusts only the CA given for the server, not the ACs inside the issuer's PFX", async () => {
    const untrusting = sefinClient({ baseUrl: standIn.url, ca: makeTestCa("Outra AC").certificatePem });
    const { id, xml } = dps();
    const result = noted(await untrusting.issue(xml, credentials, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 0 });
    expect(standIn.issuedFor(id)).toBe(0);
  });

  it("a connection with another CNPJ's certificate gets the stand-in's rejection", async () => {
    const other = makeECnpjPfx({ cnpj: OTHER, ca, password: PASSWORD });
    const { id, xml } = dps();
    const result = noted(await client.issue(xml, { pfx: other.pfx, password: PASSWORD }, ENV));
    expect(result).toMatchObject({
      kind: "rejected",
      status: 403,
      dpsId: id,
      errors: [{ code: STANDIN_CODES.certificateCnpj }],
    });
    expect(standIn.issuedFor(id)).toBe(0);
  });

  it("a DPS id issued before is the duplicate error, and no second NFS-e", async () => {
    const { id, xml } = dps();
    expect(noted(await client.issue(xml, credentials, ENV)).kind).toBe("issued");
    const again = noted(await client.issue(xml, credentials, ENV));
    expect(again).toMatchObject({
      kind: "rejected",
      status: 400,
      dpsId: id,
      errors: [{ code: STANDIN_CODES.duplicate }],
    });
    expect(standIn.issuedFor(id)).toBe(1);
  });

  it("a rejection carries the Sefin's code and description", async () => {
    standIn.rejectNext({ code: "E0310", description: "Código de tributação nacional inexistente." });
    const result = noted(await client.issue(dps().xml, credentials, ENV));
    expect(result).toMatchObject({
      kind: "rejected",
      status: 400,
      errors: [{ code: "E0310", description: "Código de tributação nacional inexistente." }],
    });
  });

  it("a 5xx is failed (to be retried), with its status", async () => {
    standIn.failNext(1, 503);
    const { id, xml } = dps();
    const result = noted(await client.issue(xml, credentials, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 503 });
    expect(standIn.issuedFor(id)).toBe(0);
    standIn.failNext(1, 500);
    expect(noted(await client.issue(xml, credentials, ENV))).toMatchObject({ kind: "failed", status: 500 });
  });

  it("a timeout after the Sefin accepted is failed with status 0; findByDpsId then finds the NFS-e", async () => {
    const quick = sefinClient({ baseUrl: standIn.url, ca: standIn.ca, timeoutMs: 400 });
    const { id, xml } = dps();
    standIn.acceptThenHang(1);
    const started = Date.now();
    const result = noted(await quick.issue(xml, credentials, ENV));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ kind: "failed", status: 0 });
    if (result.kind === "failed") expect(result.errors[0]!.description).toMatch(/não respondeu/);
    expect(standIn.issuedFor(id)).toBe(1);

    const found = noted(await client.findByDpsId(id, credentials, ENV));
    expect(found.kind).toBe("found");
    if (found.kind !== "found") return;
    expect(found.accessKey).toMatch(/^\d{50}$/);
    expect(found.nfseXml).toContain(`<infDPS Id="${id}">`);
    expect(standIn.requests.slice(-2)).toEqual([`GET /dps/${id}`, `GET /nfse/${found.accessKey}`]);
  });

  it("findByDpsId of a DPS the Sefin knows but whose NFS-e cannot be read is failed, never absent", async () => {
    const issued = noted(await client.issue(dps().xml, credentials, ENV));
    if (issued.kind !== "issued") throw new Error(issued.kind);
    standIn.notas.delete(issued.accessKey); // GET /dps/{id} still answers the chave; GET /nfse/{chave} is 404
    const result = noted(await client.findByDpsId(issued.dpsId, credentials, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 404 });
  });

  it("findByDpsId of a DPS never issued is absent; a connection refused is failed with status 0", async () => {
    const { id } = dps();
    expect(noted(await client.findByDpsId(id, credentials, ENV))).toEqual({ kind: "absent" });
    const nowhere = sefinClient({ baseUrl: "https://127.0.0.1:9/SefinNacional", ca: standIn.ca, timeoutMs: 2_000 });
    const result = noted(await nowhere.findByDpsId(id, credentials, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 0, errors: [{ complement: "ECONNREFUSED" }] });
  });
});

describe("findByAccessKey (GET /nfse/{chave})", () => {
  it("reads an issued NFS-e; an unknown chave is absent; a 5xx is failed", async () => {
    const issued = noted(await client.issue(dps().xml, credentials, ENV));
    if (issued.kind !== "issued") throw new Error(issued.kind);
    const found = noted(await client.findByAccessKey(issued.accessKey, credentials, ENV));
    expect(found).toEqual({ kind: "found", accessKey: issued.accessKey, nfseXml: issued.nfseXml });
    expect(noted(await client.findByAccessKey("1".repeat(50), credentials, ENV))).toEqual({ kind: "absent" });
    standIn.failNext(1, 502);
    expect(noted(await client.findByAccessKey(issued.accessKey, credentials, ENV))).toMatchObject({
      kind: "failed",
      status: 502,
    });
  });
});

describe("cancel (POST /nfse/{chave}/eventos)", () => {
  it("builds a signed pedRegEvento e101101 valid against its XSD, Id PRE + chave + 101101", () => {
    const accessKey = "3".repeat(50);
    const xml = cancellationRequestXml(
      { accessKey, issuerCnpj: ISSUER, reasonCode: 2, reason: "Serviço não prestado ao cliente", certificate },
      ENV,
    );
    expect(validateEventRequestXml(xml)).toEqual({ valid: true, errors: [] });
    expect(verifyEventRequest(xml)).toEqual({ ok: true, cnpj: ISSUER, eventId: `PRE${accessKey}101101`, accessKey });
    expect(xml).toContain("<cMotivo>2</cMotivo>");
    expect(() =>
      cancellationRequestXml({ accessKey, issuerCnpj: ISSUER, reasonCode: 1, reason: "curto", certificate }, ENV),
    ).toThrow(DpsInputError);
  });

  it("cancels an issued NFS-e; a second cancellation is rejected with the Sefin's error", async () => {
    const issued = noted(await client.issue(dps().xml, credentials, ENV));
    if (issued.kind !== "issued") throw new Error(issued.kind);
    const input = {
      accessKey: issued.accessKey,
      issuerCnpj: ISSUER,
      reasonCode: 1 as const,
      reason: "Erro na emissão: taxa estornada",
      certificate,
    };
    const cancelled = noted(await client.cancel(input, credentials, ENV));
    expect(cancelled.kind).toBe("cancelled");
    if (cancelled.kind === "cancelled") expect(cancelled.eventXml).toContain(`<chNFSe>${issued.accessKey}</chNFSe>`);
    expect(standIn.notas.get(issued.accessKey)?.cancelled).toBe(true);

    const again = noted(await client.cancel(input, credentials, ENV));
    expect(again).toMatchObject({ kind: "rejected", status: 400, errors: [{ code: STANDIN_CODES.alreadyCancelled }] });
  });
});

describe("secrets", () => {
  it("a wrong password is failed with status 0, and the password is in no result of this file", async () => {
    const result = noted(await client.issue(dps().xml, { pfx: credentials.pfx, password: "outra-senha-errada" }, ENV));
    expect(result).toMatchObject({ kind: "failed", status: 0 });
    if (result.kind === "failed") expect(result.errors[0]!.description).toMatch(/certificado/);
    const everything = JSON.stringify(seen);
    expect(seen.length).toBeGreaterThan(15);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain("outra-senha-errada");
    expect(everything).not.toContain(credentials.pfx.toString("base64").slice(0, 40));
  });
});
