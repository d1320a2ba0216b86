import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import {
  archiveService,
  createService,
  deleteService,
  getService,
  listMyServices,
  listServices,
  pauseService,
  publishService,
  publicServicesOf,
  updateService,
} from "~/services/catalog/services.server";
import { AppError } from "~/services/platform/errors.server";
import { validService } from "../support/fixtures";
import { freelancer, merchant, outcome } from "../support/market";
import { statementsOf } from "../support/statements";

// Ready-made services (docs/product.md, "Serviços prontos"): the rules, every refusal, the bounds,
// the limit of 20 published under a burst, two clicks, pre-moderation, hiding; both engines.

const OLD = "2026-01-01T00:00:00.000Z";
const seller = () => createUser(db, { account_type: "freelancer", created_at: OLD });
const draft = (user: UserRow, input: Record<string, unknown> = {}) =>
  createService(user, { ...validService, ...input });
const published = async (user: UserRow, input: Record<string, unknown> = {}) =>
  publishService(user, (await draft(user, input)).id);

/** The per-field errors of a refused call (422). */
async function fieldErrors(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError && error.status === 422) return error.fieldErrors;
    throw error;
  }
  throw new Error("not refused");
}

describe("a service's draft", () => {
  it("is stored as sent and read back through one parser: packages, extras, FAQ and questions", async () => {
    const user = await seller();
    const service = await draft(user);
    expect(service).toMatchObject({
      title: validService.title,
      slug: "logotipo-para-sua-confeitaria",
      category: "design",
      skills: ["Illustrator", "Branding"],
      status: "draft",
      packages: validService.packages,
      extras: validService.extras,
      faq: validService.faq,
      questions: validService.questions,
      // The cheapest package and the shortest delivery, for the list.
      price_from_cents: 15_000,
      delivery_days_min: 3,
      rating: { average: null, count: 0 },
      published_at: null,
      moderation: { hidden: false, hidden_reason: null },
      allowed_actions: ["edit", "publish", "archive", "delete"],
    });
    expect(service.freelancer).toMatchObject({ id: user.id, identity_verified: false });
    // A text question has no choices; a choice keeps its own.
    expect(service.questions[0]).toEqual({ text: "Qual é o nome da marca?", kind: "text", required: true });
    expect(await getService(user, service.id)).toEqual(service);
    // Only its owner sees a draft.
    expect(await outcome(getService(null, service.id))).toBe(404);
    expect(await outcome(getService(await freelancer(), service.id))).toBe(404);
  });

  it("takes a form's values: digits as numbers, included items one per line, blank rows dropped", async () => {
    const user = await seller();
    const service = await draft(user, {
      skills: "Illustrator, Branding",
      packages: [
        {
          name: "Básico",
          includes: "Uma proposta\r\n\r\nArquivo PNG\n",
          price_cents: "15000",
          delivery_days: "5",
          revisions: "0",
        },
      ],
      questions: [{ text: "Qual estilo você prefere?", kind: "choice", choices: "Moderno\nClássico", required: "on" }],
    });
    expect(service.packages).toEqual([
      {
        name: "Básico",
        includes: ["Uma proposta", "Arquivo PNG"],
        price_cents: 15_000,
        delivery_days: 5,
        revisions: 0,
      },
    ]);
    expect(service.questions).toEqual([
      { text: "Qual estilo você prefere?", kind: "choice", choices: ["Moderno", "Clássico"], required: true },
    ]);
  });

  it("names every refused field at once, nested ones by their path", async () => {
    const user = await seller();
    const errors = await fieldErrors(
      createService(user, {
        title: "Curto",
        category: "culinaria",
        description: "Pouco.",
        skills: Array.from({ length: 11 }, (_, i) => `Skill ${i}`),
        packages: [
          { name: "Básico", includes: ["Uma proposta"], price_cents: 999, delivery_days: 5, revisions: 1 },
          { name: "Completo", includes: ["Tudo"], price_cents: 5_000_000, delivery_days: 91, revisions: 11 },
          { name: "Ouro", includes: [], price_cents: 5_000_001, delivery_days: 0, revisions: -1 },
        ],
        extras: [{ title: "Urgente", price_cents: 499, extra_days: 31 }],
        faq: [{ question: "Pode?", answer: "" }],
        questions: [
          { text: "Qual é o nome?", kind: "video", required: true },
          { text: "Qual estilo?", kind: "choice", choices: ["Só uma"] },
        ],
      }),
    );
    expect(errors).toEqual({
      title: "services:title_length",
      category: "services:category_invalid",
      description: "services:description_length",
      skills: "services:skills_invalid",
      "packages.0.price_cents": "services:package_price_invalid",
      "packages.1.delivery_days": "services:delivery_days_invalid",
      "packages.1.revisions": "services:revisions_invalid",
      "packages.2.includes": "services:package_includes_invalid",
      "packages.2.price_cents": "services:package_price_invalid",
      "packages.2.delivery_days": "services:delivery_days_invalid",
      "packages.2.revisions": "services:revisions_invalid",
      "extras.0.price_cents": "services:extra_price_invalid",
      "extras.0.extra_days": "services:extra_days_invalid",
      "faq.0.answer": "services:faq_answer_length",
      "questions.0.kind": "services:question_kind_invalid",
      "questions.1.choices": "services:question_choices_invalid",
    });
  });

  it("holds the bounds: 1 to 3 packages, at most 5 extras, 10 FAQ entries, 5 questions, 10 included items", async () => {
    const user = await seller();
    const pkg = validService.packages[0]!;
    const times = <T>(n: number, item: T) => Array.from({ length: n }, () => item);
    expect(await fieldErrors(draft(user, { packages: [] }))).toEqual({ packages: "services:packages_count" });
    expect(await fieldErrors(draft(user, { packages: undefined }))).toEqual({ packages: "services:packages_count" });
    expect(await fieldErrors(draft(user, { packages: times(4, pkg) }))).toEqual({
      packages: "services:packages_count",
    });
    expect(await fieldErrors(draft(user, { extras: times(6, validService.extras[0]) }))).toEqual({
      extras: "services:extras_count",
    });
    expect(await fieldErrors(draft(user, { faq: times(11, validService.faq[0]) }))).toEqual({
      faq: "services:faq_count",
    });
    expect(await fieldErrors(draft(user, { questions: times(6, validService.questions[0]) }))).toEqual({
      questions: "services:questions_count",
    });
    expect(await fieldErrors(draft(user, { packages: [{ ...pkg, includes: times(11, "Item") }] }))).toEqual({
      "packages.0.includes": "services:package_includes_invalid",
    });
    // The edges themselves pass.
    const edges = await draft(user, {
      title: "T".repeat(10),
      description: "D".repeat(50),
      packages: [
        { ...pkg, price_cents: 1_000, delivery_days: 1, revisions: 0, includes: times(10, "I".repeat(120)) },
        { ...pkg, price_cents: 5_000_000, delivery_days: 90, revisions: 10 },
        pkg,
      ],
      extras: times(5, { title: "Extra", price_cents: 500, extra_days: 30 }),
      faq: times(10, validService.faq[0]),
      questions: times(5, validService.questions[0]),
    });
    expect(edges).toMatchObject({ price_from_cents: 1_000, delivery_days_min: 1 });
    expect(await fieldErrors(draft(user, { title: "T".repeat(121) }))).toEqual({ title: "services:title_length" });
  });

  it("is a freelancer's: a merchant is refused (403), whichever move", async () => {
    const buyer = await merchant();
    const service = await draft(await seller());
    expect(await outcome(draft(buyer))).toBe(403);
    expect(await outcome(publishService(buyer, service.id))).toBe(403);
    expect(await outcome(updateService(buyer, service.id, { title: "Outro título qualquer" }))).toBe(403);
    expect(await outcome(listMyServices(buyer))).toBe(403);
  });

  it("is published only with a confirmed e-mail", async () => {
    const user = await createUser(db, { account_type: "freelancer", created_at: OLD, email_verified_at: null });
    const service = await draft(user);
    await expect(publishService(user, service.id)).rejects.toMatchObject({ status: 403, key: "email_unverified" });
  });
});

describe("a service's states", () => {
  it("draft → published → paused → published → archived; each refused move is a 409", async () => {
    const user = await seller();
    const other = await seller();
    const { id } = await draft(user);
    expect(await outcome(pauseService(user, id))).toBe(409);
    const live = await publishService(user, id);
    expect(live).toMatchObject({ status: "published", allowed_actions: ["edit", "pause", "archive"] });
    expect(live.published_at).not.toBeNull();
    expect((await getService(null, id)).allowed_actions).toEqual([]);
    expect(await outcome(publishService(user, id))).toBe(409);
    expect(await outcome(deleteService(user, id))).toBe(409);
    // Someone else's is not theirs to touch: as if it did not exist.
    expect(await outcome(pauseService(other, id))).toBe(404);
    expect(await outcome(updateService(other, id, { title: "Título de outra pessoa" }))).toBe(404);

    expect((await pauseService(user, id)).status).toBe("paused");
    expect(await outcome(getService(null, id))).toBe(404);
    // Published again, it keeps the first publication's date (the newest list's order).
    expect(await publishService(user, id)).toMatchObject({ status: "published", published_at: live.published_at });
    expect((await archiveService(user, id)).status).toBe("archived");
    expect(await outcome(archiveService(user, id))).toBe(409);
    expect(await outcome(publishService(user, id))).toBe(409);
    expect(await outcome(updateService(user, id, { title: "Um título novo e válido" }))).toBe(409);
    expect(await outcome(getService(null, id))).toBe(404);
  });

  it("an update keeps a published service published; the list's columns and the slug follow", async () => {
    const user = await seller();
    const { id } = await published(user);
    const updated = await updateService(user, id, {
      title: "Identidade visual completa",
      packages: [{ name: "Único", includes: ["Tudo"], price_cents: 99_000, delivery_days: 12, revisions: 2 }],
    });
    expect(updated).toMatchObject({
      status: "published",
      slug: "identidade-visual-completa",
      price_from_cents: 99_000,
      delivery_days_min: 12,
      extras: validService.extras,
    });
    expect(await fieldErrors(updateService(user, id, { packages: [] }))).toEqual({
      packages: "services:packages_count",
    });
  });

  it("deletes a draft only", async () => {
    const user = await seller();
    const { id } = await draft(user);
    await deleteService(user, id);
    expect(await outcome(getService(user, id))).toBe(404);
    expect(await outcome(deleteService(user, id))).toBe(404);
  });

  it("two clicks on publish, pause or archive: one wins, the other is a 409", async () => {
    const user = await seller();
    const { id } = await draft(user);
    const twice = async (move: () => Promise<unknown>) =>
      (await Promise.all([outcome(move()), outcome(move())])).sort();
    expect(await twice(() => publishService(user, id))).toEqual([200, 409]);
    expect(await twice(() => pauseService(user, id))).toEqual([200, 409]);
    expect(await twice(() => archiveService(user, id))).toEqual([200, 409]);
  });

  it("a burst of 25 publishes leaves exactly 20 published; the others are refused with the limit", async () => {
    const user = await seller();
    const drafts = [];
    for (let i = 0; i < 25; i++) drafts.push(await draft(user, { title: `Serviço número ${i + 1} do lote` }));
    const results = await Promise.allSettled(drafts.map((d) => publishService(user, d.id)));
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(5);
    for (const error of refused) expect(error).toMatchObject({ status: 409, key: "services:published_limit" });
    const mine = (await listMyServices(user, { per_page: "100" })).data;
    expect(mine.filter((s) => s.status === "published")).toHaveLength(20);
    expect(mine.filter((s) => s.status === "draft")).toHaveLength(5);
    // Pausing one frees a place.
    await pauseService(user, mine.find((s) => s.status === "published")!.id);
    expect((await publishService(user, mine.find((s) => s.status === "draft")!.id)).status).toBe("published");
  });

  it("a young account's service waits for an operator while pre-moderation is on (pending, seen by its owner only)", async () => {
    await db.insertInto("settings").values({ key: "premoderation_days", value: "3", updated_at: OLD }).execute();
    const young = await createUser(db, { account_type: "freelancer" });
    const held = await published(young);
    expect(held).toMatchObject({ status: "pending", published_at: null, allowed_actions: ["edit", "archive"] });
    expect(await outcome(getService(null, held.id))).toBe(404);
    expect((await listServices({})).data.map((s) => s.id)).not.toContain(held.id);
    // An account older than the days publishes at once.
    expect((await published(await seller())).status).toBe("published");
    await db.deleteFrom("settings").where("key", "=", "premoderation_days").execute();
  });

  it("hidden by an operator: gone for everyone but its owner, who sees why", async () => {
    const user = await seller();
    const { id } = await published(user);
    await db
      .updateTable("services")
      .set({ hidden_at: OLD, hidden_reason: "Conteúdo enganoso." })
      .where("id", "=", id)
      .execute();
    expect(await outcome(getService(null, id))).toBe(404);
    expect(await outcome(getService(await freelancer(), id))).toBe(404);
    expect((await listServices({})).data.map((s) => s.id)).not.toContain(id);
    expect(await publicServicesOf(user.id)).toEqual([]);
    expect((await getService(user, id)).moderation).toEqual({ hidden: true, hidden_reason: "Conteúdo enganoso." });
  });

  it("leaves the catalogue while its freelancer is suspended or banned", async () => {
    const user = await seller();
    const { id } = await published(user);
    expect((await publicServicesOf(user.id)).map((s) => s.id)).toEqual([id]);
    await db
      .updateTable("users")
      .set({ suspended_until: "2999-01-01T00:00:00.000Z" })
      .where("id", "=", user.id)
      .execute();
    expect(await outcome(getService(null, id))).toBe(404);
    expect(await publicServicesOf(user.id)).toEqual([]);
  });
});

describe("the statements a read takes, whatever the number of services", () => {
  it("a service is two statements (it and its images); a list two (page and count); a visitor's read one more (the switch)", async () => {
    const user = await seller();
    const some = async (n: number) => {
      for (let i = 0; i < n; i++) await published(user, { title: `Serviço para contar número ${i + 1}` });
    };
    await some(2);
    const { id } = (await listMyServices(user)).data[0]!;
    expect(await statementsOf(() => getService(user, id))).toBe(2);
    // A visitor's read asks the settings first (public pages on or off).
    expect(await statementsOf(() => getService(null, id))).toBe(3);
    const reads = async () => [
      await statementsOf(() => listServices({ q: "contar", sort: "relevance" }, user)),
      await statementsOf(() => listServices({ sort: "price", verified: "1", min_rating: "1" })),
      await statementsOf(() => listMyServices(user)),
      await statementsOf(() => publicServicesOf(user.id)),
    ];
    const few = await reads();
    await some(8);
    expect(await reads()).toEqual(few);
    expect(few).toEqual([2, 3, 2, 1]);
  });
});
