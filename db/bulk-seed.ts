import { termsVersion } from "../app/services/accounts/terms-version";
import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import type SQLite from "better-sqlite3";
import { isNegotiating, todayInSaoPaulo } from "../app/lib/market-schemas";
import { opportunitySlug, slugify } from "../app/lib/slug";
import { demoJobs, demoServices } from "./demo-catalog";
import { DEFAULT_PASSWORD } from "./factories";
import { prng } from "./seed";

// Volume data for benchmarks: many opportunities with about three applications each, written
// with prepared statements in one transaction (Kysely's per-query overhead would dominate).

const CITIES = [
  "São Paulo",
  "Rio de Janeiro",
  "Belo Horizonte",
  "Salvador",
  "Fortaleza",
  "Recife",
  "Curitiba",
  "Porto Alegre",
  "Manaus",
  "Belém",
  "Goiânia",
  "Campinas",
  "Florianópolis",
  "Natal",
  "Vitória",
];
const BUSINESSES = [
  "pizzaria",
  "pet shop",
  "academia",
  "salão de beleza",
  "escritório de advocacia",
  "imobiliária",
  "loja de roupas",
  "hamburgueria",
  "clínica veterinária",
  "escola infantil",
  "mercadinho",
  "floricultura",
  "barbearia",
  "estúdio de pilates",
  "distribuidora de bebidas",
  "ótica",
];
const EXTRAS = [
  "Atendemos principalmente clientes do bairro e queremos crescer com qualidade.",
  "O trabalho pode começar assim que fecharmos o orçamento.",
  "Valorizamos comunicação clara e entregas parciais.",
  "Temos materiais de referência para compartilhar na primeira conversa.",
  "Pagamento via Pix em duas parcelas: início e entrega.",
];

export type VolumeResult = {
  users: number;
  opportunities: number;
  applications: number;
  offers: number;
  notifications: number;
  ms: number;
};

/** Adds `count` opportunities (and their merchants, freelancers, applications and offers). */
export function seedVolume(sqlite: SQLite.Database, count: number, seed = 42): VolumeResult {
  const started = performance.now();
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const tag = Date.now().toString(36);
  // One hash for every account: bcrypt is deliberately slow.
  const hash = bcrypt.hashSync(DEFAULT_PASSWORD, Number(process.env.BCRYPT_COST) || 10);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();

  const insertUser = sqlite.prepare(
    `INSERT INTO users (id, email, password_hash, display_name, full_name, account_type, bio, skills, photo_path, email_verified_at, terms_version, created_at, updated_at)
     VALUES (?, ?, ?, NULL, ?, ?, '', '[]', NULL, ?, ?, ?, ?)`,
  );
  const insertOpportunity = sqlite.prepare(
    `INSERT INTO opportunities (uuid, merchant_id, title, slug, description, category, skills, budget_type, budget_min_cents,
       budget_max_cents, currency, deadline, location_type, city, vacancies, status, applications_count, accepted_count,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'BRL', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertApplication = sqlite.prepare(
    `INSERT INTO applications (id, opportunity_id, freelancer_id, cover_letter, price_cents, delivery_days, status,
       awaiting, rejection_reason, rejection_message, offers_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
  );
  const insertOffer = sqlite.prepare(
    `INSERT INTO offers (id, application_id, seq, author, price_cents, delivery_days, message, created_at)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  // A hire's contract (in progress, due 14 days after it) and the start of its history.
  const insertContract = sqlite.prepare(
    `INSERT INTO contracts (id, opportunity_id, merchant_id, freelancer_id, price_cents, delivery_days, status, due_at,
       deliveries_count, events_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 14, 'in_progress', ?, 0, 1, ?, ?)`,
  );
  const insertContractEvent = sqlite.prepare(
    `INSERT INTO contract_events (id, contract_id, seq, kind, author, message, created_at) VALUES (?, ?, 1, 'created', 'system', NULL, ?)`,
  );
  const insertNotification = sqlite.prepare(
    `INSERT INTO notifications (id, user_id, kind, application_id, opportunity_id, created_at, read_at)
     VALUES (?, ?, 'application_received', ?, ?, ?, ?)`,
  );

  const merchantCount = Math.max(20, Math.ceil(count / 500));
  const freelancerCount = Math.max(30, Math.ceil(count / 200));
  const result: VolumeResult = { users: 0, opportunities: 0, applications: 0, offers: 0, notifications: 0, ms: 0 };

  // The default 2 MB page cache makes random-key inserts (uuids) thrash; give the bulk load room.
  const cacheSize = sqlite.pragma("cache_size", { simple: true });
  sqlite.pragma("cache_size = -524288");
  sqlite.transaction(() => {
    // Building each secondary index once over the loaded rows is cheaper than updating it per
    // insert; they are dropped and created again from their own definitions, all inside this
    // transaction (a failure rolls everything back, indexes included).
    const indexes = sqlite
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
           AND tbl_name IN ('opportunities', 'applications', 'offers', 'notifications')`,
      )
      .all() as { name: string; sql: string }[];
    for (const index of indexes) sqlite.exec(`DROP INDEX "${index.name}"`);

    // The new opportunities come after any already there: over the last year, or less.
    const latest = sqlite.prepare("SELECT max(created_at) AS at FROM opportunities").get() as { at: string | null };
    const since = Math.max(now - 365 * 86_400_000, latest.at ? Date.parse(latest.at) + 1 : 0);

    const merchants: string[] = [];
    const freelancers: string[] = [];
    for (let i = 0; i < merchantCount + freelancerCount; i++) {
      const merchant = i < merchantCount;
      const id = randomUUID();
      const created = iso(now - 400 * 86_400_000);
      insertUser.run(
        id,
        `bulk-${tag}-${merchant ? "m" : "f"}${i}@freela.test`,
        hash,
        merchant ? `Contratante ${i + 1}` : `Freelancer ${i + 1}`,
        merchant ? "merchant" : "freelancer",
        created,
        termsVersion(),
        created,
        created,
      );
      (merchant ? merchants : freelancers).push(id);
    }
    result.users = merchants.length + freelancers.length;

    for (let i = 0; i < count; i++) {
      const job = demoJobs[i % demoJobs.length];
      const city = pick(CITIES);
      const business = pick(BUSINESSES);
      // Spread in insertion order, so ids follow creation order as in real use.
      const createdAt = since + Math.floor(((i + random()) / count) * (now - since - 60_000));
      const roll = random();
      const status = roll < 0.85 ? "open" : roll < 0.93 ? "closed" : "filled";
      const vacancies = random() < 0.8 ? 1 : 2;
      const location = job.location ?? (random() < 0.7 ? "remote" : pick(["onsite", "hybrid"] as const));
      const min = job.budget[0] * 100;
      const max = job.budget[1] * 100;
      // At least two applicants, and at most two vacancies: a filled opportunity can always be filled.
      const applicants = 2 + Math.floor(random() * 3);
      // Statuses first, so the opportunity row is written once with its final counters.
      const statuses: string[] = [];
      let accepted = 0;
      for (let a = 0; a < applicants; a++) {
        let s = pick(["pending", "pending", "countered", "rejected", "withdrawn", "accepted"]);
        if (status === "filled" && accepted < vacancies) s = "accepted";
        if (s === "accepted" && (accepted + 1 > vacancies || (status !== "filled" && accepted + 1 >= vacancies)))
          s = "pending";
        if (status !== "open" && isNegotiating(s)) s = "rejected";
        if (s === "accepted") accepted += 1;
        statuses.push(s);
      }
      const title = `${job.title} – ${business} em ${city}`;
      const info = insertOpportunity.run(
        randomUUID(),
        merchants[i % merchants.length],
        title,
        opportunitySlug(title),
        `${job.description} Somos uma ${business} em ${city}. ${pick(EXTRAS)}`,
        job.category,
        JSON.stringify(job.skills),
        job.hourly ? "hourly" : "fixed",
        min,
        max,
        random() < 0.5 ? todayInSaoPaulo(new Date(now + (5 + Math.floor(random() * 120)) * 86_400_000)) : null,
        location,
        location === "remote" ? null : city,
        vacancies,
        status,
        applicants,
        accepted,
        iso(createdAt),
        iso(createdAt),
      );
      const opportunityId = Number(info.lastInsertRowid);
      result.opportunities += 1;

      const first = Math.floor(random() * freelancers.length);
      for (let a = 0; a < applicants; a++) {
        const applicationStatus = statuses[a];
        const appliedAt = Math.min(createdAt + (1 + a) * 3_600_000 * (1 + Math.floor(random() * 24)), now);
        const offers =
          applicationStatus === "countered" ? 2 : applicationStatus === "pending" ? 1 : 1 + Math.floor(random() * 2);
        const price = min + Math.floor(random() * (max - min + 1));
        const counter = Math.max(1, Math.round(price * 0.9));
        const finalPrice = offers === 2 ? counter : price;
        const id = randomUUID();
        const freelancerId = freelancers[(first + a) % freelancers.length];
        const reason = applicationStatus === "rejected" ? (status === "open" ? "declined" : status) : null;
        insertApplication.run(
          id,
          opportunityId,
          freelancerId,
          "Olá! Tenho experiência com projetos parecidos e posso começar nesta semana.",
          finalPrice,
          14,
          applicationStatus,
          applicationStatus === "pending" ? "merchant" : applicationStatus === "countered" ? "freelancer" : null,
          reason,
          offers,
          iso(appliedAt),
          iso(appliedAt + (offers - 1) * 3_600_000),
        );
        insertOffer.run(randomUUID(), id, 1, "freelancer", price, 14, iso(appliedAt));
        if (applicationStatus === "accepted") {
          const hiredAt = appliedAt + (offers - 1) * 3_600_000;
          insertContract.run(
            id,
            opportunityId,
            merchants[i % merchants.length],
            freelancerId,
            finalPrice,
            iso(hiredAt + 14 * 86_400_000),
            iso(hiredAt),
            iso(hiredAt),
          );
          insertContractEvent.run(randomUUID(), id, iso(hiredAt));
        }
        if (offers === 2) insertOffer.run(randomUUID(), id, 2, "merchant", counter, 14, iso(appliedAt + 3_600_000));
        insertNotification.run(
          randomUUID(),
          merchants[i % merchants.length],
          id,
          opportunityId,
          iso(appliedAt),
          appliedAt < now - 7 * 86_400_000 ? iso(appliedAt + 3_600_000) : null,
        );
        result.applications += 1;
        result.offers += offers;
        result.notifications += 1;
      }
    }
    for (const index of indexes) sqlite.exec(index.sql);
  })();
  sqlite.pragma(`cache_size = ${Number(cacheSize)}`);
  result.ms = Math.round(performance.now() - started);
  return result;
}

/**
 * Adds `count` published services (`npm run seed -- --services N`) for the freelancers already
 * there (the volume seed's, or the demo's): the demo catalogue's services, varied by city and
 * price, with one to three packages and a spread of ratings. Prepared statements in one
 * transaction, as seedVolume; the full-text index follows through the table's triggers.
 */
export function seedServices(sqlite: SQLite.Database, count: number, seed = 7): { services: number; ms: number } {
  const started = performance.now();
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const freelancers = (
    sqlite.prepare("SELECT id FROM users WHERE account_type = 'freelancer' AND deleted_at IS NULL").all() as {
      id: string;
    }[]
  ).map((row) => row.id);
  if (freelancers.length === 0) throw new Error("seedServices: no freelancer to publish the services");
  const insert = sqlite.prepare(
    `INSERT INTO services (id, seq, freelancer_id, title, slug, category, description, skills, status, packages, extras,
       faq, questions, price_from_cents, delivery_days_min, rating_sum, rating_count, published_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'published', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  sqlite.transaction(() => {
    const { next } = sqlite.prepare("SELECT coalesce(max(seq), 0) + 1 AS next FROM services").get() as { next: number };
    for (let i = 0; i < count; i++) {
      const model = demoServices[i % demoServices.length]!;
      const city = pick(CITIES);
      const scale = 0.5 + random() * 2;
      const packages = model.packages.map((p) => ({
        ...p,
        price_cents: Math.max(1_000, Math.round((p.price_cents * scale) / 100) * 100),
        delivery_days: Math.max(1, Math.min(90, p.delivery_days + Math.floor(random() * 5) - 2)),
      }));
      const rated = random() < 0.6 ? 1 + Math.floor(random() * 40) : 0;
      const title = `${model.title} – ${city}`;
      // Spread over the last year, in insertion order.
      const at = iso(now - 365 * 86_400_000 + Math.floor(((i + random()) / count) * 364 * 86_400_000));
      insert.run(
        randomUUID(),
        next + i,
        freelancers[i % freelancers.length],
        title,
        slugify(title, "servico"),
        model.category,
        `${model.description} Atendo clientes de ${city} e de todo o Brasil.`,
        JSON.stringify(model.skills),
        JSON.stringify(packages),
        JSON.stringify(model.extras),
        JSON.stringify(model.faq),
        JSON.stringify(model.questions),
        Math.min(...packages.map((p) => p.price_cents)),
        Math.min(...packages.map((p) => p.delivery_days)),
        rated ? Math.round(rated * (3 + random() * 2)) : 0,
        rated,
        at,
        at,
        at,
      );
    }
  })();
  return { services: count, ms: Math.round(performance.now() - started) };
}
