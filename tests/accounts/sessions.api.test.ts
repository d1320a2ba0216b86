import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { loader as listLoader, action as listAction } from "~/routes/api+/_account+/sessions._index";
import { action as endOneAction } from "~/routes/api+/_account+/sessions.$id";
import { action as endOthersAction } from "~/routes/api+/_account+/sessions.others";
import { action as endByLinkAction } from "~/routes/api+/_auth+/sessions.end";
import { deviceOf } from "~/services/accounts/devices";
import { LAST_USED_STEP_MS } from "~/services/accounts/sessions.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { startSmtp } from "../support/smtp";

// Sessions and devices (docs/product.md §1), through the API handlers on both engines: the list
// (device, address, last use, the current one marked), ending one, ending all others, the
// sign-in notice e-mailed for a device the account has not used before (a real SMTP server
// receives it) and its link, which ends that session once.

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
afterEach(() => {
  config.TRUST_PROXY = false;
  config.PLACE_HEADER = undefined;
});

let counter = 0;
async function account() {
  const email = `sessoes${++counter}.${Date.now()}@example.com`;
  const user = await createUser(db, { email, password: "segredo123" });
  return { user, email };
}

async function signIn(email: string, userAgent: string, ip?: string) {
  const headers: Record<string, string> = { "User-Agent": userAgent };
  if (ip) headers["X-Forwarded-For"] = ip;
  const res = await call(loginAction, jsonRequest("/api/login", { email, password: "segredo123" }, { headers }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

const list = (token: string) => call(listLoader, jsonRequest("/api/sessions", undefined, { token }));
const endOne = (token: string, id: string) =>
  call(endOneAction, jsonRequest(`/api/sessions/${id}`, undefined, { token, method: "DELETE" }), { id });
const profileStatus = async (token: string) =>
  (await call(profileLoader, jsonRequest("/api/profile", undefined, { token }))).status;

/** The sign-in notices e-mailed to `to` so far (sent through the real SMTP server). */
async function noticesTo(to: string) {
  await drainOutbox({ send: smtp.send });
  return smtp.received.filter((m) => m.to.includes(to) && /novo acesso à sua conta/.test(m.subject));
}

const linkTokenOf = (text: string) => {
  const link = /https?:\/\/\S+\/sessions\/end\?token=\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in: ${text}`);
  return { link, token: new URL(link).searchParams.get("token")! };
};

describe("the device of a session", () => {
  it("names the browser and the system of common user agents, and says nothing it does not know", () => {
    expect(deviceOf(CHROME_WINDOWS)).toEqual({ browser: "Chrome", os: "Windows", mobile: false });
    expect(deviceOf(SAFARI_IPHONE)).toEqual({ browser: "Safari", os: "iOS", mobile: true });
    expect(deviceOf(FIREFOX_LINUX)).toEqual({ browser: "Firefox", os: "Linux", mobile: false });
    expect(
      deviceOf(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toEqual({ browser: "Edge", os: "macOS", mobile: false });
    expect(
      deviceOf(
        "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
      ),
    ).toEqual({ browser: "Samsung Internet", os: "Android", mobile: true });
    // Browsers that also say "Chrome" get their own name (bowser, decision 043).
    expect(
      deviceOf(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 YaBrowser/24.1.0.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Yandex Browser", os: "Windows", mobile: false });
    expect(deviceOf("curl/8.5.0")).toEqual({ browser: "curl", os: null, mobile: false });
    expect(deviceOf(null)).toEqual({ browser: null, os: null, mobile: false });
    expect(deviceOf("\u0000???")).toEqual({ browser: null, os: null, mobile: false });
  });
});

describe("the sessions list", () => {
  it("names the place of a session only when the operator's trusted proxy says it (PLACE_HEADER)", async () => {
    const { email } = await account();
    const signInFrom = async (place: string) => {
      const headers = { "User-Agent": CHROME_WINDOWS, "X-Forwarded-For": "200.1.2.3", "CF-IPCountry": place };
      const res = await call(loginAction, jsonRequest("/api/login", { email, password: "segredo123" }, { headers }));
      return res.body.access_token as string;
    };
    const placeOf = async (token: string) =>
      (await list(token)).body.data.find((s: { current: boolean }) => s.current).place;
    // No header configured, or no trusted proxy: the client's own words are ignored, nothing is said.
    config.TRUST_PROXY = true;
    expect(await placeOf(await signInFrom("BR"))).toBeNull();
    config.PLACE_HEADER = "CF-IPCountry";
    config.TRUST_PROXY = false;
    expect(await placeOf(await signInFrom("BR"))).toBeNull();
    // Configured behind a trusted proxy: its value, control characters dropped; an unknown one ("XX") is nothing.
    config.TRUST_PROXY = true;
    expect(await placeOf(await signInFrom("BR\u0007"))).toBe("BR");
    expect(await placeOf(await signInFrom("XX"))).toBeNull();
  });

  it("lists the account's sessions with device, address and last use, the current one first and marked", async () => {
    config.TRUST_PROXY = true;
    const { user, email } = await account();
    const first = await signIn(email, CHROME_WINDOWS, "200.1.2.3");
    const second = await signIn(email, SAFARI_IPHONE, "177.4.5.6");
    const other = await account();
    await signIn(other.email, FIREFOX_LINUX);

    const res = await list(second);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const [current, older] = res.body.data;
    expect(current).toMatchObject({
      current: true,
      device: { browser: "Safari", os: "iOS", mobile: true },
      ip: "177.4.5.6",
    });
    expect(older).toMatchObject({ current: false, device: { browser: "Chrome", os: "Windows" }, ip: "200.1.2.3" });
    for (const s of res.body.data) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(s.last_used_at)).not.toBeNaN();
    }
    // The row's key (the token's hash) is never shown; the list is the same from the other session.
    const rows = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(JSON.stringify(res.body)).not.toContain(rows[0].id);
    const fromFirst = await list(first);
    expect(fromFirst.body.data.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
    expect((await call(listLoader, jsonRequest("/api/sessions"))).status).toBe(401);
    expect((await call(listAction, jsonRequest("/api/sessions", {}))).status).toBe(405);
  });

  it("refreshes the last use (and address) at most every few minutes", async () => {
    config.TRUST_PROXY = true;
    const { user, email } = await account();
    const token = await signIn(email, CHROME_WINDOWS, "200.1.2.3");
    const old = new Date(Date.now() - LAST_USED_STEP_MS - 60_000).toISOString();
    await db.updateTable("sessions").set({ last_used_at: old }).where("user_id", "=", user.id).execute();
    const headers = { "X-Forwarded-For": "189.9.9.9" };
    expect((await call(profileLoader, jsonRequest("/api/profile", undefined, { token, headers }))).status).toBe(200);
    const row = await db
      .selectFrom("sessions")
      .select(["last_used_at", "ip"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.last_used_at!)).toBeGreaterThan(Date.parse(old) + 60_000);
    expect(row.ip).toBe("189.9.9.9");
    // A request right after writes nothing: the stored last use is fresh.
    const again = { "X-Forwarded-For": "10.0.0.1" };
    await call(profileLoader, jsonRequest("/api/profile", undefined, { token, headers: again }));
    const after = await db
      .selectFrom("sessions")
      .select(["last_used_at", "ip"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(row);
  });
});

describe("ending sessions", () => {
  it("ends another session of the account, once; refuses the current one, another account's and bad ids", async () => {
    const { email } = await account();
    const laptop = await signIn(email, CHROME_WINDOWS);
    const phone = await signIn(email, SAFARI_IPHONE);
    const phoneId = (await list(phone)).body.data[0].id as string;
    const laptopId = (await list(laptop)).body.data[0].id as string;

    const ended = await endOne(laptop, phoneId);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe("Sessão encerrada.");
    expect(await profileStatus(phone)).toBe(401);
    expect(await profileStatus(laptop)).toBe(200);
    const again = await endOne(laptop, phoneId);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("Sessão não encontrada. Ela pode já ter sido encerrada.");

    const current = await endOne(laptop, laptopId);
    expect(current.status).toBe(409);
    expect(current.body.message).toBe("Esta é a sessão que você está usando. Para encerrá-la, saia da conta.");

    const stranger = await account();
    const strangerToken = await signIn(stranger.email, FIREFOX_LINUX);
    const theirs = await endOne(strangerToken, laptopId);
    expect(theirs.status).toBe(404);
    expect(await profileStatus(laptop)).toBe(200);

    for (const bad of ["nao-e-um-id", "0".repeat(500), "%00"]) {
      const res = await endOne(laptop, bad);
      expect(res.status).toBe(404);
    }
    expect((await endOne("token-falso", laptopId)).status).toBe(401);
  });

  it("ends all the others and keeps the current one", async () => {
    const { email } = await account();
    const tokens = [
      await signIn(email, CHROME_WINDOWS),
      await signIn(email, SAFARI_IPHONE),
      await signIn(email, FIREFOX_LINUX),
    ];
    const res = await call(
      endOthersAction,
      jsonRequest("/api/sessions/others", undefined, { token: tokens[1], method: "DELETE" }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2, message: "As outras sessões foram encerradas." });
    expect(await Promise.all(tokens.map(profileStatus))).toEqual([401, 200, 401]);
    expect((await list(tokens[1])).body.data).toHaveLength(1);
  });

  it("two ends of the same session at once: one ends it, the other gets 404", async () => {
    const { email } = await account();
    const laptop = await signIn(email, CHROME_WINDOWS);
    const phone = await signIn(email, SAFARI_IPHONE);
    const phoneId = (await list(phone)).body.data[0].id as string;
    const results = await Promise.all([endOne(laptop, phoneId), endOne(laptop, phoneId)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });
});

describe("sign-in notices", () => {
  it("e-mails a sign-in from a new device, once, with a link from APP_URL that ends that session once", async () => {
    const { email } = await account();
    const mine = await signIn(email, CHROME_WINDOWS);
    await signIn(email, CHROME_WINDOWS);
    // The account's first device, and the same device again: no notice.
    expect(await noticesTo(email)).toHaveLength(0);

    const intruder = await signIn(email, FIREFOX_LINUX);
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toBe("Freela: novo acesso à sua conta");
    expect(notices[0].text).toContain("Firefox · Linux");
    const { link, token } = linkTokenOf(notices[0].text);
    expect(link.startsWith(`${config.APP_URL}/sessions/end?token=`)).toBe(true);
    // The link left the outbox with the e-mail.
    const rows = await db.selectFrom("outbox").select("payload").where("kind", "=", "sign_in_notice").execute();
    expect(rows.every((r) => r.payload === null)).toBe(true);

    // Known from now on: the same device again sends nothing.
    await signIn(email, FIREFOX_LINUX);
    expect(await noticesTo(email)).toHaveLength(1);

    const endByLink = (body: unknown) => call(endByLinkAction, jsonRequest("/api/sessions/end", body));
    const ended = await endByLink({ token });
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe("Sessão encerrada.");
    expect(await profileStatus(intruder)).toBe(401);
    expect(await profileStatus(mine)).toBe(200);
    const again = await endByLink({ token });
    expect(again.status).toBe(410);
    expect(again.body.message).toBe("Esta sessão já foi encerrada.");
    for (const bad of [{}, { token: null }, { token: 42 }, { token: "" }, { token: "x".repeat(500) }]) {
      const res = await endByLink(bad);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe("Este link de encerramento é inválido.");
    }
    expect((await endByLink({ token: "x".repeat(43) })).status).toBe(410);
  });
});
