import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

/**
 * A test ICP: a CA and e-CNPJ certificates it issues, as PFX files with a password — what an operator
 * or a freelancer uploads, and what the Sefin stand-in trusts. Keys are made by node:crypto (fast);
 * node-forge writes the certificates and the PKCS#12.
 */
export type TestCa = { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey; certificatePem: string };

const DAY = 86_400_000;

function rsaKeys() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()),
  };
}

function serial() {
  return "01" + randomBytes(8).toString("hex");
}

export function makeTestCa(name = "AC Teste Freela"): TestCa {
  const { privateKey, publicKey } = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  const subject = [
    { name: "commonName", value: name },
    { name: "organizationName", value: "ICP-Brasil (teste)" },
    { name: "countryName", value: "BR" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return { cert, key: privateKey, certificatePem: forge.pki.certificateToPem(cert) };
}

/** subjectAltName with ICP-Brasil's otherName 2.16.76.1.3.3 (the CNPJ, an OCTET STRING of 14 digits). */
function icpSubjectAltName(cnpj: string) {
  const { asn1 } = forge;
  const otherName = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer("2.16.76.1.3.3").getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, cnpj),
    ]),
  ]);
  const email = asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, false, "fiscal@example.com");
  return { id: "2.5.29.17", value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [otherName, email]) };
}

export type ECnpjOptions = {
  cnpj: string;
  name?: string;
  password?: string;
  ca?: TestCa;
  notBefore?: Date;
  notAfter?: Date;
  /** Where the CNPJ is: in subjectAltName and the "NAME:CNPJ" common name (as ICP-Brasil), one, or none. */
  cnpjIn?: "both" | "san" | "cn" | "none";
};

/** An e-CNPJ A1: the PFX (DER) with its password, and the CA that issued it. */
export function makeECnpjPfx(options: ECnpjOptions) {
  const ca = options.ca ?? makeTestCa();
  const password = options.password ?? "senha-do-certificado";
  const name = options.name ?? "EMPRESA DE TESTE LTDA";
  const where = options.cnpjIn ?? "both";
  const { privateKey, publicKey } = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 365 * DAY);
  const cn = where === "both" || where === "cn" ? `${name}:${options.cnpj}` : name;
  cert.setSubject([
    { name: "commonName", value: cn, valueTagClass: forge.asn1.Type.UTF8 as never },
    { name: "organizationalUnitName", value: "Certificado PJ A1" },
    { name: "organizationName", value: "ICP-Brasil" },
    { name: "countryName", value: "BR" },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", clientAuth: true, emailProtection: true },
    ...(where === "both" || where === "san" ? [icpSubjectAltName(options.cnpj)] : []),
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(privateKey, [cert, ca.cert], password, { algorithm: "3des" });
  const pfx = Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
  return { pfx, password, ca, certificatePem: forge.pki.certificateToPem(cert) };
}
