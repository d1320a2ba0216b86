import type { FiscalIssuerRow } from "../../../db/schema";
import { seal, unseal } from "../accounts/sealed-secrets.server";
import { loadA1Certificate, type A1Certificate } from "./certificate.server";

/** The owner of the platform's own issuer (its fees' notas); a freelancer's issuer is owned by their user id. */
export const PLATFORM_ISSUER = "platform";

/** The PFX (base64) and its password, sealed for the issuer's owner: what fiscal_issuers keeps. */
export function sealCertificate(owner: string, pfx: Buffer, password: string) {
  return {
    certificate_sealed: seal(pfx.toString("base64"), `fiscal:${owner}`),
    password_sealed: seal(password, `fiscal:${owner}`),
  };
}

/** What signs an issuer's DPS and opens its mutual TLS: the PFX and password unsealed, and the certificate read. */
export function issuerCredentials(
  issuer: Pick<FiscalIssuerRow, "owner" | "certificate_sealed" | "password_sealed">,
  now = new Date(),
): { pfx: Buffer; password: string; certificate: A1Certificate } {
  const pfx = Buffer.from(unseal(issuer.certificate_sealed, `fiscal:${issuer.owner}`), "base64");
  const password = unseal(issuer.password_sealed, `fiscal:${issuer.owner}`);
  return { pfx, password, certificate: loadA1Certificate(pfx, password, now) };
}
