import { gunzipSync, gzipSync } from "node:zlib";

/**
 * The JSON of the Sefin Nacional's `POST /nfse` (its Swagger, "API NFS-e - Sefin Nacional (v1)"):
 * the request carries the signed DPS gzipped and in base64; the answer is 201 with the NFS-e (also
 * gzipped, base64) and its chave de acesso, or 400/403/500 with a list of erros
 * ({codigo, descricao, complemento}; the service has been seen to capitalize the keys, and some
 * endpoints answer one "erro" instead of a list: both are read).
 */
export type IssueRequestBody = { dpsXmlGZipB64: string };

export function issueRequestBody(signedDpsXml: string): IssueRequestBody {
  return { dpsXmlGZipB64: gzipBase64(signedDpsXml) };
}

export function gzipBase64(xml: string) {
  return gzipSync(Buffer.from(xml, "utf8")).toString("base64");
}

export function gunzipBase64(data: string) {
  return gunzipSync(Buffer.from(data, "base64")).toString("utf8");
}

export type SefinMessage = { code: string; description: string; complement: string | null };

export type IssueResult =
  | {
      kind: "issued";
      accessKey: string;
      dpsId: string;
      nfseXml: string;
      environment: 1 | 2 | null;
      processedAt: string | null;
      alerts: SefinMessage[];
    }
  /** The Sefin refused the DPS (4xx): fix and issue again; not to be retried as it is. */
  | { kind: "rejected"; status: number; dpsId: string | null; errors: SefinMessage[] }
  /** 5xx, or an answer that cannot be read: may be retried (after checking by the DPS id). */
  | { kind: "failed"; status: number; errors: SefinMessage[] };

type Json = Record<string, unknown>;

/** A key of the object whatever its case ("codigo", "Codigo"). */
function field(object: Json, name: string): unknown {
  const key = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : object[key];
}

function text(value: unknown) {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messages(value: unknown): SefinMessage[] {
  const list = Array.isArray(value) ? value : isObject(value) ? [value] : [];
  return list.filter(isObject).map((m) => ({
    code: text(field(m, "codigo")) ?? "",
    description: text(field(m, "descricao")) ?? text(field(m, "mensagem")) ?? "",
    complement: text(field(m, "complemento")),
  }));
}

/** The erros (or one erro) of any Sefin answer, whatever the keys' case. */
export function sefinErrors(body: unknown): SefinMessage[] {
  const object = isObject(body) ? body : {};
  return messages(field(object, "erros") ?? field(object, "erro") ?? (Array.isArray(body) ? body : undefined));
}

/** A text field of a Sefin answer ("chaveAcesso", "ChaveAcesso"), or null. */
export function sefinText(body: unknown, name: string): string | null {
  return isObject(body) ? text(field(body, name)) : null;
}

export const UNREADABLE: SefinMessage = {
  code: "",
  description: "A resposta da Sefin Nacional não pôde ser lida.",
  complement: null,
};

/** Reads the answer to `POST /nfse` (status and parsed JSON body) into a typed result. */
export function parseIssueResponse(status: number, body: unknown): IssueResult {
  const object = isObject(body) ? body : {};
  const errors = sefinErrors(body);
  if (status >= 200 && status < 300) {
    const accessKey = text(field(object, "chaveAcesso"));
    const packed = text(field(object, "nfseXmlGZipB64"));
    let nfseXml: string | null = null;
    try {
      nfseXml = packed ? gunzipBase64(packed) : null;
    } catch {
      nfseXml = null;
    }
    if (!accessKey || !/^\d{50}$/.test(accessKey) || !nfseXml?.includes("<"))
      return { kind: "failed", status, errors: [UNREADABLE] };
    const environment = Number(field(object, "tipoAmbiente"));
    return {
      kind: "issued",
      accessKey,
      dpsId: text(field(object, "idDps")) ?? "",
      nfseXml,
      environment: environment === 1 || environment === 2 ? environment : null,
      processedAt: text(field(object, "dataHoraProcessamento")),
      alerts: messages(field(object, "alertas")),
    };
  }
  if (status >= 400 && status < 500 && errors.length)
    return { kind: "rejected", status, dpsId: text(field(object, "idDps")), errors };
  return { kind: "failed", status, errors: errors.length ? errors : [UNREADABLE] };
}
