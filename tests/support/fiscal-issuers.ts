import { randomUUID } from "node:crypto";
import { generateCnpj } from "@brazilian-utils/brazilian-utils";
import { db } from "../../db";
import type { Insertable } from "kysely";
import type { FiscalIssuersTable } from "../../db/schema";
import { sealCertificate } from "~/services/fiscal/issuers.server";
import { makeECnpjPfx, type ECnpjOptions } from "./fiscal-certificates";

/**
 * An issuer of notas fiscais, as the fiscal settings save one: the platform's (owner 'platform') or a
 * freelancer's (owner = their user id), with a fresh e-CNPJ A1 (of a new CNPJ unless given) sealed for the owner.
 */
export async function insertIssuer(
  owner: string,
  options: Partial<ECnpjOptions> & { enabled?: 0 | 1; columns?: Partial<Insertable<FiscalIssuersTable>> } = {},
) {
  const cnpj = options.cnpj ?? generateCnpj();
  const { pfx, password, certificatePem, ca } = makeECnpjPfx({ ...options, cnpj });
  const at = new Date().toISOString();
  const id = randomUUID();
  await db
    .insertInto("fiscal_issuers")
    .values({
      id,
      owner,
      cnpj,
      legal_name: options.name ?? "EMPRESA DE TESTE LTDA",
      municipal_registration: "123456",
      municipality: "3550308",
      simples_nacional: "nao_optante",
      simples_regime: null,
      national_code: "100501",
      nbs_code: "118069000",
      municipal_code: null,
      description: "Intermediação de serviços pela plataforma Freela",
      iss_rate_bps: 200,
      environment: "producao_restrita",
      ...sealCertificate(owner, pfx, password),
      certificate_expires_at: (options.notAfter ?? new Date(Date.now() + 365 * 86_400_000)).toISOString(),
      enabled: options.enabled ?? 1,
      created_at: at,
      updated_at: at,
      ...options.columns,
    })
    .execute();
  return { id, cnpj, pfx, password, certificatePem, ca };
}

/** The fiscal settings form's fields, valid, as a browser sends them (strings); `overrides` change some. */
export const fiscalFields = (overrides: Record<string, string> = {}): Record<string, string> => ({
  cnpj: "11.222.333/0001-81",
  legal_name: "Freela Intermediação Ltda",
  municipal_registration: "123456",
  municipality: "3550308",
  simples_nacional: "nao_optante",
  national_code: "100501",
  nbs_code: "118069000",
  description: "Intermediação de serviços entre freelancers e contratantes",
  iss_rate: "2,00",
  environment: "producao_restrita",
  ...overrides,
});
