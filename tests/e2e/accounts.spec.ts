import { expect, test, type Page } from "@playwright/test";
import { completedContract, PNG_1X1, freshEmail, registerViaApi, signIn, userPage, WIDTHS } from "./support";

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
    // Passkeys need the page's script: the login page says so, and offers no button.
    await expect(page.getByText("Para entrar com chave de acesso, ative o JavaScript.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Entrar com chave de acesso" })).toHaveCount(0);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill("senha-errada");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText("E-mail ou senha inválidos.")).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    await page.getByLabel("Senha").fill("senha-longa-1");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText("Olá, Paulo Sem Script")).toBeVisible();
    // The top bar at every width: titles whole, the welcome toast off its controls.
    await topBarAtEveryWidth(page, "merchant", { email, password: "senha-longa-1" }, [
      "/",
      "/applications/awaiting-confirmation",
    ]);
    await page.setViewportSize({ width: 1280, height: 720 });
    // And so does the security page's passkeys section (removing one is a plain form:
    // tests/accounts/passkeys-page.test.ts).
    await page.goto("/account/security");
    const passkeys = page.getByRole("region", { name: "Chaves de acesso (passkeys)" });
    await expect(passkeys).toContainText("Chaves de acesso precisam de JavaScript ativado no navegador.");
    await expect(passkeys.getByRole("button", { name: "Adicionar chave de acesso" })).toHaveCount(0);
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

test.describe("a profile checklist on the dashboard until the profile is complete", () => {
  test("a new freelancer and a new merchant each see their steps", async ({ request, browser }, testInfo) => {
    for (const account_type of ["freelancer", "merchant"] as const) {
      const who = await registerViaApi(request, { account_type });
      const page = await userPage(browser, testInfo, true, who);
      await page.goto("/dashboard");
      const checklist = page.locator(".checklist-card");
      await expect(checklist.getByRole("heading", { name: "Complete seu perfil" })).toBeVisible();
      await expect(checklist.getByRole("listitem")).toHaveCount(account_type === "freelancer" ? 4 : 3);
      // Each step leads to where it is filled in.
      await checklist.getByRole("link").first().click();
      await expect(page).toHaveURL(/\/pages\/profile-setting/);
      await page.context().close();
    }
  });
});

test.describe("Meu Perfil shows what others see, and links to it", () => {
  test("a freelancer with a completed contract, and a merchant without skills", async ({
    request,
    browser,
  }, testInfo) => {
    test.slow();
    const { merchant, freelancer } = await completedContract(request, 150_000);
    for (const [who, kind] of [
      [freelancer, "freelancers"],
      [merchant, "merchants"],
    ] as const) {
      const page = await userPage(browser, testInfo, true, who);
      await page.goto("/profile");
      const mine = await page.locator(".details dt").allTextContents();
      const sections = await page.locator("h3").allTextContents();
      await page.getByRole("link", { name: "Ver como os outros me veem" }).click();
      await expect(page).toHaveURL(new RegExp(`/${kind}/[0-9a-f-]{36}$`));
      // The address changes a moment before the new page is drawn: wait for it to be gone.
      await expect(page.getByRole("link", { name: "Ver como os outros me veem" })).toHaveCount(0);
      const theirs = await page.locator(".details dt").allTextContents();
      // Everything the public profile shows, Meu Perfil shows too (and the e-mail, for its owner only).
      expect(mine).toEqual(expect.arrayContaining(theirs));
      expect(mine).toContain("E-mail");
      expect(theirs).not.toContain("E-mail");
      expect(sections).toEqual(expect.arrayContaining(await page.locator("h3").allTextContents()));
      expect(theirs).toContain("Contratos concluídos");
      if (kind === "freelancers") expect(sections).toContain("Portfólio");
      // A merchant who listed no skills has no "Habilidades: nenhuma" on either page.
      else expect(theirs).not.toContain("Habilidades");
      await page.context().close();
    }
  });
});

/** Whether two boxes share any area. */
function overlaps(a: DOMRectLike, b: DOMRectLike) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
type DOMRectLike = { x: number; y: number; width: number; height: number };

/**
 * The top bar at every width: each page's title whole (not cut by an ellipsis nor by the bar's
 * height), and a toast (the welcome after signing in) off the language switch, the bell and the name.
 */
async function topBarAtEveryWidth(
  page: Page,
  who: string,
  account: { email: string; password: string },
  paths: string[],
) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const path of paths) {
      await page.goto(path);
      const title = page.locator(".topbar-title");
      const cut = await title.evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
      expect(cut, `${who} ${path} at ${width}px: "${await title.textContent()}" is cut`).toBe(false);
    }
    await page.goto("/login");
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(account.email);
    await page.getByLabel("Senha").fill(account.password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    const toast = page.getByRole("status").filter({ hasText: "Bem-vindo(a)" });
    await expect(toast).toBeVisible();
    const toastBox = (await toast.boundingBox())!;
    for (const control of [".topbar .language-switch", ".topbar .bell-menu summary", ".topbar .user-menu summary"]) {
      const box = (await page.locator(control).boundingBox())!;
      expect(overlaps(toastBox, box), `the toast covers ${control} at ${width}px`).toBe(false);
    }
  }
}

test.describe("the top bar at every width, and toasts beside it", () => {
  // Without JavaScript: the story without it (above), for a merchant's pages.
  test("titles whole, toasts off the switch, the bell and the name", async ({ request, browser }, testInfo) => {
    test.slow();
    const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
    const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
    for (const [who, account, paths] of [
      ["merchant", merchant, ["/", "/applications/awaiting-confirmation"]],
      ["freelancer", freelancer, ["/", "/my-applications"]],
    ] as const) {
      const page = await userPage(browser, testInfo, true, account);
      await topBarAtEveryWidth(page, who, account, [...paths]);
      await page.context().close();
    }
  });
});
