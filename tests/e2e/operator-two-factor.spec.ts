import { expect, test } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import { BUILD, freePort, ROOT, SERVER_SCRIPT, spawnServer, stopServer, type ServerProcess } from "../support/server";
import { toast } from "./support";

// A new operator's first day, on a server of its own that keeps the
// default OPERATOR_TWO_FACTOR=required (the other browser servers turn it off so their stories
// can use the demo operator with a password): `npm run operator:create` prints the one-time link,
// the operator sets a password and signs in, the console sends them to the security page to turn
// on two-factor sign-in, and once it is on the console opens. The security page's forms as posted
// without JavaScript are tests/accounts/two-factor-page.test.ts's; the console's redirect,
// tests/operator/two-factor-required.test.ts's.

const codeOf = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

let server: ServerProcess;
let base: string;
let dir: string;
let env: NodeJS.ProcessEnv;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  dir = mkdtempSync(join(tmpdir(), "freela-operator-2fa-"));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: base,
    DATABASE_PATH: join(dir, "freela.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: "e2e-operator-2fa-secret-0123456789abcdef0123",
    BCRYPT_COST: "4",
  };
  server = await spawnServer({ env, base, script: [SERVER_SCRIPT, BUILD], timeoutMs: 60_000 });
});

test.afterAll(async () => {
  if (server) await stopServer(server);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `npm run operator:create`: the account and the link that sets its password. */
function createOperator(email: string) {
  const run = spawnSync(
    join(ROOT, "node_modules/.bin/tsx"),
    ["scripts/operator.ts", "create", "--email", email, "--name", "Olga Operadora"],
    { cwd: ROOT, env, encoding: "utf8" },
  );
  expect(run.status, run.stderr).toBe(0);
  const link = run.stdout.match(/https?:\/\/\S+/)?.[0];
  expect(link?.startsWith(`${base}/`)).toBe(true);
  return link!;
}

test("a new operator turns on two-factor before the console opens", async ({ browser }) => {
  const email = `olga.${Date.now().toString(36)}@freela.test`;
  const password = "console-seguro-2026";
  const link = createOperator(email);
  const context = await browser.newContext({ baseURL: base, locale: "pt-BR" });
  const page = await context.newPage();
  try {
    await page.goto(link);
    await page.getByLabel("Nova senha").fill(password);
    await page.getByRole("button", { name: "Salvar nova senha" }).click();
    await expect(toast(page, "Senha alterada com sucesso.")).toBeVisible();

    await page.goto("/auth/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Senha").fill(password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    // The console is closed until two-factor is on: the security page says why.
    await expect(page).toHaveURL(/\/account\/security#two-factor$/);
    await expect(page.getByText("O console do operador exige a verificação em duas etapas.")).toBeVisible();
    await page.goto("/admin/reports");
    await expect(page).toHaveURL(/\/account\/security#two-factor$/);

    const section = page.getByRole("region", { name: /Verificação em duas etapas/ });
    await section.getByLabel("Senha").fill(password);
    await section.getByRole("button", { name: "Ativar" }).click();
    const secret = (await section.locator(".totp-secret").textContent())!.trim();
    await section.getByLabel("Código").fill(codeOf(secret));
    await section.getByRole("button", { name: "Confirmar e ativar" }).click();
    await expect(page.locator("#recovery-codes li")).toHaveCount(10);

    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();
  } finally {
    await context.close();
  }
});
