import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import {
  createSavedSearch,
  deleteSavedSearch,
  describeSavedSearchUnsubscribe,
  listSavedSearches,
  runSavedSearchDigests,
  SAVED_SEARCH_LIMIT,
  savedSearchUnsubscribeUrl,
  unsubscribeSavedSearch,
  updateSavedSearch,
} from "~/services/discovery/saved-searches.server";
import {
  createOpportunity as createOpportunityService,
  insertOpportunity,
  listOpportunities,
  OPPORTUNITY_ORDER_LOCK,
} from "~/services/marketplace/opportunities.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import { AppError } from "~/services/platform/errors.server";
import { sql } from "kysely";
import { db, engine, transaction } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { validOpportunity } from "../support/fixtures";
import { freelancer, merchant } from "../support/market";
import { startSmtp } from "../support/smtp";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  await db.deleteFrom("outbox").execute();
  await db.deleteFrom("saved_searches").execute();
  smtp.received.length = 0;
});

/** A digest run at `at`, then the outbox drained through the test's SMTP server: the e-mails sent. */
async function digest(at = new Date()) {
  const before = smtp.received.length;
  await runSavedSearchDigests({ at });
  await drainOutbox({ at, send: smtp.send });
  return smtp.received.slice(before);
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

let owner: UserRow;
beforeAll(async () => {
  owner = await merchant();
});
const publish = (title: string, extra: Parameters<typeof createOpportunity>[1] = {}) =>
  createOpportunity(db, { merchant_id: owner.id, title, skills: ["Atendimento"], ...extra });

describe("saved searches", () => {
  it("are saved with normalised filters, renamed, given another frequency and deleted", async () => {
    const user = await freelancer();
    const saved = await createSavedSearch(user, {
      name: "  React remoto  ",
      frequency: "daily",
      filters: { q: "react", location_type: "remote", category: "", budget_min_cents: "50000" },
    });
    expect(saved).toMatchObject({
      name: "React remoto",
      frequency: "daily",
      filters: { q: "react", location_type: "remote", budget_min_cents: 50_000 },
      last_sent_at: null,
    });
    expect(Object.keys(saved.filters)).toEqual(["q", "location_type", "budget_min_cents"]);
    const changed = await updateSavedSearch(user, saved.id, { name: "React", frequency: "weekly" });
    expect(changed).toMatchObject({ name: "React", frequency: "weekly" });
    expect((await listSavedSearches(user)).map((s) => s.name)).toEqual(["React"]);
    await deleteSavedSearch(user, saved.id);
    expect(await listSavedSearches(user)).toEqual([]);
  });

  it("refuse bad input with Portuguese messages per field, merchants, other users and more than the limit", async () => {
    const user = await freelancer();
    const bad = await refusal(
      createSavedSearch(user, {
        name: "x".repeat(81),
        frequency: "hourly",
        filters: { category: "nada", color: "red" },
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.fieldErrors).toMatchObject({
      name: "saved_search_name_length",
      frequency: "saved_search_frequency_invalid",
      "filters.category": "category_invalid",
    });
    expect(
      (await refusal(createSavedSearch(user, { name: "a", frequency: "daily", filters: { color: "red" } })))
        .fieldErrors,
    ).toEqual({
      filters: "saved_search_unknown_filter",
    });
    expect(
      (await refusal(createSavedSearch(user, { name: "a", frequency: "daily", filters: "q=x" }))).fieldErrors,
    ).toEqual({
      filters: "saved_search_filters_invalid",
    });
    expect((await refusal(createSavedSearch(user, { name: "", frequency: "daily", extra: 1 }))).status).toBe(422);
    expect((await refusal(createSavedSearch(await merchant(), { name: "a", frequency: "daily" }))).status).toBe(403);

    const mine = await createSavedSearch(user, { name: "Minha", frequency: "daily" });
    const other = await freelancer();
    expect((await refusal(updateSavedSearch(other, mine.id, { name: "Dele" }))).status).toBe(404);
    expect((await refusal(deleteSavedSearch(other, mine.id))).status).toBe(404);
    expect((await refusal(deleteSavedSearch(other, "not-a-uuid"))).status).toBe(404);
    expect((await refusal(updateSavedSearch(user, mine.id, { frequency: "never" }))).status).toBe(422);

    for (let i = 1; i < SAVED_SEARCH_LIMIT; i++) {
      await db
        .insertInto("saved_searches")
        .values({
          id: crypto.randomUUID(),
          user_id: user.id,
          name: `Busca ${i}`,
          filters: "{}",
          frequency: "off",
          watermark: 0,
          next_run_at: new Date().toISOString(),
          last_sent_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
    }
    const tooMany = await refusal(createSavedSearch(user, { name: "Mais uma", frequency: "daily" }));
    expect([tooMany.status, tooMany.key]).toEqual([409, "saved_searches_too_many"]);
  });
});

describe("saved search digests through SMTP", () => {
  it("list the new matching opportunities once, never again, and nothing when nothing is new", async () => {
    const user = await createUser(db, { account_type: "freelancer", full_name: "Ana Dev" });
    await publish("React antigo já publicado");
    const search = await createSavedSearch(user, { name: "React", frequency: "immediate", filters: { q: "react" } });
    const match = await publish("Painel em React para clínica", {
      budget_min_cents: 200_000,
      budget_max_cents: 400_000,
    });
    await publish("Logotipo para padaria", { category: "design" });
    await publish("Loja em React escondida", { hidden_at: new Date().toISOString() });

    const [mail, ...rest] = await digest();
    expect(rest).toEqual([]);
    expect(mail!.to).toEqual([user.email]);
    expect(mail!.subject).toBe("Freela: novas oportunidades para “React”");
    expect(mail!.text).toContain("Olá, Ana Dev!");
    expect(mail!.text).toContain("Uma nova oportunidade para a sua busca “React”:");
    expect(mail!.text).toContain("Painel em React para clínica");
    expect(mail!.text).toContain(`${config.APP_URL}/opportunities/${match.uuid}`);
    expect(mail!.text).toContain(`${config.APP_URL}/opportunities?q=react`);
    expect(mail!.text).not.toContain("antigo");
    expect(mail!.text).not.toContain("Logotipo");
    expect(mail!.text).not.toContain("escondida");
    const unsubscribe = savedSearchUnsubscribeUrl(search.id);
    expect(mail!.text).toContain(unsubscribe);
    expect(mail!.headers["list-unsubscribe"]).toBe(`<${unsubscribe}>`);
    expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // Nothing new: no e-mail. Something new: only it.
    expect(await digest()).toEqual([]);
    await publish("App React Native para academia");
    const [second, ...more] = await digest();
    expect(more).toEqual([]);
    expect(second!.text).toContain("App React Native para academia");
    expect(second!.text).not.toContain("Painel em React");
    expect(await digest()).toEqual([]);
  });

  it("in English for a user who reads English, every new match in one e-mail", async () => {
    const user = await createUser(db, { account_type: "freelancer", locale: "en" });
    await createSavedSearch(user, { name: "Design", frequency: "immediate", filters: { category: "design" } });
    await publish("Logo A", { category: "design" });
    await publish("Logo B", { category: "design" });
    const mails = await digest();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Freela: new opportunities for “Design”");
    expect(mails[0]!.text).toContain("2 new opportunities for your search “Design”:");
    expect(mails[0]!.text.indexOf("Logo B")).toBeLessThan(mails[0]!.text.indexOf("Logo A"));
  });

  it("send daily and weekly digests only once their period is over", async () => {
    const user = await freelancer();
    await createSavedSearch(user, { name: "Diária", frequency: "daily", filters: { category: "video" } });
    await createSavedSearch(user, { name: "Semanal", frequency: "weekly", filters: { category: "video" } });
    await publish("Vídeo institucional", { category: "video" });
    const start = Date.now();
    expect(await digest(new Date(start + HOUR))).toEqual([]);
    expect((await digest(new Date(start + DAY + HOUR))).map((m) => m.subject)).toEqual([
      "Freela: novas oportunidades para “Diária”",
    ]);
    await publish("Edição de vídeo", { category: "video" });
    expect(await digest(new Date(start + 2 * DAY))).toEqual([]);
    const week = await digest(new Date(start + 7 * DAY + HOUR));
    expect(week.map((m) => m.subject).sort()).toEqual([
      "Freela: novas oportunidades para “Diária”",
      "Freela: novas oportunidades para “Semanal”",
    ]);
    const weekly = week.find((m) => m.subject.includes("Semanal"))!;
    expect(weekly.text).toContain("Vídeo institucional");
    expect(weekly.text).toContain("Edição de vídeo");
    const daily = week.find((m) => m.subject.includes("Diária"))!;
    expect(daily.text).not.toContain("Vídeo institucional");
  });

  it("stop after the one-click unsubscribe, which needs no sign-in and keeps the search", async () => {
    const user = await freelancer();
    const search = await createSavedSearch(user, {
      name: "Dados",
      frequency: "immediate",
      filters: { category: "dados" },
    });
    const token = savedSearchUnsubscribeUrl(search.id).split("/").pop()!;
    expect(await describeSavedSearchUnsubscribe(token)).toEqual({ name: "Dados", unsubscribed: false });
    expect((await refusal(describeSavedSearchUnsubscribe(`${search.id}.forged`))).status).toBe(400);
    expect((await refusal(unsubscribeSavedSearch(`${search.id}.${"A".repeat(43)}`))).status).toBe(400);
    await publish("Painel de dados", { category: "dados" });
    // Queued before the unsubscribe, not sent after it.
    await runSavedSearchDigests();
    await unsubscribeSavedSearch(token);
    await unsubscribeSavedSearch(token);
    expect(await describeSavedSearchUnsubscribe(token)).toEqual({ name: "Dados", unsubscribed: true });
    await drainOutbox({ send: smtp.send });
    await publish("Outro painel de dados", { category: "dados" });
    expect(await digest()).toEqual([]);
    expect((await listSavedSearches(user))[0]!.frequency).toBe("off");
  });

  it("queue one e-mail per search when two runs go at once (one winner)", async () => {
    const user = await freelancer();
    await createSavedSearch(user, { name: "Tradução", frequency: "immediate", filters: { category: "traducao" } });
    await publish("Tradução de manual", { category: "traducao" });
    const runs = await Promise.all([runSavedSearchDigests(), runSavedSearchDigests(), runSavedSearchDigests()]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    await drainOutbox({ send: smtp.send });
    expect(smtp.received).toHaveLength(1);
  });

  it("skip deleted searches and deleted accounts", async () => {
    const user = await freelancer();
    const search = await createSavedSearch(user, {
      name: "Suporte",
      frequency: "immediate",
      filters: { category: "suporte" },
    });
    await publish("Suporte técnico", { category: "suporte" });
    await runSavedSearchDigests();
    await deleteSavedSearch(user, search.id);
    await drainOutbox({ send: smtp.send });
    expect(smtp.received).toEqual([]);
  });

  it("match what the list page shows for the same filters", async () => {
    const user = await freelancer();
    const filterSets = [
      { q: "loja" },
      { category: "design", location_type: "remote" },
      { budget_type: "hourly", budget_max_cents: 10_000 },
      { q: "site react", budget_min_cents: 250_000 },
      {},
    ];
    const searches = [];
    for (const [i, filters] of filterSets.entries()) {
      searches.push(await createSavedSearch(user, { name: `Busca ${i}`, frequency: "immediate", filters }));
    }
    await publish("Loja virtual de roupas", { category: "desenvolvimento" });
    await publish("Site em React para loja", { budget_min_cents: 300_000, budget_max_cents: 500_000 });
    await publish("Identidade visual remota", { category: "design" });
    await publish("Design presencial", { category: "design", location_type: "onsite", city: "Recife" });
    await publish("Suporte por hora", {
      category: "suporte",
      budget_type: "hourly",
      budget_min_cents: 5_000,
      budget_max_cents: 8_000,
    });
    await publish("Loja fechada", { status: "closed" });
    await runSavedSearchDigests();
    const outbox = await db.selectFrom("outbox").select(["payload"]).where("user_id", "=", user.id).execute();
    const digests = new Map(
      outbox.map((row) => {
        const payload = JSON.parse(row.payload!) as { search_id: string; ids: number[] };
        return [payload.search_id, payload.ids];
      }),
    );
    const since = Number(
      (
        await db
          .selectFrom("opportunities")
          .select("id")
          .where("title", "=", "Loja virtual de roupas")
          .executeTakeFirstOrThrow()
      ).id,
    );
    for (const [i, filters] of filterSets.entries()) {
      const page = await listOpportunities(user, { ...filters, sort: "newest", per_page: 100 });
      const expected = page.data.map((o) => o.uuid);
      const ids = digests.get(searches[i]!.id) ?? [];
      const got = ids.length
        ? (
            await db
              .selectFrom("opportunities")
              .select(["id", "uuid"])
              .where("id", "in", ids)
              .orderBy("id", "desc")
              .execute()
          ).map((o) => o.uuid)
        : [];
      const onPageSince = (
        await db.selectFrom("opportunities").select(["uuid"]).where("id", ">=", since).execute()
      ).map((o) => o.uuid);
      expect(got, JSON.stringify(filters)).toEqual(expected.filter((uuid) => onPageSince.includes(uuid)));
    }
    // At least the searches built to match do.
    expect(digests.get(searches[0]!.id)).toHaveLength(2);
    expect(digests.get(searches[2]!.id)).toHaveLength(1);
  });
});

describe.runIf(engine === "postgres")("saved search digests on PostgreSQL", () => {
  it("skip no opportunity whose id commits after a higher one's (ids commit in order)", async () => {
    const user = await freelancer();
    await createSavedSearch(user, { name: "Tudo", frequency: "immediate" });
    const at = new Date().toISOString();
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let drawn!: (id: number) => void;
    const firstId = new Promise<number>((resolve) => (drawn = resolve));
    // A creation that draws its id, then is slow to commit.
    const first = transaction(async (trx) => {
      await insertOpportunity(trx, {
        uuid: crypto.randomUUID(),
        merchant_id: owner.id,
        title: "Primeira, lenta",
        slug: "primeira-lenta",
        description: "Uma oportunidade cuja transação demora a terminar.",
        category: "outros",
        skills: "[]",
        budget_type: "fixed",
        budget_min_cents: 10_000,
        budget_max_cents: 20_000,
        currency: "BRL",
        deadline: null,
        location_type: "remote",
        city: null,
        vacancies: 1,
        status: "open",
        applications_count: 0,
        accepted_count: 0,
        created_at: at,
        updated_at: at,
      });
      const row = await trx
        .selectFrom("opportunities")
        .select("id")
        .where("slug", "=", "primeira-lenta")
        .executeTakeFirstOrThrow();
      drawn(row.id);
      await committing;
    });
    await firstId;
    // Another one meanwhile: it waits for the first to commit (ids in commit order), or commits
    // first with a higher id (the alerts' watermark would then pass the first one by).
    const second = createOpportunityService(owner, { ...validOpportunity, title: "Segunda, rápida" });
    await Promise.race([second, advisoryLockWaited(OPPORTUNITY_ORDER_LOCK)]);
    await runSavedSearchDigests();
    commit();
    await first;
    const { uuid } = await second;
    await runSavedSearchDigests();
    const ids = (await db.selectFrom("outbox").select("payload").where("user_id", "=", user.id).execute()).flatMap(
      (row) => (JSON.parse(row.payload!) as { ids: number[] }).ids,
    );
    const secondRow = await db
      .selectFrom("opportunities")
      .select("id")
      .where("uuid", "=", uuid)
      .executeTakeFirstOrThrow();
    expect(ids.sort()).toEqual([await firstId, secondRow.id].sort());
  });
});

/** Resolves once a session waits for the advisory lock `key`. */
async function advisoryLockWaited(key: number) {
  for (let waited = 0; waited < 5_000; waited += 10) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ${key} AND NOT granted`.execute(
      db,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no session waited for the lock");
}
