import { test as base, type Page } from "@playwright/test";
import { hire, registerViaApi, userPage } from "./support";

type Account = { email: string; password: string; full_name: string; display_name?: string };
/** A new account, and a page of its own signed in as it (JavaScript as the test's `javaScriptEnabled`). */
export type SignedIn = { account: Account; page: Page; newPage: () => Promise<Page> };

type Fixtures = {
  /** A new merchant, signed in. */
  merchant: SignedIn;
  /** A new freelancer, signed in. */
  freelancer: SignedIn;
  /** A merchant and a freelancer hired through the API: their contract (and application) id. */
  hired: { id: string; title: string; opportunity: string; merchant: SignedIn; freelancer: SignedIn };
  /** Signs a new account of that type in, on a page of its own. */
  newUser: (account_type: "merchant" | "freelancer") => Promise<SignedIn>;
};

/**
 * The browser tests' own `test`: `test.use({ javaScriptEnabled: false })` runs a describe block
 * without JavaScript, and the fixtures above sign people in with real sessions (no typing). Each
 * page's context is closed when the test ends.
 */
export const test = base.extend<Fixtures>({
  newUser: async ({ browser, request, javaScriptEnabled }, use, testInfo) => {
    const pages: Page[] = [];
    const signIn = async (account: Account) => {
      const page = await userPage(browser, testInfo, javaScriptEnabled, account);
      pages.push(page);
      return page;
    };
    await use(async (account_type) => {
      const account = await registerViaApi(request, { account_type });
      return { account, page: await signIn(account), newPage: () => signIn(account) };
    });
    for (const page of pages) await page.context().close();
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
