import { startWhatsappCloud } from "../support/whatsapp-cloud";
import { E2E_WHATSAPP_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { bearerOf, toast } from "./support";

// WhatsApp alerts (docs/product.md, section 6, "WhatsApp"), without JavaScript: the settings
// page's card adds the number and sends the code (to the Cloud API's stand-in, which this story
// starts on the port the server was given), the code confirms it, the notification table gains its
// WhatsApp column, and an event of a kind turned on goes out as the alert template.

test.use({ javaScriptEnabled: false });

let cloud: Awaited<ReturnType<typeof startWhatsappCloud>> | undefined;
test.beforeAll(async () => {
  cloud = await startWhatsappCloud(E2E_WHATSAPP_PORT);
});
test.afterAll(() => cloud?.close());

test("a number confirmed by the code that came on WhatsApp, a kind turned on, its alert sent", async ({
  merchant,
  freelancer,
  request,
}) => {
  const { page, account } = merchant;
  await page.goto("/pages/profile-setting#whatsapp");
  const card = page.locator("section#whatsapp");
  await expect(card.getByRole("heading", { name: "Avisos no WhatsApp" })).toBeVisible();
  // No WhatsApp column before a number is confirmed.
  await expect(page.locator("input[name=whatsapp]")).toHaveCount(0);

  // A typed Brazilian number, written as E.164; the code goes to it.
  await card.getByLabel("Número de WhatsApp").fill("(11) 98765-4321");
  await card.getByRole("button", { name: "Enviar código" }).click();
  await expect(toast(page, "Enviamos um código de 6 dígitos para o seu WhatsApp.")).toBeVisible();
  const phone = "+5511987654321";
  const code = cloud!.codeFor(phone)!;
  expect(cloud!.received.at(-1)).toMatchObject({ to: phone, template: "freela_codigo", language: "pt_BR" });

  // A wrong code is refused in its field; the right one confirms.
  const wrong = code === "000000" ? "111111" : "000000";
  await card.getByLabel("Código de 6 dígitos").fill(wrong);
  await card.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.locator("section#whatsapp #code-error")).toHaveText("Código incorreto.");
  await expect(page.locator("section#whatsapp").getByLabel("Código de 6 dígitos")).toHaveValue(wrong);
  await page.locator("section#whatsapp").getByLabel("Código de 6 dígitos").fill(code);
  await page.locator("section#whatsapp").getByRole("button", { name: "Confirmar" }).click();
  await expect(toast(page, "Número confirmado")).toBeVisible();
  await expect(page.locator("section#whatsapp").getByText("confirmado", { exact: false })).toBeVisible();

  // The table's WhatsApp column: every kind off; one turned on. New messages are not offered.
  const box = page.locator('input[name=whatsapp][value="application_received"]');
  await expect(box).not.toBeChecked();
  await expect(page.locator('input[name=whatsapp][value="message_received"]')).toHaveCount(0);
  await box.check();
  await page.locator("section#email").getByRole("button", { name: "Salvar preferências" }).click();
  await expect(toast(page, "Preferências de e-mail salvas.")).toBeVisible();
  await expect(page.locator('input[name=whatsapp][value="application_received"]')).toBeChecked();

  // A freelancer applies to the merchant's opportunity: the alert goes, with the link to it.
  const title = `Cardápio digital ${Date.now().toString(36)}`;
  const opportunity = await request.post("/api/opportunities", {
    headers: await bearerOf(request, account),
    data: {
      title,
      description: "Um cardápio digital com fotos para uma lanchonete de bairro, com QR code nas mesas.",
      category: "design",
      skills: ["Figma"],
      budget_type: "fixed",
      budget_min_cents: 50_000,
      budget_max_cents: 90_000,
      location_type: "remote",
    },
  });
  expect(opportunity.status()).toBe(201);
  const { uuid } = (await opportunity.json()).data;
  const applied = await request.post(`/api/opportunities/${uuid}/applications`, {
    headers: await bearerOf(request, freelancer.account),
    data: {
      cover_letter: "Faço cardápios digitais para lanchonetes há quatro anos.",
      price_cents: 70_000,
      delivery_days: 7,
    },
  });
  expect(applied.status()).toBe(201);
  const { id } = (await applied.json()).data;
  await expect.poll(() => cloud!.received.filter((m) => m.template === "freela_alerta").length).toBe(1);
  const alert = cloud!.received.find((m) => m.template === "freela_alerta")!;
  expect(alert).toMatchObject({ to: phone, language: "pt_BR" });
  expect(alert.parameters[0]).toContain(title);
  expect(alert.parameters[1]).toBe(`${new URL(page.url()).origin}/applications/${id}`);
});
