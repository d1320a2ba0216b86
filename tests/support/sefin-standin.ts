import { generateKeyPairSync, randomInt } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { DOMParser } from "@xmldom/xmldom";
import forge from "node-forge";
import { certificateFromBase64, cnpjOfCertificate } from "~/services/fiscal/certificate.server";
import { DPS_NAMESPACE } from "~/services/fiscal/dps.server";
import { validateDpsXml, validateEventRequestXml } from "~/services/fiscal/schema.server";
import { gunzipBase64, gzipBase64 } from "~/services/fiscal/sefin.server";
import { verifyDps, verifyEventRequest } from "~/services/fiscal/signature.server";
import type { TestCa } from "./fiscal-certificates";

/**
 * A local stand-in of the Sefin Nacional for the tests (never the real service): HTTPS on 127.0.0.1
 * with a server certificate from the test CA, requiring a client certificate from that same CA (any
 * other, or none, is refused in the TLS handshake). It answers the shapes of the API's Swagger:
 *
 * - POST /nfse {dpsXmlGZipB64}: the DPS gunzipped, checked against the DPS XSD, its signature verified,
 *   and the TLS certificate's CNPJ compared with the DPS's prestador; a DPS id seen before is the
 *   duplicate error. 201 {tipoAmbiente, versaoAplicativo, dataHoraProcessamento, idDps, chaveAcesso,
 *   nfseXmlGZipB64, alertas}; errors 400/403 {…, idDPS, erros: [{codigo, descricao, complemento}]}.
 * - GET /dps/{id}: 200 {…, idDps, chaveAcesso} or 404; GET /nfse/{chave}: 200 {…, chaveAcesso,
 *   nfseXmlGZipB64} or 404.
 * - POST /nfse/{chave}/eventos {pedidoRegistroEventoXmlGZipB64}: the cancellation (e101101), checked
 *   against the pedRegEvento XSD and its signature; 201 {…, eventoXmlGZipB64}; errors with one
 *   `erro` object, as the events endpoint answers.
 *
 * The error codes E1226 (estrutura descompactada mal formada) and E1235 (falha no esquema XML) are the
 * service's; the others are the stand-in's own, in the same shape.
 */
export const STANDIN_CODES = {
  malformed: "E1226",
  schema: "E1235",
  signature: "E0714",
  certificateCnpj: "E0002",
  duplicate: "E0014",
  notFound: "E2001",
  alreadyCancelled: "E0840",
} as const;

export type StandInNota = {
  accessKey: string;
  dpsId: string;
  issuerCnpj: string;
  nfseXml: string;
  cancelled: boolean;
};

export type SefinStandIn = {
  /** The base URL, as NFSE_SEFIN_URL: https://127.0.0.1:<port>/SefinNacional */
  url: string;
  /** The CA the client must trust for the server's certificate (PEM): the test CA's. */
  ca: string;
  notas: Map<string, StandInNota>;
  /** How many NFS-e were issued for a DPS id (never more than 1 if the client behaves). */
  issuedFor(dpsId: string): number;
  /** Every request received, "METHOD /path". */
  requests: string[];
  /** The next `count` requests answer `status` (500, 503…) without doing anything. */
  failNext(count: number, status?: number): void;
  /** The next `count` POST /nfse are accepted (the NFS-e is stored) but never answered. */
  acceptThenHang(count?: number): void;
  /** The next POST /nfse is rejected with this error (after the TLS and body checks). */
  rejectNext(error: { code: string; description: string; status?: number }): void;
  close(): Promise<void>;
};

const DAY = 86_400_000;
const APP = "SefinNacional_1.6.0 (stand-in)";

function serverCertificate(ca: TestCa) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = "02" + randomInt(1, 2 ** 47).toString(16);
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 30 * DAY);
  cert.setSubject([{ name: "commonName", value: "localhost" }]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
      ],
    },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: forge.pki.certificateToPem(cert),
  };
}

/** Modulo 11 check digit, weights 2..9 from the right (as the layout's chave). */
function checkDigit(digits: string) {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? "0" : String(11 - rest);
}

/**
 * The chave de acesso (50 digits): município do emissor (7) + ambiente gerador (1, 2 Sefin) + tipo de
 * inscrição (1, 2 CNPJ) + inscrição (14) + número da NFS-e (13) + AAMM (4) + código numérico (9) + DV.
 */
export function standInAccessKey(municipality: string, cnpj: string, number: number, at: Date) {
  const yymm = at.toISOString().slice(2, 4) + at.toISOString().slice(5, 7);
  const body =
    municipality +
    "2" +
    "2" +
    cnpj.padStart(14, "0") +
    String(number).padStart(13, "0") +
    yymm +
    String(randomInt(0, 1e9)).padStart(9, "0");
  return body + checkDigit(body);
}

function textOf(xml: string, tag: string) {
  return new DOMParser().parseFromString(xml, "text/xml").getElementsByTagNameNS("*", tag)[0]?.textContent ?? "";
}

function clientCnpj(req: IncomingMessage) {
  const peer = (req.socket as TLSSocket).getPeerCertificate();
  if (!peer?.raw) return null;
  return cnpjOfCertificate(certificateFromBase64(peer.raw.toString("base64")));
}

export async function startSefinStandIn(options: { ca: TestCa }): Promise<SefinStandIn> {
  const { key, cert } = serverCertificate(options.ca);
  const notas = new Map<string, StandInNota>();
  const byDps = new Map<string, string>();
  const issued = new Map<string, number>();
  const requests: string[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 503 };
  let hangs = 0;
  let rejection: { code: string; description: string; status?: number } | null = null;
  let nextNumber = 1;

  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  const envelope = (tpAmb: string) => ({
    tipoAmbiente: Number(tpAmb) || 2,
    versaoAplicativo: APP,
    dataHoraProcessamento: new Date().toISOString(),
  });

  function issueError(res: ServerResponse, status: number, dpsId: string | null, code: string, descricao: string) {
    send(res, status, {
      ...envelope("2"),
      idDPS: dpsId,
      erros: [{ codigo: code, descricao, complemento: null }],
    });
  }

  function eventError(res: ServerResponse, status: number, code: string, descricao: string) {
    send(res, status, { ...envelope("2"), erro: { codigo: code, descricao, complemento: null } });
  }

  function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve(typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : null);
        } catch {
          resolve(null);
        }
      });
    });
  }

  function unpack(value: unknown) {
    try {
      return typeof value === "string" ? gunzipBase64(value) : null;
    } catch {
      return null;
    }
  }

  async function issue(req: IncomingMessage, res: ServerResponse) {
    const xml = unpack((await readJson(req))?.dpsXmlGZipB64);
    if (!xml) return issueError(res, 400, null, STANDIN_CODES.malformed, "Estrutura descompactada mal formada.");
    const schema = validateDpsXml(xml);
    if (!schema.valid)
      return issueError(res, 400, null, STANDIN_CODES.schema, `Falha no esquema XML: ${schema.errors[0]}`);
    const verified = verifyDps(xml);
    if (!verified.ok) return issueError(res, 400, null, STANDIN_CODES.signature, verified.message);
    const dpsId = verified.dpsId;
    if (clientCnpj(req) !== verified.cnpj)
      return issueError(
        res,
        403,
        dpsId,
        STANDIN_CODES.certificateCnpj,
        "O CNPJ do certificado digital da conexão difere do CNPJ do emitente da DPS.",
      );
    if (rejection) {
      const { code, description, status } = rejection;
      rejection = null;
      return issueError(res, status ?? 400, dpsId, code, description);
    }
    if (byDps.has(dpsId))
      return issueError(
        res,
        400,
        dpsId,
        STANDIN_CODES.duplicate,
        "Já existe NFS-e gerada a partir de uma DPS com o mesmo Id (município, inscrição, série e número).",
      );
    const tpAmb = textOf(xml, "tpAmb");
    const number = nextNumber++;
    const accessKey = standInAccessKey(textOf(xml, "cLocEmi"), verified.cnpj, number, new Date());
    const dps = xml.replace(/^<\?xml[^>]*\?>/, "");
    const nfseXml =
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<NFSe xmlns="${DPS_NAMESPACE}" versao="1.01"><infNFSe Id="NFS${accessKey}">` +
      `<xLocEmi>Município ${textOf(xml, "cLocEmi")}</xLocEmi><nNFSe>${number}</nNFSe>` +
      `<cLocIncid>${textOf(xml, "cLocEmi")}</cLocIncid><verAplic>${APP}</verAplic><ambGer>2</ambGer>` +
      `<tpEmis>1</tpEmis><cStat>100</cStat><dhProc>${new Date().toISOString()}</dhProc>` +
      `<emit><CNPJ>${verified.cnpj}</CNPJ></emit><valores><vLiq>${textOf(xml, "vServ")}</vLiq></valores>` +
      dps +
      `</infNFSe></NFSe>`;
    notas.set(accessKey, { accessKey, dpsId, issuerCnpj: verified.cnpj, nfseXml, cancelled: false });
    byDps.set(dpsId, accessKey);
    issued.set(dpsId, (issued.get(dpsId) ?? 0) + 1);
    if (hangs > 0) {
      hangs--;
      return; // accepted, never answered: the client times out
    }
    send(res, 201, {
      ...envelope(tpAmb),
      idDps: dpsId,
      chaveAcesso: accessKey,
      nfseXmlGZipB64: gzipBase64(nfseXml),
      alertas: [],
    });
  }

  async function cancel(req: IncomingMessage, res: ServerResponse, accessKey: string) {
    const xml = unpack((await readJson(req))?.pedidoRegistroEventoXmlGZipB64);
    if (!xml) return eventError(res, 400, STANDIN_CODES.malformed, "Estrutura descompactada mal formada.");
    const schema = validateEventRequestXml(xml);
    if (!schema.valid) return eventError(res, 400, STANDIN_CODES.schema, `Falha no esquema XML: ${schema.errors[0]}`);
    const verified = verifyEventRequest(xml);
    if (!verified.ok) return eventError(res, 400, STANDIN_CODES.signature, verified.message);
    const nota = notas.get(accessKey);
    if (!nota || verified.accessKey !== accessKey)
      return eventError(res, 404, STANDIN_CODES.notFound, "NFS-e não encontrada.");
    if (clientCnpj(req) !== verified.cnpj || verified.cnpj !== nota.issuerCnpj)
      return eventError(res, 403, STANDIN_CODES.certificateCnpj, "O autor do evento não é o emitente da NFS-e.");
    if (nota.cancelled) return eventError(res, 400, STANDIN_CODES.alreadyCancelled, "A NFS-e já está cancelada.");
    nota.cancelled = true;
    const tpAmb = textOf(xml, "tpAmb");
    const eventXml =
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<evento xmlns="${DPS_NAMESPACE}" versao="1.01"><infEvento Id="EVT${accessKey}101101001">` +
      `<verAplic>${APP}</verAplic><ambGer>2</ambGer><nSeqEvento>1</nSeqEvento>` +
      `<dhProc>${new Date().toISOString()}</dhProc><nDFSe>${randomInt(1, 1e9)}</nDFSe>` +
      xml.replace(/^<\?xml[^>]*\?>/, "") +
      `</infEvento></evento>`;
    send(res, 201, { ...envelope(tpAmb), eventoXmlGZipB64: gzipBase64(eventXml) });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "https://standin").pathname.replace(/^\/SefinNacional/, "");
    requests.push(`${req.method} ${path}`);
    if (failures.count > 0) {
      failures.count--;
      return send(res, failures.status, {
        erros: [{ codigo: "", descricao: "Serviço indisponível.", complemento: null }],
      });
    }
    let match: RegExpExecArray | null;
    if (req.method === "POST" && path === "/nfse") return issue(req, res);
    if (req.method === "POST" && (match = /^\/nfse\/(\d{50})\/eventos$/.exec(path))) return cancel(req, res, match[1]!);
    if (req.method === "GET" && (match = /^\/dps\/([A-Z0-9]+)$/.exec(path))) {
      const accessKey = byDps.get(match[1]!);
      if (!accessKey) return issueError(res, 404, match[1]!, STANDIN_CODES.notFound, "DPS não encontrada.");
      return send(res, 200, { ...envelope("2"), idDps: match[1], chaveAcesso: accessKey });
    }
    if (req.method === "GET" && (match = /^\/nfse\/(\d{50})$/.exec(path))) {
      const nota = notas.get(match[1]!);
      if (!nota) return issueError(res, 404, null, STANDIN_CODES.notFound, "NFS-e não encontrada.");
      return send(res, 200, {
        ...envelope("2"),
        chaveAcesso: nota.accessKey,
        nfseXmlGZipB64: gzipBase64(nota.nfseXml),
      });
    }
    send(res, 404, { erros: [{ codigo: "", descricao: "Recurso não encontrado.", complemento: null }] });
  }

  const server: Server = createServer(
    { key, cert, ca: [options.ca.certificatePem], requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      handle(req, res).catch(() =>
        send(res, 500, { erros: [{ codigo: "", descricao: "Erro interno.", complemento: null }] }),
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };

  return {
    url: `https://127.0.0.1:${port}/SefinNacional`,
    ca: options.ca.certificatePem,
    notas,
    issuedFor: (dpsId) => issued.get(dpsId) ?? 0,
    requests,
    failNext(count, status = 503) {
      failures = { count, status };
    },
    acceptThenHang(count = 1) {
      hangs = count;
    },
    rejectNext(error) {
      rejection = error;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
