import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import * as registerPage from "~/routes/_auth+/register";
import { loader as verifyPage } from "~/routes/_auth+/verify-email";
import { loader as welcomePage } from "~/routes/_account+/primeiros-passos";
import { loader as homeLoader } from "~/routes/_index";
import { action as registerApi } from "~/routes/api+/_auth+/register";
import { registerAndSignIn } from "~/services/accounts/accounts.server";
import { sessionCookie } from "~/web/session.server";
import { db } from "../../db";
import { call, jsonRequest, mailsTo, signedInUser } from "../support/helpers";
import { postForm } from "../operator/support";

// Signing up signs in (docs/product.md, "Cadastro"): the page's form opens a session and goes
// back where the visitor was; the API keeps its contract (no session); a burst of registrations
// opens no more sessions than the registration's limit lets through; and the first confirmation
// of the e-mail leads to the account type's next steps.

let counter = 0;
const fresh = () => `cadastro${++counter}.${Date.now().toString(36)}@example.com`;
const form = (email: string, extra: Record<string, string> = {}) => ({
  account_type: "freelancer",
  full_name: "Nina Nova",
  email,
  password: "senha-segura-1",
  ...extra,
});

const sessionsOf = async (email: string) => {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("users.email", "=", email)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The session cookie a response sets, as a request's Cookie header. */
async function cookieOf(headers: Headers) {
  const set = headers.get("Set-Cookie") ?? "";
  const pair = set.split(/,\s*(?=[\w-]+=)/).find((c) => c.startsWith("freela_session="));
  expect(pair).toBeTruthy();
  const token: unknown = await sessionCookie.parse(pair!.split(";")[0]!);
  expect(typeof token).toBe("string");
  return (await sessionCookie.serialize(token as string)).split(";")[0]!;
}

afterEach(() => {
  config.PAYMENTS = "off";
});

describe("the sign-up form (no JavaScript: a plain post)", () => {
  it("signs in at once and goes back where the visitor was", async () => {
    const email = fresh();
    const res = await postForm(registerPage, "/register", undefined, form(email, { redirectFrom: "/vagas?q=logo" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/vagas?q=logo");
    expect(await sessionsOf(email)).toBe(1);
    // The cookie it set is a session of the new account: the home is its list.
    const home = await call(
      homeLoader,
      new Request("http://localhost/", { headers: { Cookie: await cookieOf(res.headers) } }),
    );
    expect(home.status).toBe(200);
    expect(home.body.role).toBe("freelancer");
  });

  it("goes home when it came from nowhere or from another site", async () => {
    for (const redirectFrom of ["", "https://malicioso.example.com/", "//malicioso.example.com"]) {
      const res = await postForm(registerPage, "/register", undefined, form(fresh(), { redirectFrom }));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it("a refused form opens no session and comes back with its messages", async () => {
    const email = fresh();
    const res = await postForm(registerPage, "/register", undefined, form(email, { password: "curta" }));
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toBe("A senha deve ter entre 8 e 72 caracteres.");
    expect(res.headers.get("Set-Cookie") ?? "").not.toContain("freela_session=");
    expect(await sessionsOf(email)).toBe(0);
  });
});

describe("the API keeps its contract", () => {
  it("POST /api/register: 201 with the user and no session", async () => {
    const email = fresh();
    const res = await call(registerApi, jsonRequest("/api/register", form(email)));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: "Cadastro realizado com sucesso! Faça login.",
      data: { user: { email } },
    });
    expect(res.body.access_token).toBeUndefined();
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await sessionsOf(email)).toBe(0);
  });
});

describe("a burst of sign-ups from one address", () => {
  it("opens a session per account the registration's limit lets through (20 an hour), none for the rest", async () => {
    const client = { ip: "198.51.100.77", locale: null, userAgent: "burst" };
    const emails = Array.from({ length: 25 }, fresh);
    const results = await Promise.allSettled(emails.map((email) => registerAndSignIn(form(email), client)));
    const done = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(done).toHaveLength(20);
    expect(refused.map((r) => r.reason.status)).toEqual([429, 429, 429, 429, 429]);
    const sessions = await Promise.all(emails.map(sessionsOf));
    expect(sessions.reduce((a, b) => a + b, 0)).toBe(20);
  });
});

describe("the first page after confirming the e-mail", () => {
  async function linkTokenFor(email: string) {
    const [mail] = await mailsTo(email);
    const link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail!.text)![0];
    return new URL(link).searchParams.get("token")!;
  }

  it("signed in: the account type's next steps; signed out: the login, then the same page", async () => {
    const email = fresh();
    const res = await postForm(registerPage, "/register", undefined, form(email));
    const cookie = await cookieOf(res.headers);
    const token = await linkTokenFor(email);
    const opened = await call(
      verifyPage,
      new Request(`http://localhost/verify-email?token=${token}`, { headers: { Cookie: cookie } }),
    );
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/primeiros-passos");

    const other = fresh();
    await call(registerApi, jsonRequest("/api/register", form(other)));
    const signedOut = await call(verifyPage, jsonRequest(`/verify-email?token=${await linkTokenFor(other)}`));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe("/login?redirectFrom=%2Fprimeiros-passos");
  });

  it("the steps: the merchant's profile and first opportunity; the freelancer's profile, Pix key (with payments on) and opportunities", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const m = await call(welcomePage, jsonRequest("/primeiros-passos", undefined, { token: merchant.token }));
    expect(m.status).toBe(200);
    expect(m.body.steps.map((s: { key: string }) => s.key)).toEqual(["profile", "publish"]);
    const freelancer = await signedInUser({ account_type: "freelancer", bio: "Designer", skills: ["Figma"] });
    const off = await call(welcomePage, jsonRequest("/primeiros-passos", undefined, { token: freelancer.token }));
    expect(off.body.steps).toEqual([
      { key: "profile", to: "/pages/profile-setting", done: true },
      { key: "browse", to: "/opportunities" },
    ]);
    config.PAYMENTS = "escrow";
    const on = await call(welcomePage, jsonRequest("/primeiros-passos", undefined, { token: freelancer.token }));
    expect(on.body.steps.map((s: { key: string }) => s.key)).toEqual(["profile", "payout_key", "browse"]);
    const visitor = await call(welcomePage, jsonRequest("/primeiros-passos"));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/login?redirectFrom=%2Fprimeiros-passos");
  });
});
