import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  XmlBufferInputProvider,
  XmlDocument,
  XmlParseError,
  xmlRegisterInputProvider,
  XmlValidateError,
  XsdValidator,
} from "libxml2-wasm";

/**
 * Validates a DPS, and a pedido de registro de evento (pedRegEvento), against the official XSDs of
 * layout 1.01 (schemas/1.01, see its README) with libxml2 compiled to WebAssembly (libxml2-wasm): no
 * native build, no network — libxml2 reads the schemas' includes from memory, under a name no file or
 * URL has. Each schema is compiled once per process.
 */
const SCHEMA_FILES = [
  "DPS_v1.01.xsd",
  "pedRegEvento_v1.01.xsd",
  "tiposEventos_v1.01.xsd",
  "tiposComplexos_v1.01.xsd",
  "tiposSimples_v1.01.xsd",
  "xmldsig-core-schema.xsd",
];
const IN_MEMORY = "freela-nfse-xsd/";

/**
 * The one correction, made in memory only: the published TSSerieDPS pattern is written as a
 * Perl-style regex ("^…$", a look-ahead), which XML Schema does not have: libxml2 refuses the schema
 * (a look-ahead) or every série (literal ^ and $). Its intent, 1 to 5 digits not all zeros, in XML
 * Schema's regex. Should a new package change the text, validation stops and asks for a review.
 */
const SERIE_PATTERNS = ['<xs:pattern value="^(?!0{1,5}$)\\d{1,5}$"/>', '<xs:pattern value="^0{0,4}\\d{1,5}$"/>'];
const SERIE_FIXED = '<xs:pattern value="[0-9]{0,4}[1-9][0-9]{0,4}"/>';

function schemaDir() {
  const candidates = [
    fileURLToPath(new URL("./schemas/1.01/", import.meta.url)), // source (tsx, tests)
    fileURLToPath(new URL("../app/services/fiscal/schemas/1.01/", import.meta.url)), // the server build
  ];
  const dir = candidates.find((d) => SCHEMA_FILES.every((f) => existsSync(d + f)));
  if (!dir) throw new Error(`Esquemas XSD da NFS-e ausentes (${SCHEMA_FILES.join(", ")}): veja schemas/README.md.`);
  return dir;
}

let files: Record<string, Uint8Array> | null = null;
const validators = new Map<string, XsdValidator>();

function schemaFiles() {
  if (files) return files;
  const dir = schemaDir();
  const loaded: Record<string, Uint8Array> = {};
  for (const name of SCHEMA_FILES) {
    let contents = readFileSync(dir + name, "utf8");
    if (name.startsWith("tiposSimples")) {
      const original = SERIE_PATTERNS.find((p) => contents.includes(p));
      if (!original) throw new Error("TSSerieDPS mudou no XSD oficial: revise a correção em schema.server.ts.");
      contents = contents.replace(original, SERIE_FIXED);
    }
    loaded[IN_MEMORY + name] = new TextEncoder().encode(contents);
  }
  xmlRegisterInputProvider(new XmlBufferInputProvider(loaded));
  files = loaded;
  return files;
}

function validatorOf(root: "DPS_v1.01.xsd" | "pedRegEvento_v1.01.xsd") {
  const known = validators.get(root);
  if (known) return known;
  const schema = XmlDocument.fromBuffer(schemaFiles()[IN_MEMORY + root]!, { url: IN_MEMORY + root });
  const validator = XsdValidator.fromDoc(schema); // keeps the schema document alive with it
  validators.set(root, validator);
  return validator;
}

export type SchemaValidation = { valid: true; errors: [] } | { valid: false; errors: string[] };

/** Each error as "linha N: message" (libxml2's words). */
export function validateDpsXml(xml: string): SchemaValidation {
  return validate(validatorOf("DPS_v1.01.xsd"), xml);
}

/** A pedRegEvento (cancelamento e101101 and the other events of tiposEventos) against its XSD. */
export function validateEventRequestXml(xml: string): SchemaValidation {
  return validate(validatorOf("pedRegEvento_v1.01.xsd"), xml);
}

function validate(xsd: XsdValidator, xml: string): SchemaValidation {
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (error) {
    if (error instanceof XmlParseError) return { valid: false, errors: lines(error.details) };
    throw error;
  }
  try {
    xsd.validate(doc);
    return { valid: true, errors: [] };
  } catch (error) {
    if (error instanceof XmlValidateError) return { valid: false, errors: lines(error.details) };
    throw error;
  } finally {
    doc.dispose();
  }
}

function lines(details: { message: string; line?: number }[]) {
  const errors = details.map((d) => `${d.line ? `linha ${d.line}: ` : ""}${d.message.trim()}`);
  return errors.length ? errors : ["XML inválido."];
}
