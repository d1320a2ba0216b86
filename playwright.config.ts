import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import * as WHATSAPP_STANDIN from "./tests/support/whatsapp-cloud";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// E2E_PORT and E2E_DIR let two runs on one machine keep out of each other's way.
const E2E_DIR = process.env.E2E_DIR ?? "data/e2e";
export const E2E_DATABASE = `${E2E_DIR}/freela.db`;

// Debian's Chromium where it is installed (CI); Playwright's own browser elsewhere.
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

// The mailbox the servers send to (tests/support/mail-catcher.ts): SMTP on PORT+2, read over
// HTTP on PORT+3 by the tests that follow a link from an e-mail.
export const MAIL_CATCHER_PORT = PORT + 2;

/** The browser servers' session secret: tests/e2e/support.ts signs the session cookies it makes with it. */
export const E2E_SESSION_SECRET = "e2e-secret-0123456789abcdef0123456789abcdef";
/** The generic bounce webhook's secret (tests/e2e/email.spec.ts signs with it). */
export const E2E_EMAIL_WEBHOOK_SECRET = "e2e-email-webhook-secret-0123456789";

const serverEnv = {
  NODE_ENV: "production",
  SESSION_SECRET: E2E_SESSION_SECRET,
  SEED_DEMO: "1",
  BCRYPT_COST: "4",
  SMTP_URL: `smtp://127.0.0.1:${MAIL_CATCHER_PORT}`,
  OUTBOX_SECONDS: "1",
  // The demo operator signs in with the password, as in `npm run demo` (the requirement itself is
  // tested in tests/operator/two-factor-required.test.ts).
  OPERATOR_TWO_FACTOR: "off",
  // Accounts made by the stories are minutes old: the new-account limits are tested in
  // tests/marketplace/new-accounts.test.ts.
  NEW_ACCOUNT_HOURS: "0",
  EMAIL_WEBHOOK_SECRET: E2E_EMAIL_WEBHOOK_SECRET,
  // One server process: the browser tests check pages, not the cluster (tests/server/crash and
  // tests/server/multinode do), and five servers with one process per core crowd a small machine.
  WEB_CONCURRENCY: "1",
};

/**
 * The payments server's settings; the tests' stand-ins use the same tokens and secrets: Mercado
 * Pago's (tests/payments/mercadopago-server.ts) on PORT+5, Pix Automático's API Pix
 * (tests/payments/pix-automatico-server.ts) on PORT+10. The contracts' schedule runs every 2 s,
 * so a month's recurring charge is asked for while the Pix Automático story waits (one run on a
 * server with nothing due is a few queries).
 */
export const E2E_PAYMENTS = {
  PAYMENTS: "escrow",
  PAYMENTS_PROVIDER: "mercadopago",
  MERCADOPAGO_API_URL: `http://127.0.0.1:${PORT + 5}`,
  MERCADOPAGO_ACCESS_TOKEN: "e2e-access-token",
  MERCADOPAGO_WEBHOOK_SECRET: "e2e-webhook-secret-0123456789",
  PIX_AUTOMATICO_API_URL: `http://127.0.0.1:${PORT + 10}`,
  PIX_AUTOMATICO_TOKEN: "e2e-pix-automatico-token",
  PIX_AUTOMATICO_WEBHOOK_SECRET: "e2e-pix-automatico-secret-0123456789",
  CONTRACT_SCHEDULE_SECONDS: "2",
  PLATFORM_FEE_BPS: "1000",
};
export const E2E_MERCADOPAGO_PORT = PORT + 5;
export const E2E_PIX_AUTOMATICO_PORT = PORT + 10;

/**
 * The Sefin Nacional's stand-in of the notas story (tests/support/sefin-standin.ts), started by
 * the story on PORT+8; the server trusts the CA the story writes to `caFile`.
 */
export const E2E_SEFIN = { port: PORT + 8, caFile: `${E2E_DIR}-sefin-ca.pem` };

/**
 * WhatsApp on for the stories' and the crawl's servers, its Cloud API answered by the stand-in
 * (tests/support/whatsapp-cloud.ts) the WhatsApp story starts on PORT+9; nobody has a number
 * until a story confirms one, so nothing else goes there.
 */
export const E2E_WHATSAPP_PORT = PORT + 9;
const E2E_WHATSAPP = {
  WHATSAPP_API_URL: `http://127.0.0.1:${E2E_WHATSAPP_PORT}`,
  WHATSAPP_PHONE_NUMBER_ID: WHATSAPP_STANDIN.PHONE_NUMBER_ID,
  WHATSAPP_TOKEN: WHATSAPP_STANDIN.TOKEN,
  WHATSAPP_APP_SECRET: WHATSAPP_STANDIN.APP_SECRET,
  WHATSAPP_VERIFY_TOKEN: WHATSAPP_STANDIN.VERIFY_TOKEN,
};

/** The manual provider's server (the platform's own Pix key; the operator confirms receipts). */
const E2E_MANUAL_PIX = {
  PAYMENTS: "escrow",
  PAYMENTS_PROVIDER: "manual",
  PIX_KEY: "pagamentos@freela.dev",
  PLATFORM_FEE_BPS: "1000",
  NFSE_SEFIN_URL: `https://127.0.0.1:${E2E_SEFIN.port}/SefinNacional`,
  NFSE_SEFIN_CA_FILE: E2E_SEFIN.caFile,
};
const MANUAL_PORT = PORT + 6;

/**
 * The SQLite file behind each browser project's server: the tests write the accounts they need
 * and their sessions there (tests/e2e/support.ts) instead of registering and waiting for the
 * e-mail's link; on PostgreSQL (no file) they register through the API and follow the link.
 * `server`: a server the project's own worker starts before its first test and stops after its
 * last (tests/e2e/fixtures.ts), so a run without the project's specs does not start it.
 */
export type E2EMetadata = { sqlite?: string; server?: { dir: string; env: Record<string, string> } };

/**
 * A server of the project's own on `port` (SQLite in `dir`), started by the project's worker; so
 * one worker for the project, as a second would start a second server on the same port.
 */
function ownServer(port: number, dir: string, settings: Record<string, string>) {
  return { workers: 1, metadata: ownServerMetadata(port, dir, settings) };
}

function ownServerMetadata(port: number, dir: string, settings: Record<string, string>): E2EMetadata {
  return {
    sqlite: `${dir}/freela.db`,
    server: {
      dir,
      env: {
        ...serverEnv,
        ...settings,
        PORT: String(port),
        APP_URL: `http://localhost:${port}`,
        DATABASE_PATH: `${dir}/freela.db`,
        UPLOADS_DIR: `${dir}/uploads`,
      },
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  // Two workers, each taking whole files: the axe crawl (the longest file) runs beside the
  // stories. A project with a server of its own keeps one worker (ownServer).
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ["list"],
    ...(process.env.CI ? [] : [["html", { open: "never" }] as const]),
    // npm test (scripts/test.ts) reads the times of the run from it.
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["json"] as const] : []),
  ],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    launchOptions: systemChromium
      ? {
          executablePath: systemChromium,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        }
      : {},
  },
  // Every story once, on SQLite (project "chromium"): the engine is the Vitest suites' axis
  // (services, API handlers and page actions on both) and the server suites'. PostgreSQL gets a
  // short browser smoke (postgres-smoke.spec.ts: sign in, publish, apply, hire, fund, deliver,
  // approve) on a server with the manual Pix provider on. The payments stories run on two more
  // SQLite servers with payments on (PAYMENTS=escrow): Mercado Pago as provider, answered by a
  // local stand-in the test starts on PORT+5, and the manual provider; each is started by its
  // project's worker (metadata.server), so only a run that includes their specs starts them.
  projects: [
    {
      // Listed first: Playwright hands out files in the projects' order, and the crawl is the
      // run's longest test (~6 min), so it starts at once on one worker while the other takes
      // the stories (started last, it ran alone at the end for minutes).
      // The axe crawl and the keyboard tests on a server of their own (the demo data, payments
      // off, as "chromium"), on PORT+7: the crawl follows every link it finds, and the stories
      // running beside it on the other worker would put their opportunities in its lists and
      // take them away while it walks.
      name: "chromium-axe",
      testMatch: /accessibility\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], baseURL: `http://localhost:${PORT + 7}` },
      // I18N_STRICT: a text missing from a language file renders as ⟦key⟧, which the crawl reports.
      ...ownServer(PORT + 7, `${E2E_DIR}-axe`, { I18N_STRICT: "1", ...E2E_WHATSAPP }),
    },
    {
      name: "chromium-postgres",
      testMatch: /postgres-smoke\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], baseURL: `http://localhost:${PORT + 1}` },
    },
    {
      name: "chromium-payments",
      testMatch: /(payments|pix-automatico)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], baseURL: `http://localhost:${PORT + 4}` },
      // Payments on, SQLite, on PORT+4 (PORT+2 and +3 are the mailbox's), with Mercado Pago's API
      // at PORT+5 and Pix Automático's at PORT+10 (E2E_PAYMENTS).
      ...ownServer(PORT + 4, `${E2E_DIR}-payments`, E2E_PAYMENTS),
    },
    {
      name: "chromium-pix-manual",
      testMatch: /(payments|dispute-split|milestones-pix|identity|notas|hourly)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], baseURL: `http://localhost:${MANUAL_PORT}` },
      ...ownServer(MANUAL_PORT, `${E2E_DIR}-pix-manual`, E2E_MANUAL_PIX),
    },
    {
      // Last: its files go to whichever worker is free, so they fill the time around the crawl and
      // the projects held to one worker by a server of their own (listed before it, they start at
      // once rather than running alone at the end).
      name: "chromium",
      testIgnore:
        /(accessibility|payments|dispute-split|milestones-pix|identity|notas|hourly|postgres-smoke|pix-automatico)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"] },
      metadata: { sqlite: E2E_DATABASE } satisfies E2EMetadata,
    },
  ],
  webServer: [
    {
      command: "tsx tests/support/mail-catcher.ts",
      url: `http://127.0.0.1:${MAIL_CATCHER_PORT + 1}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { MAIL_CATCHER_PORT: String(MAIL_CATCHER_PORT) },
    },
    {
      // A fresh database for every run; the production build served as `npm start` serves it
      // (with WEB_CONCURRENCY=1: one process).
      command: `rm -rf ${E2E_DIR} && tsx scripts/migrate.ts && node --import tsx scripts/serve.ts`,
      url: `http://localhost:${PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...serverEnv,
        ...E2E_WHATSAPP,
        PORT: String(PORT),
        APP_URL: `http://localhost:${PORT}`,
        DATABASE_PATH: E2E_DATABASE,
        UPLOADS_DIR: `${E2E_DIR}/uploads`,
      },
    },
    {
      // The same on a throwaway PostgreSQL server, removed when the run ends, with the manual
      // Pix provider on for the smoke's funded milestone.
      command: "tsx tests/support/serve-on-postgres.ts",
      url: `http://localhost:${PORT + 1}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
      env: { ...serverEnv, ...E2E_MANUAL_PIX, PORT: String(PORT + 1), APP_URL: `http://localhost:${PORT + 1}` },
    },
  ],
});
