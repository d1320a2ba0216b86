import forge from "node-forge";

/**
 * The A1 certificate (a PKCS#12 / PFX file and its password) that signs a DPS and opens the mutual TLS
 * to the Sefin Nacional: its private key and certificate in PEM, and the CNPJ of its holder as an
 * ICP-Brasil e-CNPJ carries it.
 */
export type A1Certificate = {
  privateKeyPem: string;
  certificatePem: string;
  /** The other certificates the PFX carries (the issuing ACs), in PEM: the chain sent in the mutual TLS. */
  chainPem: string[];
  /** The certificate in DER, base64, as X509Certificate in a signature's KeyInfo. */
  certificateBase64: string;
  cnpj: string;
  holderName: string;
  notBefore: Date;
  notAfter: Date;
};

export type CertificateErrorCode = "not_pfx" | "wrong_password" | "no_key" | "no_cnpj" | "expired" | "not_yet_valid";

const MESSAGES: Record<CertificateErrorCode, string> = {
  not_pfx: "O arquivo enviado não é um certificado A1 (PFX ou P12).",
  wrong_password: "A senha do certificado está errada.",
  no_key: "O arquivo não traz a chave privada do certificado.",
  no_cnpj: "O certificado não é um e-CNPJ: não traz o CNPJ do titular.",
  expired: "O certificado está vencido.",
  not_yet_valid: "O certificado ainda não começou a valer.",
};

export class CertificateError extends Error {
  readonly code: CertificateErrorCode;
  constructor(code: CertificateErrorCode) {
    super(MESSAGES[code]);
    this.name = "CertificateError";
    this.code = code;
  }
}

/** ICP-Brasil: the CNPJ of an e-CNPJ's holder, an otherName in subjectAltName (DOC-ICP-04). */
const OID_CNPJ = "2.16.76.1.3.3";

/** Reads a PFX buffer with its password; throws CertificateError (message in Portuguese). */
export function loadA1Certificate(pfx: Buffer | Uint8Array, password: string, now = new Date()): A1Certificate {
  const p12 = readPfx(pfx, password);
  const keyBags = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!];
  const plainKeyBags = p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!];
  const key = [...(keyBags ?? []), ...(plainKeyBags ?? [])].find((b) => b.key)?.key as
    forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new CertificateError("no_key");
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .map((b) => b.cert)
    .filter((c): c is forge.pki.Certificate => !!c);
  // A real PFX also carries the chain (the AC's certificates): take the one of this private key.
  const cert = certs.find((c) => (c.publicKey as forge.pki.rsa.PublicKey).n?.equals(key.n));
  if (!cert) throw new CertificateError("no_key");
  const cnpj = cnpjOfCertificate(cert);
  if (!cnpj) throw new CertificateError("no_cnpj");
  if (cert.validity.notAfter.getTime() < now.getTime()) throw new CertificateError("expired");
  if (cert.validity.notBefore.getTime() > now.getTime()) throw new CertificateError("not_yet_valid");
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  return {
    privateKeyPem: forge.pki.privateKeyToPem(key),
    certificatePem: forge.pki.certificateToPem(cert),
    chainPem: certs.filter((c) => c !== cert).map((c) => forge.pki.certificateToPem(c)),
    certificateBase64: forge.util.encode64(der),
    cnpj,
    holderName: holderName(cert),
    notBefore: cert.validity.notBefore,
    notAfter: cert.validity.notAfter,
  };
}

function readPfx(pfx: Buffer | Uint8Array, password: string) {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(pfx).toString("binary")));
  } catch {
    throw new CertificateError("not_pfx");
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    // node-forge says "Invalid password?" when the MAC does not verify; anything else is not a PFX.
    if (error instanceof Error && /password/i.test(error.message)) throw new CertificateError("wrong_password");
    throw new CertificateError("not_pfx");
  }
}

/** The holder's CNPJ: the ICP-Brasil otherName in subjectAltName, else the "NAME:CNPJ" common name. */
export function cnpjOfCertificate(cert: forge.pki.Certificate): string | null {
  const san = cert.getExtension("subjectAltName") as { altNames?: { type: number; value: unknown }[] } | null;
  for (const altName of san?.altNames ?? []) {
    if (altName.type !== 0 || !Array.isArray(altName.value)) continue;
    const [typeId, explicit] = altName.value as forge.asn1.Asn1[];
    if (!typeId || forge.asn1.derToOid(typeId.value as string) !== OID_CNPJ) continue;
    const inner = Array.isArray(explicit?.value) ? (explicit.value[0] as forge.asn1.Asn1 | undefined) : undefined;
    const digits = typeof inner?.value === "string" ? inner.value.replace(/\D/g, "") : "";
    if (/^\d{14}$/.test(digits)) return digits;
  }
  const cn = cert.subject.getField("CN")?.value as string | undefined;
  return /:(\d{14})$/.exec(cn ?? "")?.[1] ?? null;
}

/** Reads a PEM or base64 DER certificate (as X509Certificate in a signature). */
export function certificateFromBase64(base64OrPem: string): forge.pki.Certificate {
  if (base64OrPem.includes("-----BEGIN")) return forge.pki.certificateFromPem(base64OrPem);
  const der = forge.util.decode64(base64OrPem.replace(/\s+/g, ""));
  return forge.pki.certificateFromAsn1(forge.asn1.fromDer(der));
}

function holderName(cert: forge.pki.Certificate) {
  const cn = (cert.subject.getField("CN")?.value as string | undefined) ?? "";
  let name = cn;
  try {
    name = forge.util.decodeUtf8(cn); // node-forge keeps a UTF8String's bytes
  } catch {
    // not UTF-8: keep the bytes as they are
  }
  return name.replace(/:\d{14}$/, "");
}
