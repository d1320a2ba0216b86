import { sql, type Kysely } from "kysely";

// Notas fiscais (docs/payments.md, "Notas fiscais"):
// - fiscal_issuers: who issues NFS-e through Freela: the platform (owner 'platform', for its fees)
//   and freelancers who asked Freela to issue theirs (owner = their user id). Their fiscal data,
//   the A1 certificate (PFX, base64) and its password sealed for the owner (never shown again),
//   the certificate's expiry, and the DPS series with the next number to give: a number is taken
//   once, by one nota, in the same statement that advances it. `enabled`: a freelancer's "emitir
//   minhas notas" (the platform's is on while its settings exist). `version` grows with each write.
//   One issuer per CNPJ: the DPS id is made of the CNPJ, the series and the number, so two issuers
//   of one CNPJ would give the same ids.
// - nfse_documents: one nota per milestone settlement and kind ('fee': the platform's, for the fee,
//   to the freelancer; 'service': the freelancer's own, for the amount released, to the merchant),
//   unique per (milestone, kind), written in the settlement's transaction. Issued in the background
//   like the e-mail outbox (claim, lease, attempts, backoff); its DPS series and number are given at
//   its first attempt and kept, so a retry sends the same DPS and never issues twice. What the Sefin
//   answered is kept: chave de acesso, number, the XML as returned, or the error's code and text.
// - contracts.taker_document / taker_name: the merchant's CPF/CNPJ for the freelancer's own notas,
//   asked for at funding when the freelancer issues theirs and the merchant has no verified identity.

async function create(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema
    .createTable("fiscal_issuers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull().unique())
    .addColumn("cnpj", "text", (c) => c.notNull().unique())
    .addColumn("legal_name", "text", (c) => c.notNull())
    .addColumn("municipal_registration", "text")
    .addColumn("municipality", "text", (c) => c.notNull())
    .addColumn("simples_nacional", "text", (c) =>
      c.notNull().check(sql`simples_nacional IN ('nao_optante', 'mei', 'me_epp')`),
    )
    .addColumn("simples_regime", "integer")
    .addColumn("national_code", "text", (c) => c.notNull())
    .addColumn("nbs_code", "text", (c) => c.notNull())
    .addColumn("municipal_code", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("iss_rate_bps", "integer")
    .addColumn("environment", "text", (c) => c.notNull().check(sql`environment IN ('producao_restrita', 'producao')`))
    .addColumn("certificate_sealed", "text", (c) => c.notNull())
    .addColumn("password_sealed", "text", (c) => c.notNull())
    .addColumn("certificate_expires_at", "text", (c) => c.notNull())
    .addColumn("series", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("next_number", money, (c) => c.notNull().defaultTo(1))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("nfse_documents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind IN ('fee', 'service')`))
    .addColumn("issuer_id", "text", (c) => c.notNull().references("fiscal_issuers.id"))
    .addColumn("milestone_id", "text", (c) => c.notNull().references("milestones.id"))
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id"))
    .addColumn("provider_user_id", "text")
    .addColumn("taker_user_id", "text", (c) => c.notNull())
    .addColumn("taker_document", "text")
    .addColumn("taker_name", "text")
    .addColumn("amount_cents", money, (c) => c.notNull())
    .addColumn("competence", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'issuing', 'issued', 'rejected', 'failed', 'cancelled')`),
    )
    .addColumn("series", "integer")
    .addColumn("number", money)
    .addColumn("dps_id", "text", (c) => c.unique())
    .addColumn("access_key", "text", (c) => c.unique())
    .addColumn("nfse_number", "text")
    .addColumn("xml", "text")
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claim", "text")
    .addColumn("locked_until", "text")
    .addColumn("issued_at", "text")
    .addColumn("cancelled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("nfse_documents_one_per_milestone", ["milestone_id", "kind"])
    .execute();
  await db.schema
    .createIndex("nfse_documents_due")
    .on("nfse_documents")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("nfse_documents_provider")
    .on("nfse_documents")
    .columns(["provider_user_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("nfse_documents_taker")
    .on("nfse_documents")
    .columns(["taker_user_id", "created_at"])
    .execute();
  await db.schema.createIndex("nfse_documents_contract").on("nfse_documents").column("contract_id").execute();
  await db.schema
    .createIndex("nfse_documents_issuer")
    .on("nfse_documents")
    .columns(["issuer_id", "created_at"])
    .execute();

  await db.schema.alterTable("contracts").addColumn("taker_document", "text").execute();
  await db.schema.alterTable("contracts").addColumn("taker_name", "text").execute();
}

async function drop(db: Kysely<any>) {
  await db.schema.alterTable("contracts").dropColumn("taker_name").execute();
  await db.schema.alterTable("contracts").dropColumn("taker_document").execute();
  await db.schema.dropTable("nfse_documents").execute();
  await db.schema.dropTable("fiscal_issuers").execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await create(db, "integer");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await drop(db);
}

export const postgres = {
  async up(db: Kysely<unknown>) {
    await create(db, "bigint");
  },
  async down(db: Kysely<unknown>) {
    await drop(db);
  },
};
