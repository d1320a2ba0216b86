import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import type { A1Certificate } from "./certificate.server";
import { certificateFromBase64, cnpjOfCertificate } from "./certificate.server";

/**
 * XMLDSig of a DPS (and of a pedido de registro de evento, the same way): an enveloped signature of
 * the info element (infDPS, infPedReg; Reference to its Id), RSA-SHA256 and SHA-256, transforms
 * enveloped-signature + C14N 1.0 (REC-xml-c14n-20010315, as the layout's examples), the certificate in
 * KeyInfo/X509Data; the Signature is the last child of the root element.
 */
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";

/** Signs `<root><element Id="…">…</element></root>`: the Signature appended to the root. */
export function signXml(xml: string, root: string, element: string, certificate: A1Certificate): string {
  const signer = new SignedXml({
    privateKey: certificate.privateKeyPem,
    publicCert: certificate.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N,
  });
  signer.addReference({
    xpath: `/*[local-name(.)='${root}']/*[local-name(.)='${element}']`,
    transforms: [ENVELOPED, C14N],
    digestAlgorithm: SHA256,
  });
  signer.computeSignature(xml, { location: { reference: `/*[local-name(.)='${root}']`, action: "append" } });
  return signer.getSignedXml();
}

export function signDps(xml: string, certificate: A1Certificate): string {
  return signXml(xml, "DPS", "infDPS", certificate);
}

function strictParser() {
  const raise = (message: string) => {
    throw new Error(message);
  };
  return new DOMParser({ errorHandler: { warning: () => {}, error: raise, fatalError: raise } });
}

export type DpsVerification =
  | { ok: true; cnpj: string; dpsId: string }
  | {
      ok: false;
      reason: "malformed" | "unsigned" | "bad_signature" | "wrong_reference" | "cnpj_mismatch";
      message: string;
    };

type Failure = Exclude<DpsVerification, { ok: true }>;

function fail(reason: Failure["reason"], message: string): Failure {
  return { ok: false, reason, message };
}

type Signed = { ok: true; certificateCnpj: string | null; id: string; signed: Document };

/**
 * Checks an enveloped signature as the Sefin would: one Signature, a child of the root, valid, over
 * exactly the info element (by its Id), RSA-SHA256, made with the certificate it carries. Returns the
 * certificate's CNPJ and the signed element as it was signed (what is read from it is what was signed).
 */
function verifySigned(xml: string, root: string, element: string, label: string): Signed | Failure {
  let doc: Document;
  try {
    doc = strictParser().parseFromString(xml, "text/xml");
  } catch {
    return fail("malformed", `O XML ${label} está mal formado.`);
  }
  const top = doc.documentElement;
  if (!top || top.localName !== root) return fail("malformed", `O documento não é ${root}.`);
  const infs = top.getElementsByTagNameNS("*", element);
  const signatures = doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature");
  if (infs.length !== 1) return fail("malformed", `O documento deve ter um único ${element}.`);
  if (signatures.length !== 1) return fail("unsigned", "O documento deve ter uma única assinatura.");
  const signature = signatures[0]!;
  if (signature.parentNode !== top) return fail("malformed", `A assinatura deve estar no elemento ${root}.`);
  const id = infs[0]!.getAttribute("Id") ?? "";

  const certPem = SignedXml.getCertFromKeyInfo(
    signature.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "KeyInfo")[0] ?? null,
  );
  if (!certPem) return fail("unsigned", "A assinatura não traz o certificado.");
  let certificateCnpj: string | null;
  try {
    certificateCnpj = cnpjOfCertificate(certificateFromBase64(certPem));
  } catch {
    return fail("bad_signature", "O certificado da assinatura é inválido.");
  }

  const verifier = new SignedXml({ publicCert: certPem, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`)
    return fail("wrong_reference", `A assinatura não cobre o ${element}.`);
  if (verifier.signatureAlgorithm !== RSA_SHA256 || references[0]!.digestAlgorithm !== SHA256)
    return fail("bad_signature", "A assinatura deve ser RSA-SHA256.");
  let valid = false;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  if (!valid) return fail("bad_signature", `A assinatura ${label} não confere.`);
  const signed = new DOMParser().parseFromString(verifier.getSignedReferences()[0] ?? "", "text/xml");
  return { ok: true, certificateCnpj, id, signed };
}

function signedText(doc: Document, parent: string | null, name: string) {
  const scope = parent ? doc.getElementsByTagNameNS("*", parent)[0] : doc.documentElement;
  return scope?.getElementsByTagNameNS("*", name)[0]?.textContent ?? "";
}

/**
 * Checks a signed DPS as the Sefin would (verifySigned over infDPS), and that the certificate's CNPJ
 * is the issuer's (prest/CNPJ), read from the signed infDPS, not the document around it.
 */
export function verifyDps(xml: string): DpsVerification {
  const result = verifySigned(xml, "DPS", "infDPS", "da DPS");
  if (!("signed" in result)) return result;
  const issuerCnpj = signedText(result.signed, "prest", "CNPJ");
  if (!result.certificateCnpj || result.certificateCnpj !== issuerCnpj)
    return fail("cnpj_mismatch", "O certificado da assinatura é de outro CNPJ, não do emitente da DPS.");
  return { ok: true, cnpj: issuerCnpj, dpsId: result.id };
}

export type EventVerification =
  { ok: true; cnpj: string; eventId: string; accessKey: string } | Exclude<DpsVerification, { ok: true }>;

/** The same checks for a signed pedRegEvento (infPedReg): the certificate's CNPJ is the CNPJAutor. */
export function verifyEventRequest(xml: string): EventVerification {
  const result = verifySigned(xml, "pedRegEvento", "infPedReg", "do pedido de evento");
  if (!("signed" in result)) return result;
  const author = signedText(result.signed, null, "CNPJAutor");
  if (!result.certificateCnpj || result.certificateCnpj !== author)
    return fail("cnpj_mismatch", "O certificado da assinatura é de outro CNPJ, não do autor do evento.");
  return { ok: true, cnpj: author, eventId: result.id, accessKey: signedText(result.signed, null, "chNFSe") };
}
