import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { config } from "~/config.server";
import { hasLink } from "~/lib/links";
import { db } from "../../db";
import { createApplication, createInvitation, createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import * as applyRoute from "~/routes/api+/opportunities+/$uuid.applications";
import * as messagesRoute from "~/routes/api+/applications+/$id.messages";
import * as messagesPage from "~/routes/applications+/$id_.messages";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import { applyToOpportunity } from "~/services/marketplace/applications.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { AppError, describeError } from "~/services/platform/errors.server";
import { fixedT } from "~/services/platform/i18n.server";
import { newAccountUntil } from "~/services/platform/new-accounts.server";
import { postForm } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { outcome, validApplication } from "../support/market";

// New accounts' first hours (docs/product.md, "Contas novas"), on both engines, with the clock
// set: an account made at 17:05 UTC on 27/11 is limited until 29/11 at 14:05 in São Paulo.

const NOW = "2026-11-28T12:00:00.000Z";
const CREATED = "2026-11-27T17:05:00.000Z";
const LIFTS = "2026-11-29T17:05:00.000Z";
const saved = { ...config };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(NOW));
  Object.assign(config, { NEW_ACCOUNT_HOURS: 48, NEW_ACCOUNT_MAX_APPLICATIONS: 5, NEW_ACCOUNT_MAX_FIRST_MESSAGES: 5 });
});
afterEach(() => {
  vi.useRealTimers();
  Object.assign(config, saved);
});

const newFreelancer = (created_at = CREATED) => signedInUser({ account_type: "freelancer", created_at });
const openOpportunities = (n: number) => Promise.all(Array.from({ length: n }, () => createOpportunity(db, {})));
const apply = (user: UserRow, uuid: string) => applyToOpportunity(user, uuid, validApplication);
const statuses = async (promises: Promise<unknown>[]) => (await Promise.all(promises.map(outcome))).sort();

/** `n` applications of the freelancer (made by the factory, no message yet), each to another merchant. */
async function conversations(freelancerId: string, n: number) {
  const opportunities = await openOpportunities(n);
  return Promise.all(
    opportunities.map((opportunity) => createApplication(db, { opportunity, freelancer_id: freelancerId })),
  );
}

describe("a new account's applications", () => {
  it("five pass; the sixth is 429 with the code, when it lifts and Retry-After, by the API", async () => {
    const f = await newFreelancer();
    const opportunities = await openOpportunities(6);
    for (const o of opportunities.slice(0, 5)) await apply(f.user, o.uuid);
    const uuid = opportunities[5]!.uuid;
    const refused = await call(
      applyRoute.action,
      jsonRequest(`/api/opportunities/${uuid}/applications`, validApplication, { token: f.token }),
      { uuid },
    );
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message:
        "Nas primeiras 48 horas, uma conta nova envia até 5 candidaturas, e você já enviou. Você poderá enviar mais a partir de 29/11 às 14:05.",
      code: "new_account_applications",
      lifts_at: LIFTS,
    });
    // From 12:00 to 17:05 the next day: 29 h 5 min.
    expect(refused.headers.get("Retry-After")).toBe(String(29 * 3600 + 5 * 60));
    const count = await db
      .selectFrom("applications")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("freelancer_id", "=", f.user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(5);
  });

  it("the refusal in English says when it lifts, in São Paulo's time", async () => {
    const f = await newFreelancer();
    const opportunities = await openOpportunities(6);
    for (const o of opportunities.slice(0, 5)) await apply(f.user, o.uuid);
    const refusal = await apply(f.user, opportunities[5]!.uuid).catch((error: AppError) => error);
    expect(describeError(refusal as AppError, fixedT("en"))).toEqual({
      message:
        "In its first 48 hours a new account sends up to 5 applications, and you have sent them. You can send more from 11/29 at 2:05 PM.",
      code: "new_account_applications",
      lifts_at: LIFTS,
    });
  });

  it("a burst of ten parallel applications: exactly five pass", async () => {
    const f = await newFreelancer();
    const opportunities = await openOpportunities(10);
    expect(await statuses(opportunities.map((o) => apply(f.user, o.uuid)))).toEqual([
      ...Array(5).fill(200),
      ...Array(5).fill(429),
    ]);
  });

  it("the limit lifts when the window ends; older accounts and a window of 0 are not limited", async () => {
    const f = await newFreelancer();
    const opportunities = await openOpportunities(8);
    for (const o of opportunities.slice(0, 5)) await apply(f.user, o.uuid);
    expect(await outcome(apply(f.user, opportunities[5]!.uuid))).toBe(429);
    vi.setSystemTime(new Date(Date.parse(LIFTS) - 1000));
    expect(await outcome(apply(f.user, opportunities[5]!.uuid))).toBe(429);
    vi.setSystemTime(new Date(LIFTS));
    expect(await outcome(apply(f.user, opportunities[5]!.uuid))).toBe(200);

    const old = await newFreelancer("2026-11-26T11:59:00.000Z");
    for (const o of opportunities.slice(0, 7)) expect(await outcome(apply(old.user, o.uuid))).toBe(200);
    config.NEW_ACCOUNT_HOURS = 0;
    expect(newAccountUntil(f.user, NOW)).toBeNull();
  });

  it("operators are never limited", async () => {
    const operator = await createUser(db, { account_type: "operator", created_at: NOW });
    expect(newAccountUntil(operator, NOW)).toBeNull();
    const merchant = await createUser(db, { account_type: "merchant", created_at: NOW });
    expect(newAccountUntil(merchant, NOW)?.toISOString()).toBe("2026-11-30T12:00:00.000Z");
  });

  it("the opportunity's page without JavaScript: 429, the message, and the letter typed kept", async () => {
    const f = await newFreelancer();
    const opportunities = await openOpportunities(6);
    for (const o of opportunities.slice(0, 5)) await apply(f.user, o.uuid);
    const uuid = opportunities[5]!.uuid;
    const letter = "Tenho experiência com lojas virtuais e posso começar amanhã mesmo.";
    const refused = await postForm(
      opportunityPage,
      `/opportunities/${uuid}`,
      f.token,
      { intent: "apply", cover_letter: letter, price: "1.500,00", delivery_days: "10" },
      { uuid },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain("a partir de 29/11 às 14:05");
    expect(refused.body.values).toMatchObject({ cover_letter: letter, price: "1.500,00", delivery_days: "10" });
  });
});

describe("a new account's first messages", () => {
  it("five conversations opened with strangers; the sixth is 429; links, replies and invitations", async () => {
    const f = await newFreelancer();
    const apps = await conversations(f.user.id, 8);
    for (const a of apps.slice(0, 5)) await sendMessage(f.user, a.id, { body: "Olá! Posso começar amanhã." });
    // A second message in an opened conversation is not a first one.
    await sendMessage(f.user, apps[0]!.id, { body: "Mais uma coisa." });
    const path = `/api/applications/${apps[5]!.id}/messages`;
    const refused = await call(
      messagesRoute.action,
      jsonRequest(path, { body: "Olá! Posso começar amanhã." }, { token: f.token }),
      { id: apps[5]!.id },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("new_account_first_messages");
    expect(refused.body.lifts_at).toBe(LIFTS);
    expect(refused.body.message).toContain("a partir de 29/11 às 14:05");
    expect(refused.headers.get("Retry-After")).toBe(String(29 * 3600 + 5 * 60));

    // Not a stranger: the merchant wrote first, or invited the freelancer.
    const merchantOf = async (applicationId: string) =>
      (await db
        .selectFrom("applications as a")
        .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
        .innerJoin("users as u", "u.id", "o.merchant_id")
        .selectAll("u")
        .select("o.id as opportunity_id")
        .where("a.id", "=", applicationId)
        .executeTakeFirstOrThrow()) as UserRow & { opportunity_id: number };
    const m6 = await merchantOf(apps[5]!.id);
    await sendMessage(m6, apps[5]!.id, { body: "Oi, vi sua proposta." });
    expect(await outcome(sendMessage(f.user, apps[5]!.id, { body: "Que bom! Posso começar." }))).toBe(200);
    const m7 = await merchantOf(apps[6]!.id);
    await createInvitation(db, { opportunity_id: m7.opportunity_id, merchant_id: m7.id, freelancer_id: f.user.id });
    expect(await outcome(sendMessage(f.user, apps[6]!.id, { body: "Obrigado pelo convite!" }))).toBe(200);
    expect(await outcome(sendMessage(f.user, apps[7]!.id, { body: "Olá!" }))).toBe(429);
  });

  it("no link in a first message (403 on the field); allowed in the next one and for older accounts", async () => {
    const f = await newFreelancer();
    const apps = await conversations(f.user.id, 2);
    for (const body of ["Veja https://exemplo.com", "meu site: www.exemplo", "loja.com.br/portfolio", "wa.me/5511"]) {
      const refused = await call(
        messagesRoute.action,
        jsonRequest(`/api/applications/${apps[0]!.id}/messages`, { body }, { token: f.token }),
        { id: apps[0]!.id },
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: "new_account_link",
        lifts_at: LIFTS,
        errors: { body: "Tire o link: a primeira mensagem de uma conta nova não pode ter links." },
      });
    }
    await sendMessage(f.user, apps[0]!.id, { body: "Olá! Tenho um portfólio." });
    expect(await outcome(sendMessage(f.user, apps[0]!.id, { body: "Está em https://exemplo.com" }))).toBe(200);
    // A new merchant's first message to a freelancer who applied is not counted, but has no link either.
    const merchant = await createUser(db, { account_type: "merchant", created_at: CREATED });
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
    const app = await createApplication(db, { opportunity, freelancer_id: f.user.id });
    expect(await outcome(sendMessage(merchant, app.id, { body: "Pague o depósito em pix.exemplo.com" }))).toBe(403);
    const old = await createUser(db, { account_type: "merchant", created_at: "2026-11-20T10:00:00.000Z" });
    const oldApp = await createApplication(db, {
      opportunity: await createOpportunity(db, { merchant_id: old.id }),
      freelancer_id: f.user.id,
    });
    expect(await outcome(sendMessage(old, oldApp.id, { body: "Veja https://exemplo.com" }))).toBe(200);
  });

  it("a burst of ten first messages to ten strangers: exactly five pass", async () => {
    const f = await newFreelancer();
    const apps = await conversations(f.user.id, 10);
    expect(await statuses(apps.map((a) => sendMessage(f.user, a.id, { body: "Olá! Posso começar amanhã." })))).toEqual([
      ...Array(5).fill(200),
      ...Array(5).fill(429),
    ]);
  });

  it("the conversation's page without JavaScript: 403, the message on the field, and the text typed kept", async () => {
    const f = await newFreelancer();
    const [app] = await conversations(f.user.id, 1);
    const typed = "Meu portfólio está em www.meuportfolio.com.br, dá uma olhada!";
    const refused = await postForm(
      messagesPage,
      `/applications/${app!.id}/messages`,
      f.token,
      { body: typed },
      {
        id: app!.id,
      },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("links ficam liberados a partir de 29/11 às 14:05");
    expect(refused.body.errors.body).toBe("Tire o link: a primeira mensagem de uma conta nova não pode ter links.");
    expect(refused.body.values.body).toBe(typed);
  });
});

describe("links", () => {
  it("catches addresses and bare domains, not prices, files, versions or e-mail addresses", () => {
    for (const text of [
      "http://a.b",
      "HTTPS://exemplo.com.br/x",
      "www.site",
      "bit.ly/abc",
      "t.me/fulano",
      "acesse loja.com.br",
      "meusite.dev.",
      "(ver pix.app)",
    ]) {
      expect(hasLink(text), text).toBe(true);
    }
    for (const text of [
      "R$ 1.500,00 em 3x",
      "o arquivo final.pdf",
      "versão 2.0 do app",
      "joao@gmail.com",
      "entrego dia 12.12",
      "São Paulo, 10h30",
      "obrigado.",
    ]) {
      expect(hasLink(text), text).toBe(false);
    }
  });
});
