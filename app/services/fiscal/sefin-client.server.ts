import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import https from "node:https";
import { rootCertificates } from "node:tls";
import { config } from "~/config.server";
import type { A1Certificate } from "./certificate.server";
import { CertificateError, loadA1Certificate } from "./certificate.server";
import { DPS_NAMESPACE, DpsInputError, escapeXml, localDateTime } from "./dps.server";
import { validateEventRequestXml } from "./schema.server";
import {
  gunzipBase64,
  gzipBase64,
  issueRequestBody,
  parseIssueResponse,
  sefinErrors,
  sefinText,
  UNREADABLE,
  type IssueResult,
  type SefinMessage,
} from "./sefin.server";
import { signXml } from "./signature.server";

/**
 * The HTTP client of the Sefin Nacional (API "NFS-e - Sefin Nacional", REST + JSON over mutual TLS
 * with the issuer's A1 certificate): issue (POST /nfse), read by DPS id (GET /dps/{id}, then the
 * NFS-e by its chave), read by chave (GET /nfse/{chave}) and register the cancellation event
 * (POST /nfse/{chave}/eventos). Network trouble never throws: a timeout, a refused or broken
 * connection, a TLS failure is a "failed" result with status 0 and a Portuguese description. The
 * certificate's password and PFX never appear in a result, an error or a log.
 */
export type SefinEnvironment = "producao_restrita" | "producao";
export type SefinCredentials = { pfx: Buffer; password: string };

export type LookupResult =
  | { kind: "found"; accessKey: string; nfseXml: string }
  | { kind: "absent" }
  | { kind: "failed"; status: number; errors: SefinMessage[] };

export type CancelResult =
  | { kind: "cancelled"; eventXml: string }
  /** The Sefin refused the event (4xx): already cancelled, out of the deadline, …; not to be retried as it is. */
  | { kind: "rejected"; status: number; errors: SefinMessage[] }
  | { kind: "failed"; status: number; errors: SefinMessage[] };

export type CancelInput = {
  accessKey: string;
  issuerCnpj: string;
  /** cMotivo (TSCodJustCanc): 1 erro na emissão, 2 serviço não prestado, 9 outros. */
  reasonCode: 1 | 2 | 9;
  /** xMotivo: 15 to 255 characters. */
  reason: string;
  certificate: A1Certificate;
};

export type SefinClient = {
  issue(signedDpsXml: string, credentials: SefinCredentials, environment: SefinEnvironment): Promise<IssueResult>;
  findByDpsId(dpsId: string, credentials: SefinCredentials, environment: SefinEnvironment): Promise<LookupResult>;
  findByAccessKey(
    accessKey: string,
    credentials: SefinCredentials,
    environment: SefinEnvironment,
  ): Promise<LookupResult>;
  /** Throws DpsInputError (in Portuguese) on bad input, before anything is sent. */
  cancel(input: CancelInput, credentials: SefinCredentials, environment: SefinEnvironment): Promise<CancelResult>;
};

/** The official addresses (gov.br/nfse, "APIs - Produção Restrita e Produção"). */
export const SEFIN_URLS: Record<SefinEnvironment, string> = {
  producao_restrita: "https://sefin.producaorestrita.nfse.gov.br/SefinNacional",
  producao: "https://sefin.nfse.gov.br/SefinNacional",
};

/** The base URL: the one given, else NFSE_SEFIN_URL, else the environment's official one. */
export function sefinBaseUrl(environment: SefinEnvironment, baseUrl = config.NFSE_SEFIN_URL) {
  return (baseUrl ?? SEFIN_URLS[environment]).replace(/\/+$/, "");
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;
const APP_VERSION = "Freela-1.0";

export function sefinClient(options: { baseUrl?: string; ca?: string | Buffer; timeoutMs?: number } = {}): SefinClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const extraCa = options.ca ?? (config.NFSE_SEFIN_CA_FILE ? readFileSync(config.NFSE_SEFIN_CA_FILE) : undefined);
  const base = (environment: SefinEnvironment) => sefinBaseUrl(environment, options.baseUrl);

  function call(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    credentials: SefinCredentials,
    environment: SefinEnvironment,
  ) {
    return request(`${base(environment)}${path}`, method, body, credentials, extraCa, timeoutMs);
  }

  async function findByAccessKey(
    accessKey: string,
    credentials: SefinCredentials,
    environment: SefinEnvironment,
  ): Promise<LookupResult> {
    const answer = await call("GET", `/nfse/${encodeURIComponent(accessKey)}`, undefined, credentials, environment);
    if (answer.status === 404) return { kind: "absent" };
    if (answer.status !== 200) return failed(answer);
    const key = sefinText(answer.body, "chaveAcesso") ?? accessKey;
    const nfseXml = unpack(sefinText(answer.body, "nfseXmlGZipB64"));
    if (!nfseXml) return { kind: "failed", status: answer.status, errors: [UNREADABLE] };
    return { kind: "found", accessKey: key, nfseXml };
  }

  return {
    async issue(signedDpsXml, credentials, environment) {
      const answer = await call("POST", "/nfse", issueRequestBody(signedDpsXml), credentials, environment);
      if (answer.status === 0) return failed(answer);
      return parseIssueResponse(answer.status, answer.body);
    },

    async findByDpsId(dpsId, credentials, environment) {
      const answer = await call("GET", `/dps/${encodeURIComponent(dpsId)}`, undefined, credentials, environment);
      if (answer.status === 404) return { kind: "absent" };
      if (answer.status !== 200) return failed(answer);
      const accessKey = sefinText(answer.body, "chaveAcesso");
      if (!accessKey || !/^\d{50}$/.test(accessKey))
        return { kind: "failed", status: answer.status, errors: [UNREADABLE] };
      const nota = await findByAccessKey(accessKey, credentials, environment);
      // The Sefin knows the DPS: its NFS-e exists, even if it cannot be read now (never issue again).
      if (nota.kind !== "absent") return nota;
      const description = `A DPS consta na Sefin Nacional com a chave ${accessKey}, mas a NFS-e ainda não pôde ser lida.`;
      return { kind: "failed", status: 404, errors: [{ code: "", description, complement: null }] };
    },

    findByAccessKey,

    async cancel(input, credentials, environment) {
      const eventXml = cancellationRequestXml(input, environment);
      const body = { pedidoRegistroEventoXmlGZipB64: gzipBase64(eventXml) };
      const answer = await call("POST", `/nfse/${input.accessKey}/eventos`, body, credentials, environment);
      if (answer.status === 0) return failed(answer);
      if (answer.status >= 200 && answer.status < 300) {
        const registered = unpack(sefinText(answer.body, "eventoXmlGZipB64"));
        if (registered) return { kind: "cancelled", eventXml: registered };
        return { kind: "failed", status: answer.status, errors: [UNREADABLE] };
      }
      const errors = sefinErrors(answer.body);
      if (answer.status >= 400 && answer.status < 500 && errors.length)
        return { kind: "rejected", status: answer.status, errors };
      return failed(answer);
    },
  };
}

/**
 * The signed pedido de registro do evento de cancelamento (pedRegEvento, layout 1.01,
 * tiposEventos_v1.01.xsd): infPedReg with Id "PRE" + chave (50) + "101101" (TSIdPedRegEvt, 59
 * characters), tpAmb, verAplic, dhEvento, CNPJAutor, chNFSe and e101101 (xDesc, cMotivo, xMotivo),
 * signed like the DPS and valid against pedRegEvento_v1.01.xsd.
 */
export function cancellationRequestXml(input: CancelInput, environment: SefinEnvironment, now = new Date()): string {
  const reason = input.reason.trim();
  if (!/^\d{50}$/.test(input.accessKey)) throw new DpsInputError("Chave de acesso inválida: 50 dígitos.");
  if (!/^\d{14}$/.test(input.issuerCnpj)) throw new DpsInputError("CNPJ do emitente inválido.");
  if (![1, 2, 9].includes(input.reasonCode))
    throw new DpsInputError("Código do motivo do cancelamento inválido (1, 2 ou 9).");
  const length = [...reason].length;
  if (length < 15 || length > 255) throw new DpsInputError("Motivo do cancelamento: de 15 a 255 caracteres.");
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<pedRegEvento xmlns="${DPS_NAMESPACE}" versao="1.01">` +
    `<infPedReg Id="PRE${input.accessKey}101101">` +
    `<tpAmb>${environment === "producao" ? "1" : "2"}</tpAmb>` +
    `<verAplic>${APP_VERSION}</verAplic>` +
    `<dhEvento>${localDateTime(now)}</dhEvento>` +
    `<CNPJAutor>${input.issuerCnpj}</CNPJAutor>` +
    `<chNFSe>${input.accessKey}</chNFSe>` +
    `<e101101><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>${input.reasonCode}</cMotivo>` +
    `<xMotivo>${escapeXml(reason)}</xMotivo></e101101>` +
    `</infPedReg></pedRegEvento>`;
  const signed = signXml(xml, "pedRegEvento", "infPedReg", input.certificate);
  const validation = validateEventRequestXml(signed);
  if (!validation.valid)
    throw new DpsInputError(`O pedido de cancelamento não passa no XSD: ${validation.errors.join("; ")}`);
  return signed;
}

function unpack(packed: string | null) {
  if (!packed) return null;
  try {
    const xml = gunzipBase64(packed);
    return xml.includes("<") ? xml : null;
  } catch {
    return null;
  }
}

type Answer = { status: number; body: unknown; problem?: SefinMessage };

function failed(answer: Answer): { kind: "failed"; status: number; errors: SefinMessage[] } {
  if (answer.problem) return { kind: "failed", status: 0, errors: [answer.problem] };
  const errors = sefinErrors(answer.body);
  return { kind: "failed", status: answer.status, errors: errors.length ? errors : [UNREADABLE] };
}

function problem(description: string, complement: string | null = null): Answer {
  return { status: 0, body: null, problem: { code: "", description, complement } };
}

/**
 * One https.Agent per certificate (and extra CA), kept: its TLS sessions and connections are reused
 * between calls. Keyed by a hash, never by the password itself; a certificate that cannot be read
 * is not kept (the next call reads it again).
 */
const agents = new Map<string, https.Agent>();
const MAX_AGENTS = 100;

function agentFor(credentials: SefinCredentials, extraCa: string | Buffer | undefined): https.Agent | Answer {
  const key = createHash("sha256")
    .update(credentials.pfx)
    .update("\0")
    .update(credentials.password)
    .update("\0")
    .update(extraCa ?? "")
    .digest("hex");
  const known = agents.get(key);
  if (known) return known;
  let agent: https.Agent;
  try {
    const ca = extraCa ? [...rootCertificates, extraCa.toString()] : undefined;
    agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca, ...tlsIdentity(credentials) });
  } catch (error) {
    // CertificateError says what is wrong (wrong password, expired…) in Portuguese, without secrets.
    return problem(
      error instanceof CertificateError ? error.message : "O certificado A1 do emitente não pôde ser lido.",
      "certificado",
    );
  }
  if (agents.size >= MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value!;
    oldest.destroy();
    agents.delete(oldestKey);
  }
  agents.set(key, agent);
  return agent;
}

/**
 * The key and certificate chain read by node-forge, not the PFX handed to Node: Node would add the
 * PFX's ACs to the certificates trusted for the server (any server with a certificate from the
 * issuer's AC would pass), and OpenSSL 3 refuses the RC2 or 40-bit encryption of many older A1 files.
 */
function tlsIdentity(credentials: SefinCredentials) {
  const certificate = loadA1Certificate(credentials.pfx, credentials.password);
  return { key: certificate.privateKeyPem, cert: [certificate.certificatePem, ...certificate.chainPem].join("\n") };
}

function request(
  url: string,
  method: "GET" | "POST",
  body: unknown,
  credentials: SefinCredentials,
  extraCa: string | Buffer | undefined,
  timeoutMs: number,
): Promise<Answer> {
  const agent = agentFor(credentials, extraCa);
  if (!(agent instanceof https.Agent)) return Promise.resolve(agent);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), "utf8");
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = https.request(url, {
      method,
      agent,
      headers: {
        accept: "application/json",
        ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}),
      },
    });
    const timer = setTimeout(() => {
      settle(problem(`A Sefin Nacional não respondeu em ${Math.round(timeoutMs / 1000)} s.`, "timeout"));
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => settle(networkProblem(error)));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          settle(problem("A resposta da Sefin Nacional é grande demais.", `${res.statusCode ?? 0}`));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", (error: NodeJS.ErrnoException) => settle(networkProblem(error)));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        settle({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.end(payload);
  });
}

/** A connection's failure in Portuguese, with the system's error code (never the certificate) as complement. */
function networkProblem(error: NodeJS.ErrnoException): Answer {
  const code = error.code ?? "";
  if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code))
    return problem("Não foi possível conectar à Sefin Nacional.", code);
  if (code === "ECONNRESET")
    return problem("A Sefin Nacional interrompeu a conexão (o certificado do emitente pode ter sido recusado).", code);
  if (/CERT|SSL|TLS|ALERT|SELF_SIGNED|VERIFY|EPROTO/i.test(code + " " + error.message))
    return problem(
      "A conexão segura com a Sefin Nacional falhou: o certificado do emitente foi recusado ou o do servidor não é confiável.",
      code || null,
    );
  return problem("A comunicação com a Sefin Nacional falhou.", code || null);
}
