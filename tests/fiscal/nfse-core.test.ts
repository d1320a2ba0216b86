import { DOMParser } from "@xmldom/xmldom";
import { beforeAll, describe, expect, it } from "vitest";
import { CertificateError, loadA1Certificate, type A1Certificate } from "~/services/fiscal/certificate.server";
import { buildDps, centsToDecimal, dpsId, DpsInputError, type DpsInput } from "~/services/fiscal/dps.server";
import { validateDpsXml } from "~/services/fiscal/schema.server";
import { gunzipBase64, issueRequestBody, parseIssueResponse } from "~/services/fiscal/sefin.server";
import { signDps, verifyDps } from "~/services/fiscal/signature.server";
import { makeECnpjPfx, makeTestCa, type TestCa } from "../support/fiscal-certificates";

const ISSUER = "11222333000181";
const OTHER = "45723174000110";
const DAY = 86_400_000;

function input(overrides: Partial<DpsInput> = {}): DpsInput {
  return {
    environment: "producao_restrita",
    issuer: { cnpj: ISSUER, municipalRegistration: "123456", municipality: "3550308", simplesNacional: "nao_optante" },
    series: 1,
    number: 42,
    issuedAt: new Date("2026-11-28T12:30:00Z"),
    taker: { document: "52998224725", name: "Maria da Silva" },
    service: { nationalCode: "100501", nbsCode: "118069000", description: "Taxa de intermediação do marco 3" },
    amountCents: 1_500,
    issRateBasisPoints: 200,
    ...overrides,
  };
}

function textOf(xml: string, tag: string) {
  return new DOMParser().parseFromString(xml, "text/xml").getElementsByTagName(tag)[0]?.textContent;
}

let ca: TestCa;
let certificate: A1Certificate;

beforeAll(() => {
  ca = makeTestCa();
  const { pfx, password } = makeECnpjPfx({ cnpj: ISSUER, name: "FREELA INTERMEDIAÇÃO LTDA", ca });
  certificate = loadA1Certificate(pfx, password);
});

describe("A1 certificate", () => {
  it("reads the key, the certificate, the holder's CNPJ and name, and the validity", () => {
    expect(certificate.cnpj).toBe(ISSUER);
    expect(certificate.holderName).toBe("FREELA INTERMEDIAÇÃO LTDA");
    expect(certificate.privateKeyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(certificate.certificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(certificate.certificatePem.replace(/-----[^-]+-----|\s/g, "")).toBe(certificate.certificateBase64);
    expect(certificate.notAfter.getTime()).toBeGreaterThan(Date.now() + 300 * DAY);
    expect(certificate.notBefore.getTime()).toBeLessThan(Date.now());
  });

  it("finds the CNPJ in ICP-Brasil's otherName alone, or in the NAME:CNPJ common name alone", () => {
    const sanOnly = makeECnpjPfx({ cnpj: OTHER, ca, cnpjIn: "san" });
    const cnOnly = makeECnpjPfx({ cnpj: OTHER, ca, cnpjIn: "cn" });
    expect(loadA1Certificate(sanOnly.pfx, sanOnly.password).cnpj).toBe(OTHER);
    expect(loadA1Certificate(cnOnly.pfx, cnOnly.password).cnpj).toBe(OTHER);
  });

  function refusal(run: () => unknown) {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(CertificateError);
      return { code: (error as CertificateError).code, message: (error as Error).message };
    }
    throw new Error("accepted");
  }

  it("refuses a file that is not a PFX", () => {
    expect(refusal(() => loadA1Certificate(Buffer.from("não sou um certificado"), "x"))).toEqual({
      code: "not_pfx",
      message: "O arquivo enviado não é um certificado A1 (PFX ou P12).",
    });
    expect(refusal(() => loadA1Certificate(Buffer.from(certificate.certificatePem), "x")).code).toBe("not_pfx");
    expect(refusal(() => loadA1Certificate(Buffer.alloc(0), "x")).code).toBe("not_pfx");
  });

  it("refuses a wrong password", () => {
    const { pfx } = makeECnpjPfx({ cnpj: ISSUER, ca, password: "certa" });
    expect(refusal(() => loadA1Certificate(pfx, "errada"))).toEqual({
      code: "wrong_password",
      message: "A senha do certificado está errada.",
    });
  });

  it("refuses an expired certificate, and one not yet valid", () => {
    const expired = makeECnpjPfx({
      cnpj: ISSUER,
      ca,
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    expect(refusal(() => loadA1Certificate(expired.pfx, expired.password))).toEqual({
      code: "expired",
      message: "O certificado está vencido.",
    });
    const future = makeECnpjPfx({ cnpj: ISSUER, ca, notBefore: new Date(Date.now() + DAY) });
    expect(refusal(() => loadA1Certificate(future.pfx, future.password)).code).toBe("not_yet_valid");
  });

  it("refuses a certificate that carries no CNPJ (not an e-CNPJ)", () => {
    const { pfx, password } = makeECnpjPfx({ cnpj: ISSUER, ca, cnpjIn: "none" });
    expect(refusal(() => loadA1Certificate(pfx, password)).code).toBe("no_cnpj");
  });
});

describe("DPS", () => {
  it("has the layout's 45-character Id: DPS + município + inscription type + inscription + série + número", () => {
    expect(dpsId("3550308", ISSUER, 1, 42)).toBe("DPS" + "3550308" + "2" + ISSUER + "00001" + "000000000000042");
    expect(dpsId("1302603", "52998224725", 49_999, 999_999_999_999_999)).toBe(
      "DPS" + "1302603" + "1" + "00052998224725" + "49999" + "999999999999999",
    );
    const { id, xml } = buildDps(input());
    expect(id).toMatch(/^DPS\d{42}$/);
    expect(xml).toContain(`<infDPS Id="${id}">`);
  });

  it("renders integer centavos as the layout's decimal", () => {
    expect(centsToDecimal(1)).toBe("0.01");
    expect(centsToDecimal(100)).toBe("1.00");
    expect(centsToDecimal(123_456_789)).toBe("1234567.89");
    expect(textOf(buildDps(input({ amountCents: 1 })).xml, "vServ")).toBe("0.01");
    expect(textOf(buildDps(input({ amountCents: 123_456_789 })).xml, "vServ")).toBe("1234567.89");
    expect(textOf(buildDps(input({ issRateBasisPoints: 500 })).xml, "pAliq")).toBe("5.00");
  });

  it("writes dhEmi in the município's offset and dCompet as its local date", () => {
    const at = new Date("2026-11-28T02:30:00Z");
    const saoPaulo = buildDps(input({ issuedAt: at })).xml;
    expect(textOf(saoPaulo, "dhEmi")).toBe("2026-11-27T23:30:00-03:00");
    expect(textOf(saoPaulo, "dCompet")).toBe("2026-11-27");
    expect(textOf(buildDps(input({ issuedAt: at, timeZone: "America/Manaus" })).xml, "dhEmi")).toBe(
      "2026-11-27T22:30:00-04:00",
    );
    expect(textOf(buildDps(input({ environment: "producao" })).xml, "tpAmb")).toBe("1");
  });

  it("refuses bad input with a message in Portuguese", () => {
    const bad: [Partial<DpsInput>, string][] = [
      [{ issuer: { ...input().issuer, cnpj: "11222333000180" } }, "CNPJ do emitente inválido."],
      [{ taker: { document: "12345678900", name: "X" } }, "CPF ou CNPJ do tomador inválido."],
      [{ amountCents: 0 }, "O valor do serviço deve ser maior que zero."],
      [{ amountCents: 10.5 }, "O valor do serviço deve ser maior que zero."],
      [{ series: 0 }, "Série da DPS inválida (1 a 49999)."],
      [{ service: { ...input().service, description: "   " } }, "Descrição do serviço: de 1 a 2000 caracteres."],
      [
        { service: { ...input().service, nationalCode: "1005" } },
        "Código de tributação nacional (cTribNac) inválido: 6 dígitos.",
      ],
    ];
    for (const [overrides, message] of bad) {
      expect(() => buildDps(input(overrides))).toThrow(DpsInputError);
      expect(() => buildDps(input(overrides))).toThrow(message);
    }
  });
});

describe("signed DPS", () => {
  it("is built, signed, valid against the official XSD, and verified", () => {
    const { id, xml } = buildDps(input());
    const signed = signDps(xml, certificate);
    expect(signed).toContain('<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(signed).toContain(`<Reference URI="#${id}">`);
    expect(signed).toContain(`<X509Certificate>${certificate.certificateBase64}</X509Certificate>`);
    expect(signed).toMatch(
      /<\/infDPS><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*<\/Signature><\/DPS>$/,
    );
    expect(validateDpsXml(signed)).toEqual({ valid: true, errors: [] });
    expect(verifyDps(signed)).toEqual({ ok: true, cnpj: ISSUER, dpsId: id });
  });

  it("an XML the XSD refuses comes back with libxml2's list of errors", () => {
    const { xml } = buildDps(input());
    const broken = xml.replace("<tpEmit>1</tpEmit>", "<tpEmit>7</tpEmit>").replace(/<cTribNac>\d+<\/cTribNac>/, "");
    const result = validateDpsXml(broken);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]).toMatch(/^linha 1: .*tpEmit.*'7' is not an element of the set/);
    expect(result.errors[1]).toMatch(/cServ.*(Missing child element\(s\)|not expected).*cTribNac/);
    const malformed = validateDpsXml(xml.replace("</toma>", ""));
    expect(malformed.valid).toBe(false);
    expect(malformed.errors[0]).toMatch(/^linha 1: .*mismatch/);
  });

  it("fails verification when the signed XML is changed", () => {
    const signed = signDps(buildDps(input({ amountCents: 1_500 })).xml, certificate);
    const tampered = signed.replace("<vServ>15.00</vServ>", "<vServ>1.50</vServ>");
    expect(tampered).not.toBe(signed);
    expect(validateDpsXml(tampered)).toEqual({ valid: true, errors: [] });
    expect(verifyDps(tampered)).toMatchObject({ ok: false, reason: "bad_signature" });
    const otherKey = signed.replace(
      /<SignatureValue>[A-Za-z0-9]/,
      (m) => m.slice(0, -1) + (m.endsWith("A") ? "B" : "A"),
    );
    expect(verifyDps(otherKey)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verifyDps(buildDps(input()).xml)).toMatchObject({ ok: false, reason: "unsigned" });
    const wholeDocument = signed.replace(/URI="#DPS\d{42}"/, 'URI=""');
    expect(verifyDps(wholeDocument)).toMatchObject({ ok: false, reason: "wrong_reference" });
  });

  it("fails verification when the certificate is another CNPJ's", () => {
    const { pfx, password } = makeECnpjPfx({ cnpj: OTHER, ca });
    const other = loadA1Certificate(pfx, password);
    const signed = signDps(buildDps(input()).xml, other);
    expect(verifyDps(signed)).toEqual({
      ok: false,
      reason: "cnpj_mismatch",
      message: "O certificado da assinatura é de outro CNPJ, não do emitente da DPS.",
    });
  });

  it("keeps hostile text as text: still well formed, valid against the XSD, and verified", () => {
    const description = `Marco <b>1</b> & "aspas" 'simples' ]]> <!-- --> 😀🇧🇷 \u0001fim`;
    const name = `O'Brien & <Filhos> "Ltda" 👩‍💻`;
    const { xml } = buildDps(input({ service: { ...input().service, description }, taker: { document: OTHER, name } }));
    expect(textOf(xml, "xDescServ")).toBe(description.replace("\u0001", ""));
    expect(textOf(xml, "xNome")).toBe(name);
    expect(validateDpsXml(xml)).toEqual({ valid: true, errors: [] }); // libxml2 reads it strictly
    const signed = signDps(xml, certificate);
    expect(textOf(signed, "xDescServ")).toBe(description.replace("\u0001", ""));
    expect(validateDpsXml(signed)).toEqual({ valid: true, errors: [] });
    expect(verifyDps(signed)).toMatchObject({ ok: true });
  });

  it("refuses a second infDPS slipped into the signed document", () => {
    const signed = signDps(buildDps(input()).xml, certificate);
    const wrapped = signed.replace("</DPS>", '<infDPS Id="x"><prest><CNPJ>' + OTHER + "</CNPJ></prest></infDPS></DPS>");
    expect(verifyDps(wrapped)).toMatchObject({ ok: false, reason: "malformed" });
  });
});

describe("Sefin request and answers", () => {
  it("sends the signed DPS gzipped and in base64 in dpsXmlGZipB64", () => {
    const signed = signDps(buildDps(input()).xml, certificate);
    const body = issueRequestBody(signed);
    expect(Object.keys(body)).toEqual(["dpsXmlGZipB64"]);
    expect(Buffer.from(body.dpsXmlGZipB64, "base64").subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip, not zlib
    expect(gunzipBase64(body.dpsXmlGZipB64)).toBe(signed);
  });

  const nfseXml = `<?xml version="1.0" encoding="UTF-8"?><NFSe xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infNFSe Id="NFS1"/></NFSe>`;
  const accessKey = "3550308".padEnd(50, "1");

  it("reads the documented success into the chave de acesso and the NFS-e's XML", () => {
    const body = {
      tipoAmbiente: 2,
      versaoAplicativo: "SefinNacional_1.4.0",
      dataHoraProcessamento: "2026-11-28T09:30:01.123-03:00",
      idDps: "DPS355030821122233300018100001000000000000042",
      chaveAcesso: accessKey,
      nfseXmlGZipB64: issueRequestBody(nfseXml).dpsXmlGZipB64,
      alertas: [{ codigo: "A0001", descricao: "Alerta de teste" }],
    };
    expect(parseIssueResponse(201, body)).toEqual({
      kind: "issued",
      accessKey,
      dpsId: body.idDps,
      nfseXml,
      environment: 2,
      processedAt: body.dataHoraProcessamento,
      alerts: [{ code: "A0001", description: "Alerta de teste", complement: null }],
    });
    expect(parseIssueResponse(201, { ...body, chaveAcesso: "123" }).kind).toBe("failed");
    expect(parseIssueResponse(201, { ...body, nfseXmlGZipB64: "bm90IGd6aXA=" }).kind).toBe("failed");
  });

  it("reads the documented errors (either case of keys, a list or one erro) into codes and descriptions", () => {
    const rejection = {
      tipoAmbiente: 2,
      versaoAplicativo: "SefinNacional_1.4.0",
      dataHoraProcessamento: "2026-11-28T09:30:01-03:00",
      idDPS: "DPS355030821122233300018100001000000000000042",
      erros: [
        { Codigo: "E0014", Descricao: "Conjunto de Série e Número já existe.", Complemento: "nDPS 42" },
        { codigo: "E0312", descricao: "Código de tributação nacional inexistente." },
      ],
    };
    expect(parseIssueResponse(400, rejection)).toEqual({
      kind: "rejected",
      status: 400,
      dpsId: rejection.idDPS,
      errors: [
        { code: "E0014", description: "Conjunto de Série e Número já existe.", complement: "nDPS 42" },
        { code: "E0312", description: "Código de tributação nacional inexistente.", complement: null },
      ],
    });
    expect(parseIssueResponse(403, { erro: { codigo: "E3317", descricao: "Certificado expirado" } })).toMatchObject({
      kind: "rejected",
      errors: [{ code: "E3317", description: "Certificado expirado" }],
    });
    expect(parseIssueResponse(500, rejection)).toMatchObject({
      kind: "failed",
      status: 500,
      errors: [{ code: "E0014" }, { code: "E0312" }],
    });
    expect(parseIssueResponse(502, "<html>Bad gateway</html>")).toEqual({
      kind: "failed",
      status: 502,
      errors: [{ code: "", description: "A resposta da Sefin Nacional não pôde ser lida.", complement: null }],
    });
  });
});
