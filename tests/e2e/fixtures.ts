import { rmSync } from "node:fs";
import { test as base, type Page } from "@playwright/test";
import { LAUNCHER, migrate, spawnServer, stopServer } from "../support/server";
import type { E2EMetadata } from "../../playwright.config";
import { addSessionCookie, hire, registerViaApi, signIn, userPage, type Account, type NewAccount } from "./support";

/** A new account, and a page of its own signed in as it (JavaScript as the test's `javaScriptEnabled`). */
export type SignedIn = { account: Account; page: Page; newPage: () => Promise<Page> };

type Fixtures = {
  /** A new merchant, signed in. */
  merchant: SignedIn;
  /** A new freelancer, signed in. */
  freelancer: SignedIn;
  /** A merchant and a freelancer hired through the API: their contract (and application) id. */
  hired: { id: string; title: string; opportunity: string; merchant: SignedIn; freelancer: SignedIn };
  /** Signs a new account of that type (and profile) in, on a page of its own. */
  newUser: (account_type: "merchant" | "freelancer", profile?: Omit<NewAccount, "account_type">) => Promise<SignedIn>;
  /**
   * Signs the test's own `page` in as a new account, as the Epic Stack's `login` fixture does:
   * made by the factories with a session cookie on the server's SQLite file (through the API
   * where the project has none).
   */
  login: (fields: NewAccount) => Promise<Account>;
};

/**
 * The browser tests' own `test`: `test.use({ javaScriptEnabled: false })` runs a describe block
 * without JavaScript, and the fixtures above sign people in with real sessions (no typing). Each
 * page's context is closed when the test ends.
 */
export const test = base.extend<Fixtures, { projectServer: void }>({
  // The project's own server (playwright.config.ts, metadata.server: the payments servers): a
  // fresh database, migrated, then `npm start`'s launcher, before the worker's first test; stopped
  // after its last. Projects without one start nothing.
  projectServer: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const server = (workerInfo.project.metadata as E2EMetadata | undefined)?.server;
      if (!server) return use();
      rmSync(server.dir, { recursive: true, force: true });
      const env = { ...process.env, ...server.env };
      migrate(env);
      const running = await spawnServer({
        env,
        base: `http://localhost:${server.env.PORT}`,
        script: ["--import", "tsx", LAUNCHER],
        timeoutMs: 60_000,
      });
      await use();
      await stopServer(running);
    },
    { scope: "worker", auto: true, timeout: 90_000 },
  ],
  newUser: async ({ browser, request, javaScriptEnabled }, use, testInfo) => {
    const pages: Page[] = [];
    const signIn = async (account: Account) => {
      const page = await userPage(browser, testInfo, javaScriptEnabled, account);
      pages.push(page);
      return page;
    };
    await use(async (account_type, profile) => {
      const account = await registerViaApi(request, { ...profile, account_type });
      return { account, page: await signIn(account), newPage: () => signIn(account) };
    });
    for (const page of pages) await page.context().close();
  },
  login: async ({ page }, use, testInfo) => {
    await use(async (fields) => {
      const account = await registerViaApi(page.request, fields);
      const file = (testInfo.project.metadata as E2EMetadata | undefined)?.sqlite;
      if (account.id && file) await addSessionCookie(page.context(), file, account.id, testInfo);
      else await signIn(page, account.email, account.password);
      return account;
    });
  },
  merchant: async ({ newUser }, use) => use(await newUser("merchant")),
  freelancer: async ({ newUser }, use) => use(await newUser("freelancer")),
  hired: async ({ browser, request, javaScriptEnabled }, use, testInfo) => {
    const { merchant, freelancer, id, title, opportunity } = await hire(request);
    const signedIn = async (account: Account): Promise<SignedIn> => {
      const page = await userPage(browser, testInfo, javaScriptEnabled, account);
      return { account, page, newPage: () => userPage(browser, testInfo, javaScriptEnabled, account) };
    };
    const sides = { merchant: await signedIn(merchant), freelancer: await signedIn(freelancer) };
    await use({ id, title, opportunity, ...sides });
    await sides.merchant.page.context().close();
    await sides.freelancer.page.context().close();
  },
});

export { expect } from "@playwright/test";
