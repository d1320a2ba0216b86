// The saved searches' digest run (`npm run bench -- --only saved-searches`; run.ts starts it in a
// process of its own): 10 000 saved searches of 1 000 freelancers, all due, over a table of
// BASE opportunities, of which the 1 000 newest were published after every search's watermark.
// One run of the job (discovery/saved-searches.server.ts) matches each search through the
// opportunity list's own WHERE and queues one e-mail per search with news. Prints the time; the
// budget (30 s) is printed beside it, never asserted. SQLite, in a temporary directory.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

const SEARCHES = 10_000;
const FREELANCERS = 1_000;
const NEW = 1_000;
const BASE = Number(process.env.BENCH_BASE_OPPORTUNITIES ?? 20_000);
const BUDGET_S = 30;
/** BENCH_ALL_DIFFERENT=1: every search's filters differ (a ceiling far above every budget). */
const ALL_DIFFERENT = process.env.BENCH_ALL_DIFFERENT === "1";

const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-digests-"));
process.env.DATABASE_PATH = join(dir, "freela.db");
process.env.UPLOADS_DIR = join(dir, "uploads");
process.env.BCRYPT_COST = "4";
process.env.SEED_DEMO = "0";

const log = (message: string) => console.info(`[bench] ${message}`);

const WORDS = ["loja", "site", "react", "logotipo", "video", "app", "dados", "traducao", "wordpress", "design"];
const CATEGORIES = ["desenvolvimento", "design", "marketing", "redacao", "traducao", "video", "dados", "suporte"];
const pick = <T>(list: readonly T[], i: number) => list[i % list.length]!;

async function main() {
  const { db, migrateToLatest } = await import("../db");
  const { createOpportunity, createUser } = await import("../db/factories");
  const { runSavedSearchDigests } = await import("../app/services/discovery/saved-searches.server");
  await migrateToLatest();

  const merchant = await createUser(db, { account_type: "merchant" });
  const publish = (i: number) =>
    db.transaction().execute(async (trx) => {
      for (let k = 0; k < 1_000; k++) {
        const n = i + k;
        await createOpportunity(trx, {
          merchant_id: merchant.id,
          title: `${pick(WORDS, n)} ${pick(WORDS, n * 7 + 3)} número ${n}`,
          category: pick(CATEGORIES, n * 3),
          skills: [pick(WORDS, n * 5 + 1)],
          budget_type: n % 4 === 0 ? "hourly" : "fixed",
          budget_min_cents: 10_000 + (n % 50) * 10_000,
          budget_max_cents: 20_000 + (n % 50) * 20_000,
          location_type: n % 5 === 0 ? "onsite" : "remote",
          city: n % 5 === 0 ? "Recife" : null,
        });
      }
    });
  let started = Date.now();
  for (let i = 0; i < BASE; i += 1_000) await publish(i);
  log(`${BASE.toLocaleString("en")} older opportunities in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const freelancers: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < FREELANCERS; i++) freelancers.push((await createUser(trx, { account_type: "freelancer" })).id);
  });
  const { max } = (await db
    .selectFrom("opportunities")
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirstOrThrow()) as { max: number };
  const past = new Date(Date.now() - 60_000).toISOString();
  // The filter sets people save: one or two words, a category, a category and a budget, remote
  // hourly work with a word. Budgets vary finely, so most sets are different from each other
  // (a run reads each set once: the more alike the searches, the faster it goes).
  const filtersOf = (i: number) => ({
    ...baseFilters(i),
    ...(ALL_DIFFERENT ? { budget_max_cents: 90_000_000 + i } : {}),
  });
  const baseFilters = (i: number) => {
    switch (i % 4) {
      case 0:
        return { q: i % 8 === 0 ? pick(WORDS, i) : `${pick(WORDS, i)} ${pick(WORDS, Math.floor(i / 10))}` };
      case 1:
        return { category: pick(CATEGORIES, i), budget_max_cents: 100_000 + ((i * 37) % 2_000) * 500 };
      case 2:
        return { category: pick(CATEGORIES, i), budget_min_cents: ((i * 53) % 3_000) * 100 };
      default:
        return {
          location_type: "remote",
          budget_type: "hourly",
          q: pick(WORDS, i + 3),
          budget_min_cents: (i % 500) * 100,
        };
    }
  };
  const distinct = new Set(Array.from({ length: SEARCHES }, (_, i) => JSON.stringify(filtersOf(i)))).size;
  log(`${SEARCHES.toLocaleString("en")} saved searches, ${distinct} different filter sets`);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < SEARCHES; i += 500) {
      await trx
        .insertInto("saved_searches")
        .values(
          Array.from({ length: Math.min(500, SEARCHES - i) }, (_, k) => ({
            id: crypto.randomUUID(),
            user_id: freelancers[(i + k) % FREELANCERS]!,
            name: `Busca ${i + k}`,
            filters: JSON.stringify(filtersOf(i + k)),
            frequency: (i + k) % 3 === 0 ? ("daily" as const) : ("immediate" as const),
            watermark: Number(max),
            next_run_at: past,
            last_sent_at: null,
            created_at: past,
            updated_at: past,
          })),
        )
        .execute();
    }
  });
  started = Date.now();
  await publish(BASE);
  log(`${NEW.toLocaleString("en")} new opportunities in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  started = Date.now();
  const run = await runSavedSearchDigests();
  const seconds = (Date.now() - started) / 1000;
  const queued = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("kind", "=", "saved_search_digest")
    .executeTakeFirstOrThrow();
  console.info("");
  console.info(
    `saved-searches: one digest run over ${SEARCHES.toLocaleString("en")} due searches and ${NEW.toLocaleString("en")} new ` +
      `opportunities (${(BASE + NEW).toLocaleString("en")} in all): ${seconds.toFixed(1)} s ` +
      `(budget ${BUDGET_S} s: ${seconds <= BUDGET_S ? "within" : "OVER"}); ${run.checked} searches checked, ` +
      `${run.sent} e-mails queued (${Number(queued.n)} in the outbox)`,
  );
  // A second run finds nothing new: no e-mail, and how long that takes.
  started = Date.now();
  const again = await runSavedSearchDigests();
  console.info(
    `saved-searches: the next run, nothing new: ${((Date.now() - started) / 1000).toFixed(1)} s, ${again.sent} e-mails`,
  );
  await db.destroy();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
