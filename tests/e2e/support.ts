import { test, type APIRequestContext, type Page } from "@playwright/test";

export { PNG_1X1 } from "../fixtures";

let counter = 0;
export function freshEmail(prefix: string) {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

/** Creates an account through the public API, as another client would. */
export async function registerViaApi(
  request: APIRequestContext,
  fields: { full_name?: string; display_name?: string; email?: string; password?: string; account_type: "merchant" | "freelancer" },
) {
  const body = {
    full_name: fields.full_name ?? (fields.account_type === "merchant" ? "Marina Contratante" : "Rafael Freelancer"),
    display_name: fields.display_name,
    email: fields.email ?? freshEmail(fields.account_type),
    password: fields.password ?? "senha-segura-1",
    account_type: fields.account_type,
  };
  const res = await request.post("/api/register", { data: body });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  return body;
}

/**
 * Signs in the page's browser context with a real session, without typing: the login form is
 * posted over HTTP and the session cookie lands in the context's cookie jar.
 */
export async function signIn(page: Page, email: string, password: string) {
  const res = await page.request.post("/login", {
    form: { email, password },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  if (res.status() !== 302) throw new Error(`sign-in failed: ${res.status()}`);
}
