import { config } from "~/config.server";
import type { FiscalIssuerRow } from "../../../db/schema";

// Links to the national system's documents. Built from the configuration (NFSE_ADN_URL) or the
// ADN's official addresses, never from a request's Host.

/** The ADN's DANFSe service per environment (the Sefin's /danfse moved there). */
export const ADN_DANFSE_URLS: Record<FiscalIssuerRow["environment"], string> = {
  producao_restrita: "https://adn.producaorestrita.nfse.gov.br/danfse",
  producao: "https://adn.nfse.gov.br/danfse",
};

/** The DANFSe (the nota's PDF) of an issued NFS-e, by its chave de acesso (50 digits). */
export function danfseUrl(environment: FiscalIssuerRow["environment"], accessKey: string): string {
  const base = (config.NFSE_ADN_URL ?? ADN_DANFSE_URLS[environment]).replace(/\/+$/, "");
  return `${base}/${encodeURIComponent(accessKey)}`;
}
