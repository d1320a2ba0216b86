import { expect, test } from "@playwright/test";
import { freshEmail, lastMail, linkIn, mailCount, registerViaApi, signIn, toast } from "./support";

// Verified e-mail in the browser, with JavaScript (without it: the forms as posted in
// tests/accounts/verification-page.test.ts): the banner of an unconfirmed
// account and its "Reenviar e-mail", a write refused with the reason, the link from the e-mail
// (signed in and signed out), and changing the address on /account/security.

test("an unconfirmed account sees the banner, is refused a write, resends and confirms by the link", async ({
  page,
}) => {
  const account = await registerViaApi(page.request, { account_type: "merchant", confirmed: false });
  await signIn(page, account.email, account.password);
  await page.goto("/opportunities/create");
  const banner = page.getByRole("region", { name: "Confirmar e-mail" });
  await expect(banner).toContainText(`Enviamos um link para ${account.email}`);

  await page.getByLabel("Título").fill("Site para uma padaria de bairro");
  await page
    .getByLabel("Descrição")
    .fill("Um site simples com cardápio, horários e encomendas pelo WhatsApp para a padaria.");
  await page.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(
    page.getByText("Confirme seu e-mail para publicar, se candidatar, enviar mensagens ou convidar", {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByLabel("Título")).toHaveValue("Site para uma padaria de bairro");

  await lastMail(page.request, account.email, /confirme seu e-mail/); // the registration's, delivered
  const sent = await mailCount(page.request, account.email, /confirme seu e-mail/);
  await banner.getByRole("button", { name: "Reenviar e-mail" }).click();
  await expect(toast(page, "Enviamos um novo link de confirmação para o seu e-mail.")).toBeVisible();
  await expect(page).toHaveURL(/\/opportunities\/create$/);

  // The new link replaces the first one: wait for its e-mail, which the outbox sends a moment later.
  await expect
    .poll(() => mailCount(page.request, account.email, /confirme seu e-mail/), { timeout: 15_000 })
    .toBe(sent + 1);
  const link = linkIn(await lastMail(page.request, account.email, /confirme seu e-mail/), "/verify-email");
  await page.goto(link);
  // The first confirmation leads to the account type's next steps.
  await expect(page).toHaveURL(/\/primeiros-passos$/);
  await expect(toast(page, "E-mail confirmado!")).toBeVisible();
  await expect(page.getByRole("link", { name: "Publicar vaga" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Confirmar e-mail" })).toHaveCount(0);
  await page.goto("/account/security");
  await expect(page.locator("#email").getByText("Confirmado", { exact: true })).toBeVisible();

  // The same link again says it was used.
  await page.goto(link);
  await expect(page.getByText("Este link de confirmação já foi usado.")).toBeVisible();
});

test("changing the address: refused with the typed address kept, then confirmed by the link sent to it", async ({
  page,
}) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer" });
  await signIn(page, account.email, account.password);
  await page.goto("/account/security");
  await expect(page).toHaveTitle("Conta e segurança | Freela");
  const section = page.locator("section#email");
  const next = freshEmail("trocado");
  await section.getByLabel("Novo e-mail").fill(next);
  await section.getByLabel("Senha atual").fill("senha-errada");
  await section.getByRole("button", { name: "Trocar e-mail" }).click();
  await expect(section.getByText("Senha atual incorreta.")).toBeVisible();
  await expect(section.getByLabel("Novo e-mail")).toHaveValue(next);

  await section.getByLabel("Senha atual").fill(account.password);
  await section.getByRole("button", { name: "Trocar e-mail" }).click();
  await expect(toast(page, `Enviamos um link para ${next}.`)).toBeVisible();
  await expect(section).toContainText(account.email);

  const link = linkIn(await lastMail(page.request, next, /confirme seu novo e-mail/), "/verify-email");
  await page.goto(link);
  await expect(toast(page, `Pronto: seu e-mail agora é ${next}.`)).toBeVisible();
  await expect(page.locator("section#email")).toContainText(next);
  const told = await lastMail(page.request, account.email, /o e-mail da sua conta mudou/);
  expect(told.text).toContain(next);
});

test("a link opened signed out confirms the address and leads to the login page, then the next steps", async ({
  page,
}) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer", confirmed: false });
  const link = linkIn(await lastMail(page.request, account.email, /confirme seu e-mail/), "/verify-email");
  await page.goto(link);
  await expect(page).toHaveURL(/\/login\?redirectFrom=%2Fprimeiros-passos$/);
  await expect(toast(page, "E-mail confirmado!")).toBeVisible();
  await signIn(page, account.email, account.password);
  await page.goto("/dashboard");
  await expect(page.getByRole("region", { name: "Confirmar e-mail" })).toHaveCount(0);
});
