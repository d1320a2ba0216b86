import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { approveContract } from "~/services/contracts/contracts.server";
import { getInforme, informeCsv, informePdf, parseYear } from "~/services/fiscal/informe.server";
import {
  adminNotasCsv,
  contractNotas,
  listAdminNotas,
  listMyNotas,
  notaXml,
  reissueNota,
} from "~/services/fiscal/nota-views.server";
import { AppError } from "~/services/platform/errors.server";
import { freelancer, merchant, outcome } from "../support/market";
import { createUser } from "../../db/factories";
import { fiscalIssuer, insertNota } from "../support/fiscal-notas";
import { deliver, escrow, fund, hired, milestonesOf } from "../payments/support";
import { auditRows } from "../operator/support";

// Reading the notas fiscais: who sees which, the XML, "emitir de novo", the operator's CSV and
// the informe de rendimentos.

beforeAll(() => escrow(1_000));
afterEach(() => {
  config.NFSE_ADN_URL = undefined;
});

/** A hired contract with its first milestone, a platform fee nota and the freelancer's own nota. */
async function contractWithNotas(fee: Parameters<typeof insertNota>[0]["status"] = "issued", own = fee) {
  const { owner, applicant, id } = await hired();
  const [milestone] = await milestonesOf(id);
  const platform = await fiscalIssuer("platform");
  const theirs = await fiscalIssuer(applicant.id);
  const feeNota = await insertNota({
    kind: "fee",
    issuer_id: platform.id,
    contract_id: id,
    milestone_id: milestone.id,
    taker_user_id: applicant.id,
    status: fee,
  });
  const serviceNota = await insertNota({
    kind: "service",
    issuer_id: theirs.id,
    contract_id: id,
    milestone_id: milestone.id,
    provider_user_id: applicant.id,
    taker_user_id: owner.id,
    amount_cents: 270_000,
    status: own,
  });
  return { owner, applicant, id, feeNota, serviceNota };
}

describe("who sees which nota", () => {
  it("the freelancer sees both kinds, the merchant only the freelancer's notas to them, others nothing", async () => {
    const { owner, applicant, id, feeNota, serviceNota } = await contractWithNotas();
    const [otherFreelancer, otherMerchant] = await Promise.all([freelancer(), merchant()]);

    const mine = await listMyNotas(applicant);
    expect(mine.data.map((n) => n.id).sort()).toEqual([feeNota.id, serviceNota.id].sort());
    expect(mine.meta.total).toBe(2);
    const theirs = await listMyNotas(owner);
    expect(theirs.data.map((n) => n.id)).toEqual([serviceNota.id]);
    expect(theirs.data[0]).toMatchObject({ kind: "service", amount_cents: 270_000, contract: { id } });
    expect((await listMyNotas(otherFreelancer)).data).toEqual([]);
    expect((await listMyNotas(otherMerchant)).data).toEqual([]);

    // On the contract's page: the merchant's notas of it; the freelancer's list is elsewhere.
    expect((await contractNotas(owner, id)).map((n) => n.id)).toEqual([serviceNota.id]);
    expect(await contractNotas(applicant, id)).toEqual([]);
    expect(await contractNotas(otherMerchant, id)).toEqual([]);
  });

  it("the XML goes to the nota's provider or taker only; 404 for anyone else and for a nota without XML", async () => {
    const { owner, applicant, feeNota, serviceNota } = await contractWithNotas();
    const outsider = await freelancer();
    expect((await notaXml(applicant, feeNota.id)).xml).toBe(feeNota.xml);
    expect((await notaXml(applicant, feeNota.id)).name).toBe(`${feeNota.access_key}.xml`);
    expect((await notaXml(owner, serviceNota.id)).xml).toBe(serviceNota.xml);
    expect(await outcome(notaXml(owner, feeNota.id))).toBe(404);
    expect(await outcome(notaXml(outsider, serviceNota.id))).toBe(404);
    expect(await outcome(notaXml(applicant, "not-a-uuid"))).toBe(404);
    const pending = await contractWithNotas("pending");
    expect(await outcome(notaXml(pending.applicant, pending.feeNota.id))).toBe(404);
  });

  it("links an issued nota to its DANFSe at the ADN of its environment, or at NFSE_ADN_URL", async () => {
    const { applicant, feeNota } = await contractWithNotas();
    const link = () => listMyNotas(applicant).then((l) => l.data.find((n) => n.id === feeNota.id)!.danfse_url);
    expect(await link()).toBe(`https://adn.producaorestrita.nfse.gov.br/danfse/${feeNota.access_key}`);
    config.NFSE_ADN_URL = "https://adn.example.test/danfse/";
    expect(await link()).toBe(`https://adn.example.test/danfse/${feeNota.access_key}`);
    const pending = await contractWithNotas("pending");
    expect((await listMyNotas(pending.applicant)).data.every((n) => n.danfse_url === null)).toBe(true);
  });
});

describe("emitir de novo", () => {
  it("puts a rejected nota back in the queue with its error cleared, audited; 409 once it is not rejected or failed", async () => {
    const { feeNota } = await contractWithNotas("rejected");
    await db
      .updateTable("nfse_documents")
      .set({ error_code: "E0312", error_message: "CNPJ do prestador inválido", attempts: 3, claim: "x" })
      .where("id", "=", feeNota.id)
      .execute();
    const operator = await createUser(db, { account_type: "operator" });
    const nota = await reissueNota(operator, feeNota.id);
    expect(nota).toMatchObject({ status: "pending", error_code: null, error_message: null });
    const row = await db
      .selectFrom("nfse_documents")
      .selectAll()
      .where("id", "=", feeNota.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 0, claim: null, error_code: null });
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(Date.now() - 60_000);
    const audit = (await auditRows()).filter((a) => a.target_id === feeNota.id);
    expect(audit).toMatchObject([{ action: "nota.reissue", target_type: "nota", actor_id: operator.id }]);

    expect(await outcome(reissueNota(operator, feeNota.id))).toBe(409);
    const issued = await contractWithNotas("issued");
    expect(await outcome(reissueNota(operator, issued.feeNota.id))).toBe(409);
    expect(await outcome(reissueNota(operator, "00000000-0000-4000-8000-000000000000"))).toBe(404);
  });

  it("lets the freelancer reissue their own notas only: not the platform's, not another's; the merchant none", async () => {
    const { owner, applicant, feeNota, serviceNota } = await contractWithNotas("failed");
    const outsider = await freelancer();
    expect(await outcome(reissueNota(applicant, feeNota.id))).toBe(404);
    expect(await outcome(reissueNota(owner, serviceNota.id))).toBe(404);
    expect(await outcome(reissueNota(outsider, serviceNota.id))).toBe(404);
    expect((await reissueNota(applicant, serviceNota.id)).status).toBe("pending");
  });

  it("has one winner under a burst of parallel reissues; the others get 409", async () => {
    const { feeNota } = await contractWithNotas("failed");
    const operator = await createUser(db, { account_type: "operator" });
    const statuses = await Promise.all(Array.from({ length: 8 }, () => outcome(reissueNota(operator, feeNota.id))));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect((await auditRows()).filter((a) => a.target_id === feeNota.id)).toHaveLength(1);
  });
});

describe("the operator's queue", () => {
  it("filters by status, kind and issuer, counts per status, and writes hostile text as text in the CSV", async () => {
    const { id, feeNota, serviceNota } = await contractWithNotas("rejected", "issued");
    await db
      .updateTable("nfse_documents")
      .set({ error_code: "+E1", error_message: '=HYPERLINK("http://mal.example","clique")', taker_name: "@SOMA(1;2)" })
      .where("id", "=", feeNota.id)
      .execute();
    const contract = await db
      .selectFrom("contracts")
      .select("opportunity_id")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable("opportunities")
      .set({ title: "-2+3 design" })
      .where("id", "=", contract.opportunity_id)
      .execute();

    const rejected = await listAdminNotas({ status: "rejected", kind: "fee", issuer: "platform" });
    expect(rejected.data.map((n) => n.id)).toContain(feeNota.id);
    expect(rejected.data.every((n) => n.status === "rejected" && n.kind === "fee")).toBe(true);
    expect(rejected.counts.rejected).toBe(rejected.meta.total);
    const freelancers = await listAdminNotas({ issuer: "freelancers" });
    expect(freelancers.data.map((n) => n.id)).toContain(serviceNota.id);
    expect(freelancers.data.map((n) => n.id)).not.toContain(feeNota.id);
    const future = await listAdminNotas({ from: "2099-01-01" });
    expect(future.meta.total).toBe(0);
    expect(await outcome(listAdminNotas({ status: "bogus" }))).toBe(422);

    const csv = await adminNotasCsv({ status: "rejected", issuer: "platform" });
    const line = csv.split("\r\n").find((l) => l.includes(feeNota.id))!;
    expect(line).toContain(`"'=HYPERLINK(""http://mal.example"",""clique"")"`);
    expect(line).toContain(";'+E1;");
    expect(line).toContain(`;"'@SOMA(1;2)";`);
    expect(line).toContain(";'-2+3 design;");
    expect(line).toContain(";recusada;");
    expect(csv.startsWith("\ufeffcriada em")).toBe(true);
  });
});

describe("the informe de rendimentos", () => {
  it("adds up the year's releases per month in Brasília (gross, fee, net) and lists the notas issued", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    // Released at 23:30 of 31 December 2024 in Brasília (02:30 of 1 January 2025 in UTC): 2024's.
    // The ledger is append-only: the clock is set when the release is written.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2025-01-01T02:30:00.000Z"));
    try {
      await approveContract(owner, id);
    } finally {
      vi.useRealTimers();
    }
    const [milestone] = await milestonesOf(id);
    const platform = await fiscalIssuer("platform");
    // The release enqueued its own fee nota when the platform's issuer was already there: an
    // issued one stands in its place.
    await db.deleteFrom("nfse_documents").where("milestone_id", "=", milestone.id).execute();
    const nota = await insertNota({
      kind: "fee",
      issuer_id: platform.id,
      contract_id: id,
      milestone_id: milestone.id,
      taker_user_id: applicant.id,
      status: "issued",
      competence: "2024-12-31",
      amount_cents: 30_000,
    });

    const y2024 = await getInforme(applicant.id, 2024);
    expect(y2024.total).toEqual({ gross_cents: 300_000, fee_cents: 30_000, net_cents: 270_000 });
    expect(y2024.months[11]).toEqual({ month: 12, gross_cents: 300_000, fee_cents: 30_000, net_cents: 270_000 });
    expect(y2024.months.slice(0, 11).every((m) => m.gross_cents === 0)).toBe(true);
    expect(y2024.notas).toMatchObject([{ id: nota.id, kind: "fee", amount_cents: 30_000, status: "emitida" }]);
    const y2025 = await getInforme(applicant.id, 2025);
    expect(y2025.total).toEqual({ gross_cents: 0, fee_cents: 0, net_cents: 0 });
    expect(y2025.notas).toEqual([]);

    const csv = informeCsv(y2024).split("\r\n");
    expect(csv).toContain(`dezembro;"3000,00";"300,00";"2700,00"`);
    expect(csv).toContain(`total;"3000,00";"300,00";"2700,00"`);
    expect(csv.some((l) => l.includes(nota.access_key!))).toBe(true);
    const pdf = await informePdf(y2024);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(1000);
  });

  it("refuses a year that is not one (400) and a user who is no freelancer (404)", async () => {
    for (const year of ["abc", "1800", "3000", "20245", "", "2024.5"]) {
      expect(() => parseYear(year), year).toThrow(AppError);
      try {
        parseYear(year);
      } catch (error) {
        expect((error as AppError).status).toBe(400);
      }
    }
    expect(parseYear("2024")).toBe(2024);
    const m = await merchant();
    expect(await outcome(getInforme(m.id, 2024))).toBe(404);
    expect(await outcome(getInforme("x", 2024))).toBe(404);
  });
});
