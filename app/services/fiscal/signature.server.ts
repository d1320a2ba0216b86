import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import type { A1Certificate } from "./certificate.server";
import { certificateFromBase64, cnpjOfCertificate } from "./certificate.server";

/**
 * XMLDSig of a DPS: an enveloped signature of infDPS (Reference to its Id), RSA-SHA256 and SHA-256,
 * transforms enveloped-signature + C14N 1.0 (REC-xml-c14n-20010315, as the layout's examples), the
 * certificate in KeyInfo/X509Data; the Signature is the last child of DPS.
 */
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const INF_DPS = "/*[local-name(.)='DPS']/*[local-name(.)='infDPS']";

export function signDps(xml: string, certificate: A1Certificate): string {
  const signer = new SignedXml({
    privateKey: certificate.privateKeyPem,
    publicCert: certificate.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N,
  });
  signer.addReference({ xpath: INF_DPS, transforms: [ENVELOPED, C14N], digestAlgorithm: SHA256 });
  signer.computeSignature(xml, { location: { reference: "/*[local-name(.)='DPS']", action: "append" } });
  return signer.getSignedXml();
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

function fail(reason: Exclude<DpsVerification, { ok: true }>["reason"], message: string): DpsVerification {
  return { ok: false, reason, message };
}

/**
 * Checks a signed DPS as the Sefin would: one Signature, valid, over exactly the infDPS (by its Id),
 * made with the certificate it carries, and that certificate's CNPJ is the issuer's (prest/CNPJ). What
 * the issuer CNPJ is read from is the signed infDPS, not the document around it.
 */
export function verifyDps(xml: string): DpsVerification {
  let doc: Document;
  try {
    doc = strictParser().parseFromString(xml, "text/xml");
  } catch {
    return fail("malformed", "O XML da DPS está mal formado.");
  }
  const root = doc.documentElement;
  if (!root || root.localName !== "DPS") return fail("malformed", "O documento não é uma DPS.");
  const infs = root.getElementsByTagNameNS("*", "infDPS");
  const signatures = doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature");
  if (infs.length !== 1) return fail("malformed", "A DPS deve ter um único infDPS.");
  if (signatures.length !== 1) return fail("unsigned", "A DPS deve ter uma única assinatura.");
  const signature = signatures[0]!;
  if (signature.parentNode !== root) return fail("malformed", "A assinatura deve estar no elemento DPS.");
  const id = infs[0]!.getAttribute("Id") ?? "";

  const certPem = SignedXml.getCertFromKeyInfo(
    signature.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "KeyInfo")[0] ?? null,
  );
  if (!certPem) return fail("unsigned", "A assinatura não traz o certificado.");
  let certCnpj: string | null;
  try {
    certCnpj = cnpjOfCertificate(certificateFromBase64(certPem));
  } catch {
    return fail("bad_signature", "O certificado da assinatura é inválido.");
  }

  const verifier = new SignedXml({ publicCert: certPem, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`)
    return fail("wrong_reference", "A assinatura não cobre o infDPS.");
  if (verifier.signatureAlgorithm !== RSA_SHA256 || references[0]!.digestAlgorithm !== SHA256)
    return fail("bad_signature", "A assinatura deve ser RSA-SHA256.");
  let valid = false;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  if (!valid) return fail("bad_signature", "A assinatura da DPS não confere.");

  const signed = verifier.getSignedReferences()[0] ?? "";
  const signedDoc = new DOMParser().parseFromString(signed, "text/xml");
  const prest = signedDoc.getElementsByTagNameNS("*", "prest")[0];
  const issuerCnpj = prest?.getElementsByTagNameNS("*", "CNPJ")[0]?.textContent ?? "";
  if (!certCnpj || certCnpj !== issuerCnpj)
    return fail("cnpj_mismatch", "O certificado da assinatura é de outro CNPJ, não do emitente da DPS.");
  return { ok: true, cnpj: issuerCnpj, dpsId: id };
}
