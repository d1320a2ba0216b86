import { randomInt, randomUUID } from "node:crypto";
import { generateCnpj } from "@brazilian-utils/brazilian-utils";
import { db } from "../../db";
import type { FiscalIssuerRow, NfseDocumentsTable, NfseStatus } from "../../db/schema";

// Notas fiscais written straight into the tables (the issuing itself is notas.server.ts's): an
// issuer per owner ('platform' or a freelancer's id) and notas of real contracts and milestones.

/** The issuer of `owner`, made once (owner is unique); the sealed columns hold placeholder text. */
export async function fiscalIssuer(
  owner: string,
  environment: FiscalIssuerRow["environment"] = "producao_restrita",
): Promise<FiscalIssuerRow> {
  const found = await db.selectFrom("fiscal_issuers").selectAll().where("owner", "=", owner).executeTakeFirst();
  if (found) return found;
  const at = new Date().toISOString();
  return db
    .insertInto("fiscal_issuers")
    .values({
      id: randomUUID(),
      owner,
      cnpj: generateCnpj(),
      legal_name: owner === "platform" ? "Freela Intermediação Ltda" : "Freelancer ME",
      municipal_registration: null,
      municipality: "3550308",
      simples_nacional: "nao_optante",
      simples_regime: null,
      national_code: "100501",
      nbs_code: "118069000",
      municipal_code: null,
      description: "Intermediação de serviços",
      iss_rate_bps: 200,
      environment,
      certificate_sealed: "sealed-certificate",
      password_sealed: "sealed-password",
      certificate_expires_at: "2027-11-28T00:00:00.000Z",
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A fresh chave de acesso (50 digits). */
export const accessKey = () => Array.from({ length: 50 }, () => randomInt(10)).join("");

type NotaSeed = Partial<Omit<NfseDocumentsTable, "status" | "attempts">> & {
  kind: "fee" | "service";
  issuer_id: string;
  contract_id: string;
  milestone_id: string;
  taker_user_id: string;
  status?: NfseStatus;
  attempts?: number;
};

/** One nota; an issued one gets a chave, a number and its XML unless told otherwise. */
export async function insertNota(seed: NotaSeed) {
  const at = seed.created_at ?? new Date().toISOString();
  const status = seed.status ?? "pending";
  const issued = status === "issued";
  const key = seed.access_key !== undefined ? seed.access_key : issued ? accessKey() : null;
  return db
    .insertInto("nfse_documents")
    .values({
      id: randomUUID(),
      provider_user_id: null,
      taker_document: "52998224725",
      taker_name: "Tomador de Teste",
      amount_cents: 30_000,
      competence: at.slice(0, 10),
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
      nfse_number: issued ? String(randomInt(1, 1_000_000)) : null,
      xml: issued ? `<NFSe><infNFSe Id="NFS${key}"><nNFSe>1</nNFSe></infNFSe></NFSe>` : null,
      issued_at: issued ? at : null,
      ...seed,
      access_key: key,
      status,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
