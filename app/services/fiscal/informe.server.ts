import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { formatMoney } from "~/lib/money";
import { db } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { saoPauloStart } from "../operator/audit.server";
import { csvText, reais } from "../payments/finance.server";
import { AppError } from "../platform/errors.server";
import { assertId } from "../platform/records.server";
import { NOTA_STATUS_PT } from "./nota-views.server";

// The informe de rendimentos (docs/payments.md, "Notas fiscais"): per calendar year in Brasília,
// what was released to a freelancer (gross, the platform's fees, net) per month and in all, from
// the ledger, and the notas issued for them (the platform's fee notas) and in their name. As JSON,
// CSV and PDF (pdf-lib, docs/decisions/045-pdf-lib.md). The freelancer asks for their own; the
// operator for anyone's.

/** The first year an informe can be asked for (Freela's payments began later). */
export const FIRST_INFORME_YEAR = 2020;

/** The current calendar year in Brasília (UTC−3, without summer time). */
export const currentYear = (at = Date.now()) => new Date(at - 3 * 3_600_000).getUTCFullYear();

/** A year from a path: four digits, from FIRST_INFORME_YEAR to this one (anything else: 400). */
export function parseYear(value: string | undefined): number {
  const year = /^\d{4}$/.test(value ?? "") ? Number(value) : NaN;
  if (!(year >= FIRST_INFORME_YEAR && year <= currentYear())) {
    throw new AppError(400, "informe_year_invalid", undefined, { first: FIRST_INFORME_YEAR, last: currentYear() });
  }
  return year;
}

export type InformeMonth = { month: number; gross_cents: number; fee_cents: number; net_cents: number };

export type Informe = {
  year: number;
  freelancer: { id: string; name: string };
  months: InformeMonth[];
  total: Omit<InformeMonth, "month">;
  notas: {
    id: string;
    kind: "fee" | "service";
    status: string;
    competence: string;
    amount_cents: number;
    nfse_number: string | null;
    access_key: string | null;
  }[];
};

const startOf = (year: number) => saoPauloStart(`${year}-01-01`);
/** The month (1–12) of an instant in Brasília. */
const monthOf = (iso: string) => new Date(Date.parse(iso) - 3 * 3_600_000).getUTCMonth() + 1;

/**
 * The informe of `freelancerId` for `year`. Releases are the ledger's release and split
 * transactions of the freelancer: the gross is what left escrow to them and the fees, the fee
 * what went to `fees`, the net what reached their balance. Two statements.
 */
export async function getInforme(freelancerId: string, year: number): Promise<Informe> {
  assertId(freelancerId, "user_not_found");
  const user = await db
    .selectFrom("users")
    .select(["id", "full_name"])
    .where("id", "=", freelancerId)
    .where("account_type", "=", "freelancer")
    .executeTakeFirst();
  if (!user) throw new AppError(404, "user_not_found");
  const [entries, notas] = await Promise.all([
    db
      .selectFrom("ledger_entries as e")
      .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
      .select(["t.created_at", "e.account", "e.amount_cents"])
      .where("t.freelancer_id", "=", user.id)
      .where("t.kind", "in", ["release", "split"])
      .where("t.created_at", ">=", startOf(year))
      .where("t.created_at", "<", startOf(year + 1))
      .where("e.amount_cents", ">", 0)
      .where((eb) => eb.or([eb("e.account", "=", "fees"), eb("e.account", "=", `available:${user.id}`)]))
      .execute(),
    db
      .selectFrom("nfse_documents as n")
      .select(["n.id", "n.kind", "n.status", "n.competence", "n.amount_cents", "n.nfse_number", "n.access_key"])
      .where((eb) =>
        eb.or([
          eb.and([eb("n.kind", "=", "fee"), eb("n.taker_user_id", "=", user.id)]),
          eb.and([eb("n.kind", "=", "service"), eb("n.provider_user_id", "=", user.id)]),
        ]),
      )
      .where("n.status", "=", "issued")
      .where("n.competence", ">=", `${year}-01-01`)
      .where("n.competence", "<", `${year + 1}-01-01`)
      .orderBy("n.competence")
      .orderBy("n.id")
      .execute(),
  ]);
  const months: InformeMonth[] = Array.from({ length: 12 }, (_, i) => ({
    month: i + 1,
    gross_cents: 0,
    fee_cents: 0,
    net_cents: 0,
  }));
  for (const e of entries) {
    const m = months[monthOf(e.created_at) - 1];
    const cents = Number(e.amount_cents);
    if (e.account === "fees") m.fee_cents += cents;
    else m.net_cents += cents;
    m.gross_cents += cents;
  }
  const total = { gross_cents: 0, fee_cents: 0, net_cents: 0 };
  for (const m of months) {
    total.gross_cents += m.gross_cents;
    total.fee_cents += m.fee_cents;
    total.net_cents += m.net_cents;
  }
  return {
    year,
    freelancer: { id: user.id, name: user.full_name },
    months,
    total,
    notas: notas.map((n) => ({
      ...n,
      status: NOTA_STATUS_PT[n.status],
      amount_cents: Number(n.amount_cents),
    })),
  };
}

/** The informe the user may read: their own (a freelancer), anyone's (an operator). */
export function informeFor(user: UserRow, freelancerId: string, year: string | undefined) {
  const y = parseYear(year);
  if (user.account_type !== "operator" && user.id !== freelancerId) throw new AppError(404, "user_not_found");
  return getInforme(freelancerId, y);
}

const MONTHS = [
  "janeiro",
  "fevereiro",
  "março",
  "abril",
  "maio",
  "junho",
  "julho",
  "agosto",
  "setembro",
  "outubro",
  "novembro",
  "dezembro",
];
const KIND = { fee: "taxa da plataforma (tomador: você)", service: "sua nota (prestador: você)" };
const brl = (cents: number) => formatMoney(cents, "pt-BR");

/** The informe as CSV: the months and the total, then the notas (semicolons, decimal commas). */
export function informeCsv(informe: Informe): string {
  return csvText([
    [`informe de rendimentos ${informe.year}`, informe.freelancer.name],
    ["mês", "bruto liberado", "taxas", "líquido"],
    ...informe.months.map((m) => [MONTHS[m.month - 1], reais(m.gross_cents), reais(m.fee_cents), reais(m.net_cents)]),
    ["total", reais(informe.total.gross_cents), reais(informe.total.fee_cents), reais(informe.total.net_cents)],
    [],
    ["notas emitidas", "competência", "valor", "número", "chave de acesso", "situação"],
    ...informe.notas.map((n) => [
      KIND[n.kind],
      n.competence,
      reais(n.amount_cents),
      n.nfse_number ?? "",
      n.access_key ?? "",
      n.status,
    ]),
  ]);
}

/** The informe as a PDF of A4 pages (Helvetica, the standard fonts: Latin-1 text). */
export async function informePdf(informe: Informe): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Informe de rendimentos ${informe.year}`);
  pdf.setCreator("Freela");
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // What the standard fonts cannot draw (outside Latin-1) becomes "?".
  const latin1 = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
  let page = pdf.addPage([595, 842]);
  let y = 790;
  const line = (cells: string[], xs: number[], { strong = false, size = 10 } = {}) => {
    if (y < 60) {
      page = pdf.addPage([595, 842]);
      y = 790;
    }
    cells.forEach((cell, i) =>
      page.drawText(latin1(cell), { x: xs[i], y, size, font: strong ? bold : font, color: rgb(0.1, 0.1, 0.1) }),
    );
    y -= size + 8;
  };
  line([`Informe de rendimentos ${informe.year}`], [50], { strong: true, size: 16 });
  line([informe.freelancer.name], [50], { size: 12 });
  line(["Valores liberados a você pela Freela, por mês (horário de Brasília)."], [50], { size: 9 });
  y -= 6;
  const cols = [50, 200, 330, 450];
  line(["Mês", "Bruto liberado", "Taxas", "Líquido"], cols, { strong: true });
  for (const m of informe.months) {
    line([MONTHS[m.month - 1], brl(m.gross_cents), brl(m.fee_cents), brl(m.net_cents)], cols);
  }
  const t = informe.total;
  line(["Total", brl(t.gross_cents), brl(t.fee_cents), brl(t.net_cents)], cols, { strong: true });
  y -= 12;
  line(["Notas fiscais emitidas"], [50], { strong: true, size: 12 });
  if (informe.notas.length === 0) line(["Nenhuma nota emitida neste ano."], [50], { size: 9 });
  for (const n of informe.notas) {
    line([n.competence, KIND[n.kind], brl(n.amount_cents), `nº ${n.nfse_number ?? "-"}`], [50, 120, 330, 430], {
      size: 9,
    });
    if (n.access_key) line([`chave ${n.access_key}`], [120], { size: 8 });
  }
  return Buffer.from(await pdf.save());
}
