import { sql } from "kysely";
import { z } from "zod";
import { optionalDate, optionalEnum } from "~/lib/admin-schemas";
import { pageQuerySchema } from "~/lib/market-schemas";
import { NFSE_KINDS, NFSE_STATUSES } from "~/lib/nfse";
import { db } from "../../../db";
import type { NfseKind, NfseStatus, UserRow } from "../../../db/schema";
import { nextDay, operatorActor, recordAudit, saoPauloStart } from "../operator/audit.server";
import { csvText, localMoment, reais } from "../payments/finance.server";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { danfseUrl } from "./links.server";

// Reading the notas fiscais (docs/payments.md, "Notas fiscais"): the freelancer's in
// /financeiro/notas (the platform's fee notas to them and their own, issued in their name), the
// merchant's on the contract's page (the freelancer's notas to them), the operator's queue in
// /admin/notas; the XML as the Sefin returned it; "emitir de novo" for a rejected or failed one.
// Issuing itself is notas.server.ts's; this file only reads and puts a nota back in the queue.

/** The statuses "emitir de novo" applies to. */
const REISSUABLE: NfseStatus[] = ["rejected", "failed"];

export type NotaJson = {
  id: string;
  kind: NfseKind;
  status: NfseStatus;
  contract: { id: string; title: string };
  milestone: string | null;
  amount_cents: number;
  /** The settlement's date in Brasília (YYYY-MM-DD). */
  competence: string;
  created_at: string;
  issued_at: string | null;
  access_key: string | null;
  nfse_number: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The DANFSe (PDF) at the ADN, once issued. */
  danfse_url: string | null;
  has_xml: boolean;
  /** 'platform' for the platform's fee notas, else the freelancer who issues it. */
  issuer: string;
  taker_name: string | null;
};

/** The notas with their contract's title, milestone and issuer's environment. */
function notasSelect() {
  return db
    .selectFrom("nfse_documents as n")
    .innerJoin("contracts as c", "c.id", "n.contract_id")
    .innerJoin("opportunities as o", "o.id", "c.opportunity_id")
    .innerJoin("milestones as m", "m.id", "n.milestone_id")
    .innerJoin("fiscal_issuers as i", "i.id", "n.issuer_id")
    .select([
      "n.id",
      "n.kind",
      "n.status",
      "n.contract_id",
      "o.title as contract_title",
      "m.title as milestone_title",
      "n.amount_cents",
      "n.competence",
      "n.created_at",
      "n.issued_at",
      "n.access_key",
      "n.nfse_number",
      "n.error_code",
      "n.error_message",
      "i.environment",
      "i.owner as issuer",
      "n.taker_name",
      sql<number>`CASE WHEN n.xml IS NULL THEN 0 ELSE 1 END`.as("has_xml"),
    ]);
}

type NotaRow = Awaited<ReturnType<ReturnType<typeof notasSelect>["execute"]>>[number];

function toNotaJson(r: NotaRow): NotaJson {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    contract: { id: r.contract_id, title: r.contract_title },
    milestone: r.milestone_title,
    amount_cents: Number(r.amount_cents),
    competence: r.competence,
    created_at: r.created_at,
    issued_at: r.issued_at,
    access_key: r.access_key,
    nfse_number: r.nfse_number,
    error_code: r.error_code,
    error_message: r.error_message,
    danfse_url: r.status === "issued" && r.access_key ? danfseUrl(r.environment, r.access_key) : null,
    has_xml: Number(r.has_xml) === 1,
    issuer: r.issuer,
    taker_name: r.taker_name,
  };
}

type Viewer = Pick<UserRow, "id" | "account_type">;

/**
 * The notas a user is a party to, as a WHERE: a freelancer's are the platform's fee notas to
 * them and their own (issued in their name); a merchant's, the freelancers' notas to them.
 */
function partyOf(user: Viewer) {
  return <Q extends ReturnType<typeof notasSelect>>(qb: Q): Q =>
    (user.account_type === "freelancer"
      ? qb.where((eb) =>
          eb.or([
            eb.and([eb("n.kind", "=", "fee"), eb("n.taker_user_id", "=", user.id)]),
            eb.and([eb("n.kind", "=", "service"), eb("n.provider_user_id", "=", user.id)]),
          ]),
        )
      : qb.where("n.kind", "=", "service").where("n.taker_user_id", "=", user.id)) as Q;
}

const PER_PAGE = 25;

export type NotaListJson = { data: NotaJson[]; meta: PageMeta };

/** The user's notas, newest first (`?page=`): two statements, the page and its count. */
export async function listMyNotas(user: Viewer, query: unknown = {}): Promise<NotaListJson> {
  const { page } = parseInput(pageQuerySchema.pick({ page: true }), query);
  const mine = notasSelect().$call(partyOf(user));
  const [rows, counted] = await Promise.all([
    mine
      .orderBy("n.created_at", "desc")
      .orderBy("n.id", "desc")
      .limit(PER_PAGE)
      .offset(offsetOf(page, PER_PAGE))
      .execute(),
    db
      .selectFrom(mine.clearSelect().select("n.id").as("mine"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toNotaJson), meta: pageMeta(page, PER_PAGE, Number(counted.n)) };
}

/** The merchant's notas of one contract (the freelancer's to them), oldest first: one statement. */
export async function contractNotas(user: Viewer, contractId: string): Promise<NotaJson[]> {
  if (user.account_type !== "merchant") return [];
  const rows = await notasSelect()
    .$call(partyOf(user))
    .where("n.contract_id", "=", contractId)
    .orderBy("n.created_at")
    .orderBy("n.id")
    .execute();
  return rows.map(toNotaJson);
}

/** One of the user's notas (404 for anyone who is not its provider or taker). */
async function findMine(user: Viewer, id: string) {
  assertId(id, "nota_not_found");
  const row = await db
    .selectFrom("nfse_documents as n")
    .select(["n.id", "n.kind", "n.status", "n.access_key", "n.xml", "n.provider_user_id", "n.taker_user_id"])
    .where("n.id", "=", id)
    .where((eb) => eb.or([eb("n.provider_user_id", "=", user.id), eb("n.taker_user_id", "=", user.id)]))
    .executeTakeFirst();
  if (!row) throw new AppError(404, "nota_not_found");
  return row;
}

/** The nota's XML as the Sefin returned it, named after its chave (404 while it has none). */
export async function notaXml(user: Viewer, id: string): Promise<{ name: string; xml: string }> {
  const row = await findMine(user, id);
  if (!row.xml) throw new AppError(404, "nota_xml_missing");
  return { name: `${row.access_key ?? row.id}.xml`, xml: row.xml };
}

/**
 * "Emitir de novo": a rejected or failed nota goes back to the queue, at once, with its attempts
 * and error cleared (its DPS series and number are kept: the same DPS is sent again). The
 * precondition is in the WHERE: of two at once, one wins, the other gets 409. The operator may
 * do it to any nota; a freelancer to their own ('service') ones. Audited in the same transaction.
 */
export async function reissueNota(actor: UserRow, id: string): Promise<NotaJson> {
  const operator = actor.account_type === "operator";
  if (!operator) {
    const row = await findMine(actor, id);
    if (row.kind !== "service" || row.provider_user_id !== actor.id) throw new AppError(404, "nota_not_found");
  } else assertId(id, "nota_not_found");
  const at = now();
  const updated = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("nfse_documents")
      .set({
        status: "pending",
        next_attempt_at: at,
        attempts: 0,
        error_code: null,
        error_message: null,
        claim: null,
        locked_until: null,
        updated_at: at,
      })
      .where("id", "=", id)
      .where("status", "in", REISSUABLE)
      .returning(["id", "status"])
      .executeTakeFirst();
    if (!row) return null;
    await recordAudit(
      trx,
      operatorActor(actor),
      { action: "nota.reissue", target_type: "nota", target_id: id, after: { status: "pending" } },
      at,
    );
    return row;
  });
  if (!updated) {
    const exists = await db.selectFrom("nfse_documents").select("id").where("id", "=", id).executeTakeFirst();
    throw exists ? new AppError(409, "nota_not_reissuable") : new AppError(404, "nota_not_found");
  }
  const [nota] = await notasSelect().where("n.id", "=", id).execute();
  return toNotaJson(nota);
}

// ---------------------------------------------------------------------------------------------
// The operator's queue

export const ADMIN_NOTAS_PER_PAGE = 50;
/** The queue's filters, as the page, its CSV and the API read them. */
export const NOTAS_FILTERS = ["status", "kind", "issuer", "from", "to", "page"] as const;
/** The CSV holds at most this many notas (the newest). */
export const NOTAS_CSV_MAX = 10_000;

export const adminNotasQuerySchema = pageQuerySchema.pick({ page: true }).extend({
  status: optionalEnum(NFSE_STATUSES as [NfseStatus, ...NfseStatus[]], "nota_status_invalid"),
  kind: optionalEnum(NFSE_KINDS as [NfseKind, ...NfseKind[]], "nota_kind_invalid"),
  issuer: optionalEnum(["platform", "freelancers"], "nota_issuer_invalid"),
  from: optionalDate("date_invalid"),
  to: optionalDate("date_invalid"),
});
type AdminNotasQuery = z.infer<typeof adminNotasQuerySchema>;

/** The filters but the status (the counts per status are of the rest). */
function filtered(q: AdminNotasQuery) {
  return notasSelect()
    .$if(q.kind !== undefined, (qb) => qb.where("n.kind", "=", q.kind!))
    .$if(q.issuer === "platform", (qb) => qb.where("i.owner", "=", "platform"))
    .$if(q.issuer === "freelancers", (qb) => qb.where("i.owner", "<>", "platform"))
    .$if(q.from !== undefined, (qb) => qb.where("n.created_at", ">=", saoPauloStart(q.from!)))
    .$if(q.to !== undefined, (qb) => qb.where("n.created_at", "<", saoPauloStart(nextDay(q.to!))));
}

export type AdminNotaListJson = NotaListJson & { counts: Record<NfseStatus, number> };

/**
 * The queue, newest first, filtered by status, kind, issuer (the platform or the freelancers)
 * and São Paulo dates of creation (both included), with the counts per status of the other
 * filters: three statements.
 */
export async function listAdminNotas(query: unknown): Promise<AdminNotaListJson> {
  const q = parseInput(adminNotasQuerySchema, query);
  const rest = filtered(q);
  const shown = rest.$if(q.status !== undefined, (qb) => qb.where("n.status", "=", q.status!));
  const [rows, byStatus] = await Promise.all([
    shown
      .orderBy("n.created_at", "desc")
      .orderBy("n.id", "desc")
      .limit(ADMIN_NOTAS_PER_PAGE)
      .offset(offsetOf(q.page, ADMIN_NOTAS_PER_PAGE))
      .execute(),
    rest
      .clearSelect()
      .select(["n.status", (eb) => eb.fn.countAll<number>().as("count")])
      .groupBy("n.status")
      .execute(),
  ]);
  const counts = Object.fromEntries(NFSE_STATUSES.map((s) => [s, 0])) as Record<NfseStatus, number>;
  for (const r of byStatus) counts[r.status] = Number(r.count);
  const total = q.status ? counts[q.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  return { data: rows.map(toNotaJson), meta: pageMeta(q.page, ADMIN_NOTAS_PER_PAGE, total), counts };
}

/** The status of a nota as the CSV and the informe write it (Portuguese). */
export const NOTA_STATUS_PT: Record<NfseStatus, string> = {
  pending: "pendente",
  issuing: "emitindo",
  issued: "emitida",
  rejected: "recusada",
  failed: "falhou",
  cancelled: "cancelada",
};
const KIND_PT: Record<NfseKind, string> = { fee: "taxa da plataforma", service: "serviço do freelancer" };

/** The filtered queue as CSV (as /financeiro's: semicolons, decimal commas, formulas kept as text). */
export async function adminNotasCsv(query: unknown): Promise<string> {
  const q = parseInput(adminNotasQuerySchema, query);
  const rows = await filtered(q)
    .$if(q.status !== undefined, (qb) => qb.where("n.status", "=", q.status!))
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .limit(NOTAS_CSV_MAX)
    .execute();
  return csvText([
    [
      "criada em (horário de Brasília)",
      "competência",
      "tipo",
      "emitente",
      "tomador",
      "contrato",
      "valor",
      "situação",
      "número",
      "chave de acesso",
      "código do erro",
      "mensagem do erro",
      "nota",
    ],
    ...rows.map((r) => [
      localMoment(r.created_at),
      r.competence,
      KIND_PT[r.kind],
      r.issuer === "platform" ? "plataforma" : r.issuer,
      r.taker_name ?? "",
      r.contract_title,
      reais(Number(r.amount_cents)),
      NOTA_STATUS_PT[r.status],
      r.nfse_number ?? "",
      r.access_key ?? "",
      r.error_code ?? "",
      r.error_message ?? "",
      r.id,
    ]),
  ]);
}
