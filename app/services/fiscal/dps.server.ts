import { isValidCnpj, isValidCpf } from "@brazilian-utils/brazilian-utils";

/**
 * The DPS (Declaração de Prestação de Serviço) of the NFS-e Nacional, layout 1.01
 * (schemas/1.01/DPS_v1.01.xsd): the issuer (prestador) declares one service to one tomador, and the
 * Sefin Nacional answers with the NFS-e. Built as text, without whitespace between elements (what is
 * signed is what is sent), every text escaped.
 */
export const DPS_NAMESPACE = "http://www.sped.fazenda.gov.br/nfse";
export const DPS_LAYOUT_VERSION = "1.01";
const APP_VERSION = "Freela-1.0";

export type DpsInput = {
  /** tpAmb: 1 produção, 2 produção restrita (homologation). */
  environment: "producao" | "producao_restrita";
  issuer: {
    cnpj: string;
    /** Inscrição municipal, when the município has one. */
    municipalRegistration?: string | null;
    /** IBGE code of the issuer's município (7 digits): where the DPS is issued and the service provided. */
    municipality: string;
    /** opSimpNac: 1 não optante, 2 MEI, 3 ME/EPP. */
    simplesNacional: "nao_optante" | "mei" | "me_epp";
    /** regApTribSN, for ME/EPP only: 1, 2 or 3 (see the layout). */
    simplesNacionalRegime?: 1 | 2 | 3 | null;
    /** regEspTrib: 0 none … 6 (see the layout). */
    specialRegime?: 0 | 1 | 2 | 3 | 4 | 5 | 6;
  };
  /** Série (1 to 49 999 for the issuer's own application) and the DPS number in it (1 to 15 digits). */
  series: number;
  number: number;
  /** The moment of issue, written in the município's offset (dhEmi). */
  issuedAt: Date;
  /** IANA time zone of the issuer's município; Brasília by default. */
  timeZone?: string;
  /** dCompet, YYYY-MM-DD: the service's date; the local date by default. */
  competence?: string;
  taker: { document: string; name: string };
  service: {
    /** cTribNac: 6 digits (item, subitem of LC 116/2003 and national breakdown). */
    nationalCode: string;
    /** cNBS: 9 digits (Nomenclatura Brasileira de Serviços). */
    nbsCode: string;
    /** cTribMun: 3 digits, when the município defines one. */
    municipalCode?: string | null;
    description: string;
  };
  amountCents: number;
  /** pAliq in basis points (200 = 2,00 %), when the ISS rate is to be informed. */
  issRateBasisPoints?: number | null;
};

export class DpsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DpsInputError";
  }
}

export type BuiltDps = { id: string; xml: string };

/**
 * "DPS" + município (7) + tipo de inscrição (1 CPF, 2 CNPJ) + inscrição (14, a CPF with zeros on the
 * left) + série (5) + número (15): 45 characters (TSIdDPS).
 */
export function dpsId(municipality: string, issuerDocument: string, series: number, number: number) {
  const type = issuerDocument.length === 11 ? "1" : "2";
  return (
    "DPS" +
    municipality +
    type +
    issuerDocument.padStart(14, "0") +
    String(series).padStart(5, "0") +
    String(number).padStart(15, "0")
  );
}

/** Integer centavos as the layout's decimal (TSDec15V2): 1 → "0.01", 123456789 → "1234567.89". */
export function centsToDecimal(cents: number) {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new DpsInputError("Valor inválido: use centavos inteiros.");
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Text escaped for an element or an attribute; characters XML 1.0 cannot carry are dropped. */
export function escapeXml(text: string) {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** dhEmi: local date and time with the zone's offset, "2026-11-28T09:30:00-03:00". */
export function localDateTime(at: Date, timeZone = "America/Sao_Paulo") {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : String(parts.timeZoneName).replace("GMT", "");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

const SIMPLES = { nao_optante: "1", mei: "2", me_epp: "3" } as const;

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new DpsInputError(message);
}

function codePoints(text: string) {
  return [...text].length;
}

function validate(input: DpsInput) {
  const { issuer, taker, service } = input;
  check(/^\d{14}$/.test(issuer.cnpj) && isValidCnpj(issuer.cnpj), "CNPJ do emitente inválido.");
  check(/^\d{7}$/.test(issuer.municipality), "Código IBGE do município inválido (7 dígitos).");
  check(
    issuer.municipalRegistration == null || /^\S.{0,14}$/.test(issuer.municipalRegistration.trim()),
    "Inscrição municipal inválida (até 15 caracteres).",
  );
  check(
    Number.isInteger(input.series) && input.series >= 1 && input.series <= 49_999,
    "Série da DPS inválida (1 a 49999).",
  );
  check(Number.isSafeInteger(input.number) && input.number >= 1 && input.number < 1e15, "Número da DPS inválido.");
  check(!Number.isNaN(input.issuedAt.getTime()), "Data de emissão inválida.");
  check(input.competence == null || /^20\d\d-\d\d-\d\d$/.test(input.competence), "Competência inválida (AAAA-MM-DD).");
  check(
    (taker.document.length === 11 && /^\d{11}$/.test(taker.document) && isValidCpf(taker.document)) ||
      (/^\d{14}$/.test(taker.document) && isValidCnpj(taker.document)),
    "CPF ou CNPJ do tomador inválido.",
  );
  const name = taker.name.trim();
  check(codePoints(name) >= 1 && codePoints(name) <= 300, "Nome do tomador: de 1 a 300 caracteres.");
  check(/^\d{6}$/.test(service.nationalCode), "Código de tributação nacional (cTribNac) inválido: 6 dígitos.");
  check(/^\d{9}$/.test(service.nbsCode), "Código NBS inválido: 9 dígitos.");
  check(
    service.municipalCode == null || /^\d{3}$/.test(service.municipalCode),
    "Código de tributação municipal: 3 dígitos.",
  );
  const description = service.description.trim();
  check(
    codePoints(description) >= 1 && codePoints(description) <= 2000,
    "Descrição do serviço: de 1 a 2000 caracteres.",
  );
  check(
    Number.isSafeInteger(input.amountCents) && input.amountCents > 0,
    "O valor do serviço deve ser maior que zero.",
  );
  check(input.amountCents < 1e17, "Valor do serviço grande demais.");
  const rate = input.issRateBasisPoints;
  check(rate == null || (Number.isInteger(rate) && rate >= 0 && rate <= 999), "Alíquota do ISS inválida (0 a 9,99 %).");
}

function el(name: string, value: string) {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

/** The DPS as XML (not yet signed) and its Id. Throws DpsInputError (in Portuguese) on bad input. */
export function buildDps(input: DpsInput): BuiltDps {
  validate(input);
  const { issuer, taker, service } = input;
  const id = dpsId(issuer.municipality, issuer.cnpj, input.series, input.number);
  const dhEmi = localDateTime(input.issuedAt, input.timeZone);
  const registration = issuer.municipalRegistration?.trim();
  const rate = input.issRateBasisPoints;
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<DPS xmlns="${DPS_NAMESPACE}" versao="${DPS_LAYOUT_VERSION}">` +
    `<infDPS Id="${id}">` +
    el("tpAmb", input.environment === "producao" ? "1" : "2") +
    el("dhEmi", dhEmi) +
    el("verAplic", APP_VERSION) +
    el("serie", String(input.series)) +
    el("nDPS", String(input.number)) +
    el("dCompet", input.competence ?? dhEmi.slice(0, 10)) +
    el("tpEmit", "1") +
    el("cLocEmi", issuer.municipality) +
    `<prest>` +
    el("CNPJ", issuer.cnpj) +
    (registration ? el("IM", registration) : "") +
    `<regTrib>` +
    el("opSimpNac", SIMPLES[issuer.simplesNacional]) +
    (issuer.simplesNacional === "me_epp" && issuer.simplesNacionalRegime
      ? el("regApTribSN", String(issuer.simplesNacionalRegime))
      : "") +
    el("regEspTrib", String(issuer.specialRegime ?? 0)) +
    `</regTrib></prest>` +
    `<toma>` +
    el(taker.document.length === 11 ? "CPF" : "CNPJ", taker.document) +
    el("xNome", taker.name.trim()) +
    `</toma>` +
    `<serv><locPrest>${el("cLocPrestacao", issuer.municipality)}</locPrest><cServ>` +
    el("cTribNac", service.nationalCode) +
    (service.municipalCode ? el("cTribMun", service.municipalCode) : "") +
    el("xDescServ", service.description.trim()) +
    el("cNBS", service.nbsCode) +
    `</cServ></serv>` +
    `<valores><vServPrest>${el("vServ", centsToDecimal(input.amountCents))}</vServPrest>` +
    `<trib><tribMun>` +
    el("tribISSQN", "1") +
    el("tpRetISSQN", "1") +
    (rate != null ? el("pAliq", centsToDecimal(rate)) : "") +
    `</tribMun><totTrib>${el("indTotTrib", "0")}</totTrib></trib></valores>` +
    `</infDPS></DPS>`;
  return { id, xml };
}
