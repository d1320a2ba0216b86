import { expect, test } from "@playwright/test";
import { PNG_1X1, freshEmail, registerViaApi, signIn } from "./support";

test.describe("a new user, with JavaScript", () => {
  test("registers (signed in at once), updates the profile with a photo and logs out", async ({ page }) => {
    const email = freshEmail("nova");
    await page.goto("/register");
    await expect(page).toHaveTitle("Criar conta | Freela");
    await page.getByLabel("Freelancer").check();
    await page.getByLabel("Nome completo").fill("Luana Ferreira");
    await page.getByLabel("Nome de exibição (opcional)").fill("Lu");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill("minha-senha-1");
    await page.getByRole("button", { name: "Criar conta" }).click();

    // Registering signs in: home, with a toast and the banner asking to confirm the address.
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole("status").filter({ hasText: `Conta criada! Enviamos um link para ${email}` }),
    ).toBeVisible();
    await expect(page.getByText("Olá, Lu")).toBeVisible();
    await expect(page.getByRole("region", { name: "Confirmar e-mail" })).toBeVisible();
    // The localStorage mirror for legacy clients.
    await expect.poll(() => page.evaluate(() => localStorage.getItem("auth_token"))).toMatch(/^[\w-]{40,}$/);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("user"))) ?? "{}");
    expect(stored).toMatchObject({ email, account_type: "freelancer", display_name: "Lu" });

    await page.goto("/profile");
    await expect(page).toHaveTitle("Meu Perfil | Freela");
    await page.getByRole("link", { name: "Editar perfil" }).click();
    await expect(page).toHaveTitle("Configurações do Perfil | Freela");
    await page.getByLabel("Sobre você").fill("Tradutora de inglês e espanhol.");
    await page.getByLabel("Habilidades").fill("Tradução, Revisão");
    await page.getByLabel("Foto de perfil").setInputFiles({ name: "eu.png", mimeType: "image/png", buffer: PNG_1X1 });
    await page.getByRole("button", { name: "Salvar alterações" }).click();

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("status").filter({ hasText: "Perfil atualizado com sucesso" })).toBeVisible();
    await expect(page.getByText("Tradutora de inglês e espanhol.")).toBeVisible();
    await expect(page.getByText("Revisão")).toBeVisible();
    const photo = page.locator(".profile-head img.avatar");
    const src = await photo.getAttribute("src");
    expect(src).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await page.request.get(src!);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    // The mirror follows the profile.
    await expect
      .poll(async () => JSON.parse((await page.evaluate(() => localStorage.getItem("user"))) ?? "{}").photo_url)
      .toBe(src);

    await page.getByText("Olá, Lu").click();
    await page.locator(".user-menu").getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByRole("status").filter({ hasText: "Você saiu da sua conta." })).toBeVisible();
    expect(await page.evaluate(() => [localStorage.getItem("auth_token"), localStorage.getItem("user")])).toEqual([
      null,
      null,
    ]);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login\?redirectFrom=%2Fprofile$/);
  });

  test("keeps what was typed and shows field errors", async ({ page }) => {
    const taken = await registerViaApi(page.request, { account_type: "merchant" });
    await page.goto("/register");
    await page.getByLabel("Contratante").check();
    await page.getByLabel("Nome completo").fill("Jo");
    await page.getByLabel("E-mail").fill(taken.email.toUpperCase());
    await page.getByLabel("Senha").fill("curta");
    await page.getByRole("button", { name: "Criar conta" }).click();
    // Every problem at once, beside its field (the summary above the form names them too).
    await expect(page.locator(".error-summary li")).toHaveCount(3);
    await expect(
      page.locator(".field-error", { hasText: "O nome completo deve ter entre 3 e 120 caracteres." }),
    ).toBeVisible();
    await expect(page.locator(".field-error", { hasText: "Este e-mail já está cadastrado." })).toBeVisible();
    await expect(page.locator(".field-error", { hasText: "A senha deve ter entre 8 e 72 caracteres." })).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toHaveValue("Jo");
    await expect(page.getByLabel("E-mail")).toHaveValue(taken.email.toUpperCase());
    await expect(page.getByLabel("Contratante")).toBeChecked();
  });

  test("refuses a photo that is not an image, whatever its name", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer" });
    await signIn(page, account.email, account.password);
    await page.goto("/pages/profile-setting");
    await page.getByLabel("Foto de perfil").setInputFiles({
      name: "foto.png",
      mimeType: "image/png",
      buffer: Buffer.from("<script>alert(1)</script>"),
    });
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await expect(
      page.locator(".field-error", { hasText: "A foto deve ser uma imagem JPEG, PNG ou WebP." }),
    ).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toHaveValue(account.full_name);
  });

  test("the mirror is cleared when the session dies on the server", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer" });
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Senha").fill(account.password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText(/Olá, /)).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem("auth_token"));
    expect(token).toBeTruthy();

    // Another client logs the same session out through the API: the token is dead everywhere.
    const out = await page.request.fetch("/api/logout", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, Cookie: "" },
    });
    expect(out.status()).toBe(200);

    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login\?redirectFrom=%2Fprofile$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("registers (signed in at once) and logs in again with plain form posts", async ({ page }) => {
    const email = freshEmail("semjs");
    await page.goto("/auth/register");
    await page.getByLabel("Contratante").check();
    await page.getByLabel("Nome completo").fill("Paulo Sem Script");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill("curta");
    await page.getByRole("button", { name: "Criar conta" }).click();
    // Errors come back next to the field (and in the summary above the form), with the rest kept.
    await expect(page.locator("#password-error")).toHaveText("A senha deve ter entre 8 e 72 caracteres.");
    await expect(page.getByLabel("Nome completo")).toHaveValue("Paulo Sem Script");
    await page.getByLabel("Senha").fill("senha-longa-1");
    await page.getByRole("button", { name: "Criar conta" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(`Conta criada! Enviamos um link para ${email}`)).toBeVisible();
    await expect(page.getByText("Olá, Paulo Sem Script")).toBeVisible();
    await expect(page.getByRole("link", { name: "Minhas Oportunidades" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Candidaturas Pendentes" })).toBeVisible();
    // Signed out, the password signs in again.
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill("senha-errada");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText("E-mail ou senha inválidos.")).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    await page.getByLabel("Senha").fill("senha-longa-1");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText("Olá, Paulo Sem Script")).toBeVisible();
  });
});

test.describe("guards and redirects", () => {
  test("a visitor is sent to /login with the intended path, and comes back after login", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer" });
    await page.goto("/my-applications?status=pending");
    await expect(page).toHaveURL(/\/login\?redirectFrom=%2Fmy-applications%3Fstatus%3Dpending$/);
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Senha").fill(account.password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page).toHaveURL(/\/my-applications\?status=pending$/);
  });

  test("only relative redirect targets are honoured", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer" });
    for (const target of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      await page.context().clearCookies();
      await page.goto(`/login?redirectFrom=${encodeURIComponent(target)}`);
      await page.getByLabel("E-mail").fill(account.email);
      await page.getByLabel("Senha").fill(account.password);
      await page.getByRole("button", { name: "Entrar", exact: true }).click();
      await expect(page.getByText(/Olá, /)).toBeVisible();
      expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
    }
  });

  test("a freelancer is sent from a merchant-only page to the dashboard", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer" });
    await signIn(page, account.email, account.password);
    await page.goto("/opportunities/create");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("signed-in users are sent away from the visitor pages", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "merchant" });
    await signIn(page, account.email, account.password);
    for (const path of ["/login", "/signin", "/register", "/forgot-password", "/auth/login"]) {
      await page.goto(path);
      expect(new URL(page.url()).pathname).not.toBe(path);
    }
  });

  test("the sidebar follows the role", async ({ page }) => {
    const account = await registerViaApi(page.request, { account_type: "freelancer", display_name: "Bia" });
    await signIn(page, account.email, account.password);
    await page.goto("/dashboard");
    const nav = page.getByRole("complementary", { name: "Menu principal" });
    for (const name of ["Dashboard", "Oportunidades", "Minhas Candidaturas", "Meu Perfil", "Sair"]) {
      await expect(nav.getByRole(name === "Sair" ? "button" : "link", { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Candidaturas Pendentes" })).toHaveCount(0);
    await expect(page.getByText("Olá, Bia")).toBeVisible();
    await expect(page.locator("footer")).toContainText("1.0.0");
  });
});

test("the not-found page answers 404 and names the path", async ({ page }) => {
  const response = await page.goto("/dashboard/crypto");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
  await expect(page.getByText("A rota /dashboard/crypto não existe.")).toBeVisible();
  await expect(page).toHaveTitle("Página não encontrada | Freela");
  await page.getByRole("link", { name: "Voltar para o início" }).click();
  // A visitor's home: the ways to browse and to sign up.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Ver vagas abertas" })).toBeVisible();
});

test("forgot password always answers the same neutral message", async ({ page }) => {
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill("ninguem@example.com");
  await page.getByRole("button", { name: "Enviar link" }).click();
  await expect(
    page.getByText("Se existir uma conta com este e-mail, enviaremos um link para redefinir a senha."),
  ).toBeVisible();
});

test("the language can be switched to English and is remembered", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "EN", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Freela" })).toBeVisible();
  await page.goto("/register");
  await expect(page).toHaveTitle("Create account | Freela");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("button", { name: "PT", exact: true }).click();
  await expect(page).toHaveTitle("Criar conta | Freela");
});
