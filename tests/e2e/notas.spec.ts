import { readFileSync, writeFileSync } from "node:fs";
import { E2E_SEFIN } from "../../playwright.config";
import { makeECnpjPfx, makeTestCa } from "../support/fiscal-certificates";
import { startSefinStandIn, type SefinStandIn } from "../support/sefin-standin";
import { expect, test } from "./fixtures";
import { bearerOf, fund, hire, identityViaApi, noAxeFindings, OPERATOR, userPage } from "./support";

// Notas fiscais on the manual provider's server (project "chromium-pix-manual"), against a local
// stand-in of the Sefin Nacional (mutual TLS with a test CA): the operator sets the platform's
// fiscal data up with JavaScript, uploading its A1 certificate; a milestone is funded and
// released through the API; the server issues the fee's NFS-e in the background, and the
// freelancer, without JavaScript, finds it issued in /financeiro/notas and downloads its XML.

const PLATFORM_CNPJ = "11222333000181";
const ca = makeTestCa();
let sefin: SefinStandIn | undefined;
test.beforeAll(async () => {
  sefin = await startSefinStandIn({ ca, port: E2E_SEFIN.port });
  writeFileSync(E2E_SEFIN.caFile, sefin.ca);
});
test.afterAll(() => sefin?.close());

test("operator's fiscal data → a milestone released → the freelancer downloads the fee's nota (no JavaScript)", async ({
  request,
  browser,
}, testInfo) => {
  test.slow();
  const certificate = makeECnpjPfx({ ca, cnpj: PLATFORM_CNPJ, name: "FREELA INTERMEDIACAO LTDA" });

  // The operator fills the platform's fiscal data and uploads the certificate.
  const olga = await userPage(browser, testInfo, true, OPERATOR);
  await olga.goto("/admin/settings");
  const form = olga.locator("section", { has: olga.getByRole("heading", { name: "Notas fiscais da plataforma" }) });
  await form.getByLabel("CNPJ").fill(PLATFORM_CNPJ);
  await form.getByLabel("Razão social").fill("Freela Intermediação Ltda");
  await form.getByLabel("Município (código IBGE)").fill("3550308");
  await form.getByLabel("Código de tributação nacional (cTribNac)").fill("100201");
  await form.getByLabel("Código NBS").fill("118062000");
  await form.getByLabel("Descrição do serviço na nota").fill("Intermediação de serviços pela plataforma Freela");
  await form.getByLabel("Certificado A1 (arquivo PFX ou P12)").setInputFiles({
    name: "freela.pfx",
    mimeType: "application/x-pkcs12",
    buffer: certificate.pfx,
  });
  await form.getByLabel("Senha do certificado").fill(certificate.password);
  await form.getByRole("button", { name: "Salvar dados fiscais" }).click();
  await expect(form.getByText(/Certificado guardado: CNPJ/)).toBeVisible();
  await noAxeFindings(olga);

  // A hire whose freelancer has a verified identity (the nota's tomador), funded and released.
  const { merchant, freelancer, id } = await hire(request);
  await identityViaApi(request, freelancer, { verified: true });
  await fund(request, id, merchant);
  const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
    headers: await bearerOf(request, freelancer),
    data: { message: "Trabalho entregue." },
  });
  expect(delivered.status()).toBe(201);
  const approved = await request.post(`/api/contracts/${id}/approve`, { headers: await bearerOf(request, merchant) });
  expect(approved.status()).toBe(200);

  // Without JavaScript, the freelancer sees the fee's nota issued (the drain runs every second).
  const julia = await userPage(browser, testInfo, false, freelancer);
  await julia.goto("/financeiro/notas");
  await expect(async () => {
    await julia.reload();
    await expect(julia.getByRole("cell", { name: "Emitida" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const [download] = await Promise.all([
    julia.waitForEvent("download"),
    julia.getByRole("link", { name: /Baixar XML/ }).click(),
  ]);
  const xml = readFileSync(await download.path(), "utf8");
  expect(xml).toContain(PLATFORM_CNPJ);
  const [nota] = [...sefin!.notas.values()];
  expect(download.suggestedFilename()).toContain(nota!.accessKey);

  // The operator's queue lists it as issued.
  await olga.goto("/admin/notas");
  await expect(olga.getByRole("row").filter({ hasText: nota!.accessKey })).toContainText("Emitida");
  await noAxeFindings(olga);
});
