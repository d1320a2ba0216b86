import { beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/accounts/sessions.server";
import * as myNotasApi from "~/routes/api+/fiscal+/notas._index";
import * as xmlApi from "~/routes/api+/fiscal+/notas.$id.xml";
import * as reissueApi from "~/routes/api+/fiscal+/notas.$id.reissue";
import * as informeApi from "~/routes/api+/fiscal+/informe.$year";
import * as adminNotasApi from "~/routes/api+/admin+/notas._index";
import * as adminReissueApi from "~/routes/api+/admin+/notas.$id.reissue";
import * as notasPage from "~/routes/_account+/financeiro.notas._index";
import * as xmlPage from "~/routes/_account+/financeiro.notas.$id[.]xml";
import * as informeCsvPage from "~/routes/_account+/financeiro.informe.$year[.]csv";
import * as informePdfPage from "~/routes/_account+/financeiro.informe.$year[.]pdf";
import * as adminNotasPage from "~/routes/admin+/notas";
import * as adminCsv from "~/routes/admin+/notas[.]csv";
import * as adminInformePdf from "~/routes/admin+/users.$id_.informe.$year[.]pdf";
import * as contractPage from "~/routes/contracts+/$id";
import { contractNotas } from "~/services/fiscal/nota-views.server";
import { BASE } from "../support/helpers";
import { statementsOf } from "../support/statements";
import { fiscalIssuer, insertNota } from "../support/fiscal-notas";
import { get, post, postForm, signedInOperator, toastOf } from "../operator/support";
import { escrow, hired, milestonesOf } from "../payments/support";
import { freelancer } from "../support/market";

// The notas' API twins and pages: the JSON lists, the XML download, "emitir de novo", the
// operator's queue and CSV, and the informe; hostile ids and years answer 4xx, never 5xx.

beforeAll(() => escrow(1_000));

async function setup() {
  const { owner, applicant, id } = await hired();
  const [milestone] = await milestonesOf(id);
  const fee = await insertNota({
    kind: "fee",
    issuer_id: (await fiscalIssuer("platform")).id,
    contract_id: id,
    milestone_id: milestone.id,
    taker_user_id: applicant.id,
    status: "issued",
  });
  const service = await insertNota({
    kind: "service",
    issuer_id: (await fiscalIssuer(applicant.id)).id,
    contract_id: id,
    milestone_id: milestone.id,
    provider_user_id: applicant.id,
    taker_user_id: owner.id,
    status: "rejected",
    error_code: "E0014",
    error_message: "DPS já informada",
  });
  const [freelancerToken, merchantToken] = await Promise.all([
    createSession(applicant.id).then((s) => s.token),
    createSession(owner.id).then((s) => s.token),
  ]);
  return { owner, applicant, fee, service, freelancerToken, merchantToken };
}

describe("GET /api/fiscal/notas", () => {
  it("answers the freelancer's both kinds and the merchant's service notas; 401 signed out", async () => {
    const { fee, service, freelancerToken, merchantToken } = await setup();
    const mine = await get(myNotasApi, "/api/fiscal/notas", freelancerToken);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((n: { id: string }) => n.id).sort()).toEqual([fee.id, service.id].sort());
    expect(mine.body.data.find((n: { id: string }) => n.id === service.id)).toMatchObject({
      status: "rejected",
      error_code: "E0014",
      error_message: "DPS já informada",
    });
    expect(JSON.stringify(mine.body)).not.toContain("sealed");
    const theirs = await get(myNotasApi, "/api/fiscal/notas", merchantToken);
    expect(theirs.body.data.map((n: { id: string }) => n.id)).toEqual([service.id]);
    expect((await get(myNotasApi, "/api/fiscal/notas")).status).toBe(401);
    expect((await get(myNotasApi, "/api/fiscal/notas?page=abc", freelancerToken)).status).toBe(422);
  });
});

describe("the XML", () => {
  it("downloads as application/xml named after the chave, for its parties; 404 for others and hostile ids", async () => {
    const { fee, service, freelancerToken, merchantToken } = await setup();
    for (const [route, path] of [
      [xmlApi, `/api/fiscal/notas/${fee.id}/xml`],
      [xmlPage, `/financeiro/notas/${fee.id}.xml`],
    ] as const) {
      const ok = await get(route, path, freelancerToken, { id: fee.id });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("Content-Type")).toBe("application/xml");
      expect(ok.headers.get("Content-Disposition")).toContain(`attachment; filename="${fee.access_key}.xml"`);
      expect(ok.body).toBe(fee.xml);
      expect((await get(route, path, merchantToken, { id: fee.id })).status).toBe(404);
    }
    const outsider = (await createSession((await freelancer()).id)).token;
    expect((await get(xmlApi, "/x", outsider, { id: fee.id })).status).toBe(404);
    // The rejected nota has no XML yet.
    expect((await get(xmlApi, "/x", merchantToken, { id: service.id })).status).toBe(404);
    for (const id of ["../etc/passwd", "1", "%00", "ZZZZZZZZ-0000-4000-8000-000000000000"]) {
      expect((await get(xmlApi, "/x", freelancerToken, { id })).status).toBe(404);
      expect((await get(xmlPage, "/x", freelancerToken, { id })).status).toBe(404);
    }
  });
});

describe("emitir de novo", () => {
  it("lets the freelancer reissue their rejected nota once (then 409), and the page's form does the same", async () => {
    const { service, freelancerToken, merchantToken } = await setup();
    expect((await post(reissueApi, "/x", merchantToken, {}, { id: service.id })).status).toBe(404);
    const first = await post(reissueApi, "/x", freelancerToken, {}, { id: service.id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ data: { status: "pending" }, message: "A nota voltou para a fila de emissão." });
    const again = await post(reissueApi, "/x", freelancerToken, {}, { id: service.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Só uma nota recusada ou que falhou pode ser emitida de novo.");
    const page = await postForm(notasPage, "/financeiro/notas", freelancerToken, { intent: "reissue", id: service.id });
    expect(page.status).toBe(409);
  });

  it("lets the operator reissue any rejected nota; 404 to a non-operator on the console's API", async () => {
    const { fee, service, freelancerToken } = await setup();
    const { token } = await signedInOperator();
    expect((await post(adminReissueApi, "/x", freelancerToken, {}, { id: service.id })).status).toBe(404);
    expect((await post(adminReissueApi, "/x", token, {}, { id: fee.id })).status).toBe(409);
    const page = await postForm(adminNotasPage, "/admin/notas", token, { intent: "reissue", id: service.id });
    expect(page.status).toBe(302);
    expect(await toastOf(page)).toBe("A nota voltou para a fila de emissão.");
  });
});

describe("the operator's queue", () => {
  it("filters, counts per status, refuses a bad filter (422 on the API, left out on the page and CSV)", async () => {
    const { service } = await setup();
    const { token } = await signedInOperator();
    const list = await get(adminNotasApi, "/api/admin/notas?status=rejected&kind=service&issuer=freelancers", token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: { id: string }) => n.id)).toContain(service.id);
    expect(list.body.counts.rejected).toBeGreaterThanOrEqual(1);
    const bad = await get(adminNotasApi, "/api/admin/notas?status=%3Cscript%3E&from=2026-02-31", token);
    expect(bad.status).toBe(422);
    expect((await get(adminNotasPage, "/admin/notas?status=nope&from=ontem", token)).status).toBe(200);
    const csv = await get(adminCsv, "/admin/notas.csv?status=rejected&kind=nope", token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.body).toContain(service.id);
    expect(csv.body).toContain("DPS já informada");
  });
});

describe("the informe de rendimentos", () => {
  it("answers JSON, CSV and PDF for a real year; 400 on the API and 404 on the pages for hostile years", async () => {
    const { applicant, freelancerToken, merchantToken } = await setup();
    const year = String(new Date().getUTCFullYear() - 1);
    const json = await get(informeApi, `/api/fiscal/informe/${year}`, freelancerToken, { year });
    expect(json.status).toBe(200);
    expect(json.body.data).toMatchObject({ year: Number(year), freelancer: { id: applicant.id } });
    expect(json.body.data.months).toHaveLength(12);
    const csv = await get(informeCsvPage, `/financeiro/informe/${year}.csv`, freelancerToken, { year });
    expect(csv.status).toBe(200);
    expect(csv.body).toContain("total;");
    const pdf = await informePdfPage.loader({
      request: new Request(`${BASE}/financeiro/informe/${year}.pdf`, {
        headers: { Authorization: `Bearer ${freelancerToken}` },
      }),
      params: { year },
      context: {},
    });
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");

    for (const bad of ["abc", "1800", "3000", "0x7e8", "２０２４"]) {
      const api = await get(informeApi, "/x", freelancerToken, { year: bad });
      expect(api.status, bad).toBe(400);
      expect(api.body.message).toMatch(/^Ano inválido/);
      expect((await get(informeCsvPage, "/x", freelancerToken, { year: bad })).status).toBe(404);
    }
    // A merchant has no informe.
    expect((await get(informeApi, "/x", merchantToken, { year })).status).toBe(404);

    const { token } = await signedInOperator();
    const forOperator = await get(adminInformePdf, "/x", token, { id: applicant.id, year });
    expect(forOperator.status).toBe(200);
    expect((await get(adminInformePdf, "/x", freelancerToken, { id: applicant.id, year })).status).toBe(404);
    expect((await get(adminInformePdf, "/x", token, { id: "nope", year })).status).toBe(404);
  });

  it("the page's year selector leads to the year's file", async () => {
    const { freelancerToken } = await setup();
    const answer = await get(notasPage, "/financeiro/notas?informe=2025&formato=pdf", freelancerToken);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/financeiro/informe/2025.pdf");
    const page = await get(notasPage, "/financeiro/notas", freelancerToken);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
  });
});

describe("the contract's page", () => {
  it("shows the merchant the freelancer's notas to them, read in one statement; the freelancer none there", async () => {
    const { owner, service, fee, freelancerToken, merchantToken } = await setup();
    const id = service.contract_id;
    const merchantView = await get(contractPage, `/contracts/${id}`, merchantToken, { id });
    expect(merchantView.status).toBe(200);
    expect(merchantView.body.notas.map((n: { id: string }) => n.id)).toEqual([service.id]);
    expect(JSON.stringify(merchantView.body.notas)).not.toContain(fee.id);
    const freelancerView = await get(contractPage, `/contracts/${id}`, freelancerToken, { id });
    expect(freelancerView.body.notas).toEqual([]);
    expect(await statementsOf(() => contractNotas(owner, id))).toBe(1);
  });
});
