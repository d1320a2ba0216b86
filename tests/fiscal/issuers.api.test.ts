import { generateCnpj } from "@brazilian-utils/brazilian-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createVerifiedIdentity } from "../../db/factories";
import * as adminFiscalApi from "~/routes/api+/admin+/settings_.fiscal";
import * as accountFiscalApi from "~/routes/api+/_account+/account.fiscal";
import * as settingsPage from "~/routes/admin+/settings";
import * as ownPage from "~/routes/_account+/financeiro.notas.emissao";
import * as chargesApi from "~/routes/api+/contracts+/$id.charges";
import * as contractPage from "~/routes/contracts+/$id";
import { createSession } from "~/services/accounts/sessions.server";
import { PLATFORM_ISSUER, saveOwnIssuer } from "~/services/fiscal/issuers.server";
import { escrow, hired } from "../payments/support";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { get, postForm, signedInOperator } from "../operator/support";
import { makeECnpjPfx, makeTestCa, type TestCa } from "../support/fiscal-certificates";
import { fiscalFields } from "../support/fiscal-issuers";

// The fiscal settings' doors (docs/payments.md, "Notas fiscais"), on both engines: the operator's
// GET/PUT /api/admin/settings/fiscal and the /admin/settings form, a freelancer's
// GET/PUT/PATCH /api/account/fiscal and /financeiro/notas/emissao, as a browser without JavaScript
// posts them (multipart). Portuguese messages per field, never a 5xx, never a secret in an answer.

const CNPJ = "11222333000181";
let ca: TestCa;
let good: { pfx: Buffer; password: string };

beforeAll(() => {
  ca = makeTestCa();
  good = makeECnpjPfx({ cnpj: CNPJ, ca, password: "senha-forte-123" });
});

/** A multipart request as a browser sends the form (the file input named `certificate`). */
function multipart(path: string, token: string, values: Record<string, string>, pfx?: Buffer, method = "POST") {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  form.append("certificate", pfx ? new File([new Uint8Array(pfx)], "empresa.pfx") : new File([], ""));
  return new Request(BASE + path, { method, body: form, headers: { Authorization: `Bearer ${token}` } });
}

function expectNoSecret(answer: unknown, secrets = good) {
  const text = JSON.stringify(answer);
  expect(text).not.toContain(secrets.password);
  expect(text).not.toContain(secrets.pfx.toString("base64").slice(0, 40));
  expect(text).not.toMatch(/_sealed|v1\.[\w-]{8}\./);
}

describe("PUT /api/admin/settings/fiscal", () => {
  it("the operator saves (multipart or JSON with base64), reads without secrets, and gets Portuguese refusals", async () => {
    await db.deleteFrom("fiscal_issuers").where("owner", "=", PLATFORM_ISSUER).execute();
    const op = await signedInOperator();
    expect((await get(adminFiscalApi, "/api/admin/settings/fiscal", op.token)).body).toEqual({ data: null });
    const put = (values: Record<string, string>, pfx?: Buffer) =>
      call(adminFiscalApi.action, multipart("/api/admin/settings/fiscal", op.token, values, pfx, "PUT"));

    const wrong = await put({ ...fiscalFields(), certificate_password: "errada" }, good.pfx);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ certificate_password: "A senha do certificado está errada." });
    const notPfx = await put({ ...fiscalFields(), certificate_password: "x" }, Buffer.from("%PDF-1.7"));
    expect(notPfx.body.errors).toEqual({ certificate: "O arquivo enviado não é um certificado A1 (PFX ou P12)." });
    const expired = makeECnpjPfx({
      cnpj: CNPJ,
      ca,
      notBefore: new Date(Date.now() - 9e10),
      notAfter: new Date(Date.now() - 1e9),
    });
    expect((await put({ ...fiscalFields(), certificate_password: expired.password }, expired.pfx)).body.errors).toEqual(
      {
        certificate: "O certificado está vencido.",
      },
    );
    const other = makeECnpjPfx({ cnpj: "45723174000110", ca });
    expect((await put({ ...fiscalFields(), certificate_password: other.password }, other.pfx)).body.errors).toEqual({
      certificate: "O certificado é de outro CNPJ: envie o e-CNPJ do CNPJ informado.",
    });
    const big = await put({ ...fiscalFields(), certificate_password: "x" }, Buffer.alloc(80 * 1024, 1));
    expect(big.status).toBe(413);
    expect(big.body.errors).toEqual({ certificate: "O certificado deve ter no máximo 50 KB." });
    const bad = await put(fiscalFields({ municipality: "12", iss_rate: "abc" }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      municipality: "Informe o código IBGE do município, com 7 dígitos.",
      iss_rate: "Informe a alíquota do ISS em porcentagem, de 0,00 a 5,00.",
      certificate: "Envie o certificado A1 (arquivo PFX ou P12) e a senha dele.",
    });
    for (const r of [wrong, notPfx, big, bad]) expectNoSecret(r.body);

    const saved = await put({ ...fiscalFields(), certificate_password: good.password }, good.pfx);
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Dados fiscais salvos.");
    expect(saved.body.data).toMatchObject({ cnpj: CNPJ, version: 1, certificate: { cnpj: CNPJ, expired: false } });
    expectNoSecret(saved.body);

    // JSON, the certificate in base64; a stale version is 409.
    const json = (body: unknown) =>
      call(adminFiscalApi.action, jsonRequest("/api/admin/settings/fiscal", body, { token: op.token, method: "PUT" }));
    const again = await json({
      ...fiscalFields({ iss_rate: "5" }),
      version: 1,
      certificate: good.pfx.toString("base64"),
      certificate_password: good.password,
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ iss_rate_bps: 500, version: 2 });
    const stale = await json({ ...fiscalFields(), version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe("Os dados fiscais mudaram enquanto você editava. Confira e tente de novo.");
    expectNoSecret((await get(adminFiscalApi, "/api/admin/settings/fiscal", op.token)).body);
    for (const hostile of ["[]", "{", "null"]) expect([400, 422]).toContain((await json(hostile)).status);

    // Only operators: anyone else gets the console's 404, a visitor 401.
    const freelancer = await signedInUser({ account_type: "freelancer" });
    expect((await get(adminFiscalApi, "/api/admin/settings/fiscal", freelancer.token)).status).toBe(404);
    expect(
      (
        await call(
          adminFiscalApi.action,
          multipart("/api/admin/settings/fiscal", freelancer.token, fiscalFields(), good.pfx, "PUT"),
        )
      ).status,
    ).toBe(404);
    expect((await call(adminFiscalApi.loader, jsonRequest("/api/admin/settings/fiscal"))).status).toBe(401);
  });

  it("the /admin/settings form without JavaScript: refused with what was typed (never the password), saved with a redirect", async () => {
    await db.deleteFrom("fiscal_issuers").where("owner", "=", PLATFORM_ISSUER).execute();
    const op = await signedInOperator();
    const post = (values: Record<string, string>, pfx?: Buffer) =>
      call(settingsPage.action, multipart("/admin/settings", op.token, values, pfx));
    const refused = await post(
      { ...fiscalFields({ nbs_code: "1" }), intent: "fiscal", certificate_password: "errada" },
      good.pfx,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      nbs_code: "O código NBS tem 9 dígitos.",
      certificate_password: "A senha do certificado está errada.",
    });
    expect(refused.body.values).toMatchObject({
      intent: "fiscal",
      legal_name: "Freela Intermediação Ltda",
      nbs_code: "1",
    });
    expect(refused.body.values.certificate_password).toBeUndefined();
    expectNoSecret(refused.body);
    const saved = await post({ ...fiscalFields(), intent: "fiscal", certificate_password: good.password }, good.pfx);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/settings");
    const page = await get(settingsPage, "/admin/settings", op.token);
    expect(page.body.fiscal).toMatchObject({ cnpj: CNPJ, version: 1 });
    expectNoSecret(page.body);
  });
});

describe("/api/account/fiscal and /financeiro/notas/emissao", () => {
  it("a verified freelancer sets up, turns off and on; merchants get 403, the page 404; the form keeps what was typed", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    expect((await get(accountFiscalApi, "/api/account/fiscal", merchant.token)).status).toBe(403);
    expect((await get(ownPage, "/financeiro/notas/emissao", merchant.token)).status).toBe(404);

    const f = await signedInUser({ account_type: "freelancer" });
    const cnpj = generateCnpj();
    const pfx = makeECnpjPfx({ cnpj, ca });
    const mine = { ...fiscalFields({ cnpj, simples_nacional: "mei" }), certificate_password: pfx.password };
    const put = (values: Record<string, string>, file?: Buffer) =>
      call(accountFiscalApi.action, multipart("/api/account/fiscal", f.token, values, file, "PUT"));
    const unverified = await put(mine, pfx.pfx);
    expect(unverified.status).toBe(409);
    expect(unverified.body.message).toBe("Verifique sua identidade antes de configurar a emissão das suas notas.");
    expect((await get(ownPage, "/financeiro/notas/emissao", f.token)).body).toMatchObject({ identity: "missing" });

    await createVerifiedIdentity(db, f.user.id, { document: cnpj });
    const otherCnpj = generateCnpj();
    const otherPfx = makeECnpjPfx({ cnpj: otherCnpj, ca });
    const notYours = await put({ ...mine, cnpj: otherCnpj, certificate_password: otherPfx.password }, otherPfx.pfx);
    expect(notYours.status).toBe(422);
    expect(notYours.body.errors).toEqual({ cnpj: "Use o CNPJ da sua identidade verificada." });

    // The page's form, without JavaScript.
    const refused = await call(
      ownPage.action,
      multipart(
        "/financeiro/notas/emissao",
        f.token,
        { ...mine, intent: "fiscal", certificate_password: "errada" },
        pfx.pfx,
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ certificate_password: "A senha do certificado está errada." });
    expect(refused.body.values).toMatchObject({ cnpj, intent: "fiscal" });
    expect(refused.body.values.certificate_password).toBeUndefined();
    const saved = await call(
      ownPage.action,
      multipart("/financeiro/notas/emissao", f.token, { ...mine, intent: "fiscal", enabled: "1" }, pfx.pfx),
    );
    expect(saved.status).toBe(302);
    const read = await get(accountFiscalApi, "/api/account/fiscal", f.token);
    expect(read.body.data).toMatchObject({
      identity: "verified",
      company_cnpj: cnpj,
      issuer: { cnpj, enabled: true, version: 1 },
    });
    expectNoSecret(read.body, pfx);

    const patch = (body: unknown) =>
      call(accountFiscalApi.action, jsonRequest("/api/account/fiscal", body, { token: f.token, method: "PATCH" }));
    const off = await patch({ enabled: false, version: 1 });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ message: "Emissão das notas atualizada.", data: { enabled: false, version: 2 } });
    expect((await patch({ enabled: true, version: 1 })).status).toBe(409);
    expect((await patch({ enabled: "talvez", version: 2 })).status).toBe(422);
    // The page's switch, without JavaScript.
    const on = await call(
      ownPage.action,
      new Request(BASE + "/financeiro/notas/emissao", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Bearer ${f.token}` },
        body: new URLSearchParams({ intent: "switch", enabled: "1", version: "2" }).toString(),
      }),
    );
    expect(on.status).toBe(302);
    expect((await get(accountFiscalApi, "/api/account/fiscal", f.token)).body.data.issuer).toMatchObject({
      enabled: true,
      version: 3,
    });
  });
});

describe("funding when the freelancer issues their own notas", () => {
  it("asks a merchant without a verified identity for the CPF/CNPJ and name once, and keeps them on the contract", async () => {
    escrow();
    const { owner, applicant, id } = await hired();
    // The merchant recorded who they are, not yet verified.
    await db.updateTable("identities").set({ status: "pending" }).where("user_id", "=", owner.id).execute();
    const cnpj = generateCnpj();
    await createVerifiedIdentity(db, applicant.id, { document: cnpj });
    const pfx = makeECnpjPfx({ cnpj, ca });
    await saveOwnIssuer(
      applicant,
      { ...fiscalFields({ cnpj, simples_nacional: "mei" }), certificate_password: pfx.password },
      new Blob([new Uint8Array(pfx.pfx)]),
    );
    const { token } = await createSession(owner.id);
    const fund = (body: unknown) =>
      call(chargesApi.action, jsonRequest(`/api/contracts/${id}/charges`, body, { token, method: "POST" }), { id });

    const asked = await fund({});
    expect(asked.status).toBe(422);
    expect(asked.body.message).toBe(
      "O freelancer emite a nota fiscal deste serviço para você: informe seu CPF ou CNPJ e o nome para a nota.",
    );
    expect(asked.body.errors).toEqual({
      taker_document: "Informe um CPF ou CNPJ válido.",
      taker_name: "Informe o nome ou a razão social (de 2 a 150 caracteres).",
    });
    // The page's form without JavaScript: the same refusal, with what was typed.
    const page = await postForm(
      contractPage,
      `/contracts/${id}`,
      token,
      { intent: "fund", taker_document: "123" },
      { id },
    );
    expect(page.status).toBe(422);
    expect(page.body.errors.taker_document).toBe("Informe um CPF ou CNPJ válido.");
    expect(page.body.values).toMatchObject({ intent: "fund", taker_document: "123" });
    expect(await db.selectFrom("pix_charges").select("id").where("contract_id", "=", id).execute()).toEqual([]);

    const funded = await fund({ taker_document: "529.982.247-25", taker_name: "Padaria Pão Quente" });
    expect(funded.status).toBe(201);
    const contract = await db
      .selectFrom("contracts")
      .select(["taker_document", "taker_name"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(contract).toEqual({ taker_document: "52998224725", taker_name: "Padaria Pão Quente" });
    // Not asked again.
    expect((await fund({})).status).toBe(200);
  });
});
