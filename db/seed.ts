import { randomUUID } from "node:crypto";
import type { Insertable, Kysely } from "kysely";
import { isNegotiating, todayInSaoPaulo } from "../app/lib/market-schemas";
import { serviceInputSchema } from "../app/lib/service-schemas";
import { parseTags } from "../app/lib/users";
import { insertService } from "../app/services/catalog/services.server";
import {
  coverLetterClosings,
  coverLetterOpenings,
  demoHourlyJob,
  demoJobs,
  demoServices,
  freelancerCounterMessages,
  merchantCounterMessages,
  rejectionMessages,
} from "./demo-catalog";
import {
  DEFAULT_PASSWORD,
  createApplication,
  createInvitation,
  createOpportunity,
  createUser,
  type OfferSeed,
} from "./factories";
import type { ApplicationRow, ContractRow, Database, NotificationKind, NotificationsTable, UserRow } from "./schema";
import { hourlyDates, seedHourly } from "./seed-hourly";
import { seedPayments } from "./seed-payments";

export const demoAccounts = {
  password: DEFAULT_PASSWORD,
  users: [
    {
      email: "ana@freela.dev",
      full_name: "Ana Beatriz Souza",
      display_name: "Ana",
      account_type: "merchant" as const,
      bio: "Dona da Padaria Pão de Mel, em Belo Horizonte. Sempre buscando gente boa para marketing e design.",
      skills: ["Gestão", "Varejo"],
    },
    {
      email: "carlos@freela.dev",
      full_name: "Carlos Eduardo Lima",
      display_name: "Carlos",
      account_type: "merchant" as const,
      bio: "Fundador da Lima Tech, startup de logística em Recife.",
      skills: ["Produto", "Logística"],
    },
    {
      email: "julia@freela.dev",
      full_name: "Júlia Martins Rocha",
      display_name: "Júlia",
      account_type: "freelancer" as const,
      bio: "Desenvolvedora front-end há 7 anos. React, TypeScript e acessibilidade.",
      skills: ["React", "TypeScript", "Acessibilidade"],
    },
    {
      email: "pedro@freela.dev",
      full_name: "Pedro Henrique Alves",
      display_name: "Pedro",
      account_type: "freelancer" as const,
      bio: "Designer de marcas e interfaces. Portfólio com mais de 80 projetos.",
      skills: ["Figma", "Branding", "UI"],
    },
    {
      email: "fernanda@freela.dev",
      full_name: "Fernanda Oliveira Castro",
      display_name: "Dra. Fernanda",
      account_type: "merchant" as const,
      bio: "Dentista e sócia da Clínica Sorriso, em Curitiba. Cuido também do marketing da clínica.",
      skills: ["Saúde", "Gestão"],
    },
    {
      email: "roberto@freela.dev",
      full_name: "Roberto Nascimento",
      display_name: "Roberto",
      account_type: "merchant" as const,
      bio: "Dono da Nascimento Auto Center, oficina mecânica familiar em Porto Alegre desde 1998.",
      skills: ["Automotivo", "Atendimento"],
    },
    {
      email: "luciana@freela.dev",
      full_name: "Luciana Ferreira Gomes",
      display_name: "Lu Ferreira",
      account_type: "merchant" as const,
      bio: "Estilista do Ateliê Flor de Lis, moda feminina autoral feita em São Paulo.",
      skills: ["Moda", "E-commerce"],
    },
    {
      email: "marcos@freela.dev",
      full_name: "Marcos Vinícius Prado",
      display_name: "Marcos",
      account_type: "merchant" as const,
      bio: "Diretor da Prado Idiomas, escola de inglês e espanhol em Salvador.",
      skills: ["Educação", "Gestão"],
    },
    {
      email: "rafael@freela.dev",
      full_name: "Rafael Costa Mendes",
      display_name: "Rafa",
      account_type: "freelancer" as const,
      bio: "Desenvolvedor back-end (Node.js e Python) com experiência em logística e APIs de pagamento.",
      skills: ["Node.js", "Python", "PostgreSQL"],
    },
    {
      email: "camila@freela.dev",
      full_name: "Camila Ribeiro",
      display_name: "Camila",
      account_type: "freelancer" as const,
      bio: "Redatora e social media. Ajudo pequenos negócios a falar com o cliente certo.",
      skills: ["Copywriting", "Instagram", "SEO"],
    },
    {
      email: "thiago@freela.dev",
      full_name: "Thiago Santos Oliveira",
      display_name: "Thiago",
      account_type: "freelancer" as const,
      bio: "Editor de vídeo e motion designer. YouTube, Reels e vídeos institucionais.",
      skills: ["Premiere", "After Effects", "Filmagem"],
    },
    {
      email: "beatriz@freela.dev",
      full_name: "Beatriz Almeida",
      display_name: "Bia",
      account_type: "freelancer" as const,
      bio: "Tradutora de inglês e espanhol, com foco em textos técnicos, jurídicos e legendagem.",
      skills: ["Inglês", "Espanhol", "Legendagem"],
    },
    {
      email: "gabriel@freela.dev",
      full_name: "Gabriel Moreira",
      display_name: "Gabriel",
      account_type: "freelancer" as const,
      bio: "Analista de dados. Power BI, SQL e planilhas que o dono do negócio consegue usar.",
      skills: ["Power BI", "SQL", "Excel"],
    },
    {
      email: "larissa@freela.dev",
      full_name: "Larissa Gomes Pereira",
      display_name: "Larissa",
      account_type: "freelancer" as const,
      bio: "Assistente virtual e atendimento ao cliente por WhatsApp, e-mail e telefone.",
      skills: ["Atendimento", "Organização", "WhatsApp"],
    },
    {
      // The console's operator (/admin). Real ones are made with `npm run operator:create`.
      email: "operador@freela.dev",
      full_name: "Olga Operadora",
      display_name: "Olga",
      account_type: "operator" as const,
      bio: "",
      skills: [],
    },
  ],
};

/**
 * The demo logins a newcomer needs, each with what it shows: `npm run demo` prints these, and the
 * README lists the same (the other accounts are the marketplace's other people).
 */
export const demoLogins = [
  {
    email: "ana@freela.dev",
    about:
      "contratante: candidaturas esperando resposta, um contrato em andamento e um por hora com uma semana para revisar",
  },
  { email: "carlos@freela.dev", about: "contratante: candidaturas esperando resposta, dois contratos em andamento" },
  {
    email: "julia@freela.dev",
    about:
      "freelancer: candidaturas em todos os estados, contrapropostas esperando, um convite, um contrato atrasado e um por hora com as horas lançadas",
  },
  { email: "pedro@freela.dev", about: "freelancer: candidaturas abertas, contratos concluídos e um em andamento" },
  {
    email: "operador@freela.dev",
    about:
      "operador: o console em `/admin` (métricas, denúncias, disputas, pagamentos, usuários, registro de ações); na demonstração, sem a verificação em duas etapas",
  },
] as const;

/** The lines that present the demo logins (`npm run demo`, `npm run seed`). */
export function demoLoginLines(): string[] {
  const width = Math.max(...demoLogins.map((l) => l.email.length));
  return [
    `Contas de demonstração (senha de todas: ${demoAccounts.password}):`,
    ...demoLogins.map((l) => `  ${l.email.padEnd(width)}  ${l.about}`),
  ];
}

type Party = "merchant" | "freelancer";
type Plan = { freelancer: string; status: ApplicationRow["status"]; rounds: number };

/** A small deterministic generator, so every new demo database tells the same story. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Who applies to what, when the story is not told explicitly below.
const affinity: Record<string, string[]> = {
  desenvolvimento: ["rafael@freela.dev", "pedro@freela.dev", "gabriel@freela.dev"],
  design: ["pedro@freela.dev", "camila@freela.dev", "thiago@freela.dev"],
  marketing: ["camila@freela.dev", "pedro@freela.dev", "larissa@freela.dev", "thiago@freela.dev"],
  redacao: ["camila@freela.dev", "beatriz@freela.dev", "larissa@freela.dev"],
  traducao: ["beatriz@freela.dev", "camila@freela.dev", "larissa@freela.dev"],
  video: ["thiago@freela.dev", "pedro@freela.dev", "camila@freela.dev"],
  dados: ["gabriel@freela.dev", "rafael@freela.dev", "larissa@freela.dev"],
  suporte: ["larissa@freela.dev", "rafael@freela.dev", "beatriz@freela.dev"],
  outros: ["larissa@freela.dev", "beatriz@freela.dev", "thiago@freela.dev", "gabriel@freela.dev"],
};

// The demo logins land on something to do: Ana has applications waiting for her, and Júlia has
// applications in every state, two of them countered and waiting for her answer.
const storyPlans: Record<string, Plan[]> = {
  "Site com cardápio e encomendas para padaria": [
    { freelancer: "julia@freela.dev", status: "countered", rounds: 2 },
    { freelancer: "rafael@freela.dev", status: "pending", rounds: 3 },
    { freelancer: "pedro@freela.dev", status: "pending", rounds: 1 },
  ],
  "Nova identidade visual para a Padaria Pão de Mel": [
    { freelancer: "pedro@freela.dev", status: "pending", rounds: 1 },
    { freelancer: "camila@freela.dev", status: "pending", rounds: 3 },
    { freelancer: "thiago@freela.dev", status: "withdrawn", rounds: 1 },
  ],
  "Gestão do Instagram da padaria por 3 meses": [
    { freelancer: "camila@freela.dev", status: "countered", rounds: 2 },
    { freelancer: "larissa@freela.dev", status: "pending", rounds: 1 },
  ],
  "Planilha de custos e precificação dos produtos": [
    { freelancer: "gabriel@freela.dev", status: "accepted", rounds: 2 },
  ],
  "Painel administrativo em React para transportadora": [
    { freelancer: "julia@freela.dev", status: "pending", rounds: 1 },
    { freelancer: "pedro@freela.dev", status: "accepted", rounds: 3 },
    { freelancer: "rafael@freela.dev", status: "rejected", rounds: 1 },
  ],
  "API de rastreamento de entregas em Node.js": [
    { freelancer: "julia@freela.dev", status: "countered", rounds: 4 },
    { freelancer: "rafael@freela.dev", status: "pending", rounds: 1 },
  ],
  "Agendamento online para clínica odontológica": [
    { freelancer: "julia@freela.dev", status: "accepted", rounds: 2 },
    { freelancer: "rafael@freela.dev", status: "rejected", rounds: 1 },
  ],
  "Loja virtual na Nuvemshop para ateliê de moda": [
    { freelancer: "julia@freela.dev", status: "rejected", rounds: 3 },
    { freelancer: "pedro@freela.dev", status: "pending", rounds: 1 },
  ],
  "Manutenção do site WordPress da escola de idiomas": [
    { freelancer: "julia@freela.dev", status: "withdrawn", rounds: 2 },
    { freelancer: "rafael@freela.dev", status: "countered", rounds: 2 },
  ],
};

// A few opportunities end closed by their merchant, the way real ones do.
const closedTitles = new Set([
  "Fachada e adesivagem da oficina",
  "Newsletter mensal para clientes da transportadora",
  "Tradução de manual de equipamento odontológico",
  "Indicadores de atendimento da clínica",
]);

const roundTo = (value: number, step: number) => Math.max(step, Math.round(value / step) * step);

/**
 * The demo marketplace: the accounts above, the catalog's opportunities spread over the last six
 * weeks, applications in every state with their negotiations, and the notifications they caused.
 */
async function seedMarketplace(db: Kysely<Database>, users: Map<string, UserRow>) {
  const random = prng(20240611);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const now = Date.now();
  const notifications: Insertable<NotificationsTable>[] = [];
  // When each side last acted on each application: a notification about it from before that has
  // been read (the recipient opened the application to answer).
  const acted = new Map<string, number>();
  const act = (userId: string, applicationId: string, at: number) =>
    acted.set(`${applicationId}:${userId}`, Math.max(at, acted.get(`${applicationId}:${userId}`) ?? 0));
  const notice = (userId: string, kind: NotificationKind, applicationId: string, opportunityId: number, at: number) =>
    notifications.push({
      id: randomUUID(),
      user_id: userId,
      kind,
      application_id: applicationId,
      opportunity_id: opportunityId,
      created_at: new Date(at).toISOString(),
      // What happened more than four days ago has been seen.
      read_at: at < now - 4 * DAY ? new Date(at + HOUR).toISOString() : null,
    });

  // Posted over the last six weeks, and inserted oldest first: ids follow creation order, as
  // they do in real use (newest-first lists rely on it).
  const posted = [
    ...demoJobs.map((job, index) => ({
      job,
      index,
      createdAt: now - (1 + ((index * 7) % 40)) * DAY - ((index * 5) % 10) * HOUR,
    })),
    // The hourly contract's job, posted before its hire; seedHourly applies and hires on it.
    { job: demoHourlyJob, index: -1, createdAt: hourlyDates(now).postedAt },
  ].sort((a, b) => a.createdAt - b.createdAt);
  for (const { job, index, createdAt } of posted) {
    const merchant = users.get(job.merchant)!;
    const step = job.hourly ? 500 : 5000;
    const location = job.location ?? "remote";
    const opportunity = await createOpportunity(db, {
      merchant_id: merchant.id,
      title: job.title,
      description: job.description,
      category: job.category,
      skills: job.skills,
      budget_type: job.hourly ? "hourly" : "fixed",
      budget_min_cents: job.budget[0] * 100,
      budget_max_cents: job.budget[1] * 100,
      deadline: job.deadlineIn ? todayInSaoPaulo(new Date(now + job.deadlineIn * DAY)) : null,
      location_type: location,
      city: location === "remote" ? null : (job.city ?? null),
      vacancies: job.vacancies ?? 1,
      created_at: new Date(createdAt).toISOString(),
      updated_at: new Date(createdAt).toISOString(),
    });

    const plans: Plan[] =
      job === demoHourlyJob
        ? []
        : (storyPlans[job.title] ??
          (() => {
            const candidates = [...affinity[job.category]].sort(() => random() - 0.5);
            const count = index % 6 === 5 ? 0 : 1 + Math.floor(random() * candidates.length);
            return candidates.slice(0, count).map((freelancer) => ({
              freelancer,
              status: pick(["pending", "pending", "countered", "accepted", "rejected", "withdrawn"] as const),
              rounds: 1 + Math.floor(random() * 4),
            }));
          })());

    let accepted = 0;
    const vacancies = job.vacancies ?? 1;
    const closing = closedTitles.has(job.title);
    const negotiating: { id: string; freelancerId: string; at: number }[] = [];
    for (const [n, plan] of plans.entries()) {
      const freelancer = users.get(plan.freelancer)!;
      let status = plan.status;
      // A hire that would fill an opportunity its merchant is going to close stays a negotiation.
      if (status === "accepted" && accepted + (closing ? 1 : 0) >= vacancies) status = "pending";
      // Pending ends on the freelancer's offer (odd count), countered on the merchant's (even).
      let rounds = plan.rounds;
      if (status === "pending" && rounds % 2 === 0) rounds -= 1;
      if (status === "countered" && rounds % 2 === 1) rounds += 1;
      const appliedAt = Math.min(createdAt + (2 + n * 5 + Math.floor(random() * 20)) * HOUR, now - 3 * HOUR);
      const first = roundTo(job.budget[0] * 100 + (job.budget[1] - job.budget[0]) * 100 * (0.6 + random() * 0.4), step);
      let price = first;
      let days = job.hourly ? 30 : 7 + Math.floor(random() * 30);
      const offers: OfferSeed[] = [];
      let at = appliedAt;
      for (let r = 0; r < rounds; r++) {
        const author: Party = r % 2 === 0 ? "freelancer" : "merchant";
        if (r > 0) {
          at = Math.min(at + (3 + Math.floor(random() * 30)) * HOUR, now - (rounds - r) * HOUR);
          price = author === "merchant" ? roundTo(price * 0.85, step) : roundTo(price * 1.06, step);
          days = author === "merchant" ? Math.max(3, days - 3) : days + 2;
        }
        offers.push({
          author,
          price_cents: price,
          delivery_days: days,
          message: r === 0 ? null : pick(author === "merchant" ? merchantCounterMessages : freelancerCounterMessages),
          created_at: new Date(at).toISOString(),
          // A monthly job's proposals are monthly: its hire is a monthly contract (month funded: seedPayments).
          ...(job.monthIncludes ? { month_includes: job.monthIncludes } : {}),
        });
      }
      const endedAt = Math.min(at + (2 + Math.floor(random() * 20)) * HOUR, now - HOUR);
      const final = status === "accepted" || status === "rejected" || status === "withdrawn";
      const application = await createApplication(db, {
        opportunity,
        freelancer_id: freelancer.id,
        status,
        cover_letter: `${pick(coverLetterOpenings)} Trabalho com ${parseTags(freelancer.skills).join(", ")} e posso cuidar de "${job.title}" do começo ao fim. ${pick(coverLetterClosings)}`,
        rejection_message: status === "rejected" ? pick(rejectionMessages) : null,
        created_at: new Date(appliedAt).toISOString(),
        updated_at: new Date(final ? endedAt : at).toISOString(),
        offers,
      });
      if (status === "accepted") accepted += 1;

      // The notifications this story caused, each to the other party.
      notice(merchant.id, "application_received", application.id, opportunity.id, appliedAt);
      offers.slice(1).forEach((offer) => {
        const to = offer.author === "merchant" ? freelancer.id : merchant.id;
        notice(to, "offer_received", application.id, opportunity.id, Date.parse(offer.created_at!));
      });
      const lastAuthor = offers[offers.length - 1].author;
      // Who acted when: each offer's author, then whoever ended the negotiation.
      for (const offer of offers) {
        act(offer.author === "merchant" ? merchant.id : freelancer.id, application.id, Date.parse(offer.created_at!));
      }
      if (status === "accepted") act(lastAuthor === "merchant" ? freelancer.id : merchant.id, application.id, endedAt);
      if (status === "rejected") act(merchant.id, application.id, endedAt);
      if (status === "withdrawn") act(freelancer.id, application.id, endedAt);
      if (status === "accepted") {
        notice(
          lastAuthor === "merchant" ? merchant.id : freelancer.id,
          "application_accepted",
          application.id,
          opportunity.id,
          endedAt,
        );
      }
      if (status === "rejected") notice(freelancer.id, "application_rejected", application.id, opportunity.id, endedAt);
      if (status === "withdrawn") notice(merchant.id, "application_withdrawn", application.id, opportunity.id, endedAt);
      if (isNegotiating(status)) {
        negotiating.push({ id: application.id, freelancerId: freelancer.id, at: endedAt });
      }
    }

    // Filling or closing ends what was still under negotiation, as the services do.
    const ending = accepted >= vacancies ? "filled" : closing ? "closed" : null;
    if (ending) {
      const endedAt = Math.max(...negotiating.map((a) => a.at), createdAt + DAY);
      await db
        .updateTable("opportunities")
        .set({ status: ending, updated_at: new Date(endedAt).toISOString() })
        .where("id", "=", opportunity.id)
        .execute();
      for (const app of negotiating) {
        await db
          .updateTable("applications")
          .set({
            status: "rejected",
            awaiting: null,
            rejection_reason: ending,
            updated_at: new Date(endedAt).toISOString(),
          })
          .where("id", "=", app.id)
          .execute();
        notice(app.freelancerId, "application_rejected", app.id, opportunity.id, endedAt);
      }
    }
  }
  for (const n of notifications) {
    const answered = acted.get(`${n.application_id}:${n.user_id}`);
    if (n.read_at === null && answered !== undefined && answered >= Date.parse(n.created_at)) {
      n.read_at = new Date(answered).toISOString();
    }
  }
  for (let i = 0; i < notifications.length; i += 500) {
    await db
      .insertInto("notifications")
      .values(notifications.slice(i, i + 500))
      .execute();
  }
}

const DELIVERY_NOTES = [
  "Segue a entrega completa, com os arquivos-fonte e um guia rápido de uso.",
  "Trabalho concluído conforme combinado. Qualquer ajuste, é só falar.",
  "Entrega final com as revisões pedidas na conversa.",
];
const REVIEWS_OF_FREELANCERS = [
  { rating: 5, comment: "Entregou antes do prazo e explicou cada decisão. Contrataria de novo." },
  { rating: 4, comment: "Bom trabalho e boa comunicação; um ajuste final levou mais um dia." },
  { rating: 5, comment: "Profissional excelente, atento aos detalhes." },
];
const REVIEWS_OF_MERCHANTS = [
  { rating: 5, comment: "Briefing claro, respostas rápidas e pagamento em dia." },
  { rating: 4, comment: "Cliente organizado; as aprovações às vezes demoravam um pouco." },
  { rating: 5, comment: "Ótima parceria do começo ao fim." },
];

/**
 * Older hires are finished: delivered, approved, and reviewed by both sides (published, so the
 * profiles and lists show ratings), as the services would have recorded it.
 */
async function seedReputation(db: Kysely<Database>) {
  const now = Date.now();
  const contracts = await db.selectFrom("contracts").selectAll().orderBy("created_at").orderBy("id").execute();
  const ratings = new Map<string, { count: number; sum: number }>();
  const rate = (userId: string, rating: number) => {
    const r = ratings.get(userId) ?? { count: 0, sum: 0 };
    ratings.set(userId, { count: r.count + 1, sum: r.sum + rating });
  };
  // Each freelancer's newest hire stays in progress (so every hired demo account still has work
  // to deliver); the older ones are done.
  const newest = new Map(contracts.map((c) => [c.freelancer_id, c.id]));
  for (const [i, c] of contracts.filter((c) => newest.get(c.freelancer_id) !== c.id).entries()) {
    const hired = Date.parse(c.created_at);
    const deliveredAt = hired + Math.max(HOUR, Math.floor((now - hired) / 3));
    const endedAt = deliveredAt + Math.floor((now - deliveredAt) / 2);
    const reviewedAt = endedAt + Math.floor((now - endedAt) / 2);
    const iso = (t: number) => new Date(t).toISOString();
    await db
      .insertInto("contract_events")
      .values([
        {
          id: randomUUID(),
          contract_id: c.id,
          seq: 2,
          kind: "delivered",
          author: "freelancer",
          message: DELIVERY_NOTES[i % DELIVERY_NOTES.length],
          created_at: iso(deliveredAt),
        },
        {
          id: randomUUID(),
          contract_id: c.id,
          seq: 3,
          kind: "completed",
          author: "merchant",
          message: null,
          created_at: iso(endedAt),
        },
      ])
      .execute();
    await db
      .updateTable("contracts")
      .set({
        status: "completed",
        deliveries_count: 1,
        events_count: 3,
        ended_at: iso(endedAt),
        ended_by: "merchant",
        reviews_count: 2,
        updated_at: iso(endedAt),
      })
      .where("id", "=", c.id)
      .execute();
    const ofFreelancer = REVIEWS_OF_FREELANCERS[i % REVIEWS_OF_FREELANCERS.length];
    const ofMerchant = REVIEWS_OF_MERCHANTS[i % REVIEWS_OF_MERCHANTS.length];
    const review = (
      author: string,
      subject: string,
      role: "merchant" | "freelancer",
      r: { rating: number; comment: string },
    ) => ({
      id: randomUUID(),
      contract_id: c.id,
      author_id: author,
      subject_id: subject,
      author_role: role,
      rating: r.rating,
      comment: r.comment,
      reply: null,
      replied_at: null,
      publish_due_at: iso(endedAt + 14 * DAY),
      published_at: iso(reviewedAt),
      created_at: iso(reviewedAt),
    });
    await db
      .insertInto("reviews")
      .values([
        review(c.merchant_id, c.freelancer_id, "merchant", ofFreelancer),
        review(c.freelancer_id, c.merchant_id, "freelancer", ofMerchant),
      ])
      .execute();
    rate(c.freelancer_id, ofFreelancer.rating);
    rate(c.merchant_id, ofMerchant.rating);
  }
  for (const [id, r] of ratings) {
    await db.updateTable("users").set({ rating_count: r.count, rating_sum: r.sum }).where("id", "=", id).execute();
  }
  await seedOverdue(
    db,
    contracts.filter((c) => newest.get(c.freelancer_id) === c.id),
  );
}

/**
 * Hires still in progress past their delivery date are marked late as the contracts' schedule
 * would have done when the date passed (the event and both sides' notifications, seen if more
 * than four days ago), so a new demo server's first run of the schedule has nothing to announce.
 */
async function seedOverdue(db: Kysely<Database>, inProgress: ContractRow[]) {
  const now = Date.now();
  // As the schedule: only fixed contracts are late (hourly and monthly ones go week by week, month by month).
  for (const c of inProgress.filter((c) => c.kind === "fixed" && Date.parse(c.due_at) < now)) {
    const at = c.due_at;
    const seen = Date.parse(at) < now - 4 * DAY ? new Date(Date.parse(at) + HOUR).toISOString() : null;
    await db
      .insertInto("contract_events")
      .values({
        id: randomUUID(),
        contract_id: c.id,
        seq: c.events_count + 1,
        kind: "overdue",
        author: "system",
        message: null,
        created_at: at,
      })
      .execute();
    await db
      .updateTable("contracts")
      .set({ overdue_at: at, events_count: c.events_count + 1 })
      .where("id", "=", c.id)
      .execute();
    await db
      .insertInto("notifications")
      .values(
        [c.merchant_id, c.freelancer_id].map((userId) => ({
          id: randomUUID(),
          user_id: userId,
          kind: "contract_overdue" as const,
          application_id: c.id,
          opportunity_id: c.opportunity_id,
          created_at: at,
          read_at: seen,
        })),
      )
      .execute();
  }
}

/** Ana invites Júlia to one of her open opportunities Júlia has not applied to. */
async function seedInvitation(db: Kysely<Database>, users: Map<string, UserRow>) {
  const ana = users.get("ana@freela.dev")!;
  const julia = users.get("julia@freela.dev")!;
  const opportunity = await db
    .selectFrom("opportunities")
    .select(["id", "created_at"])
    .where("merchant_id", "=", ana.id)
    .where("status", "=", "open")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("applications")
            .select("id")
            .whereRef("applications.opportunity_id", "=", "opportunities.id")
            .where("freelancer_id", "=", julia.id),
        ),
      ),
    )
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!opportunity) return;
  const at = new Date(Date.now() - 2 * HOUR).toISOString();
  await createInvitation(db, {
    opportunity_id: opportunity.id,
    freelancer_id: julia.id,
    merchant_id: ana.id,
    message: "Júlia, gostei muito do seu perfil e do seu portfólio. Topa conversar sobre este projeto?",
    at,
  });
  await db
    .insertInto("notifications")
    .values({
      id: randomUUID(),
      user_id: julia.id,
      kind: "invitation_received",
      application_id: null,
      opportunity_id: opportunity.id,
      created_at: at,
      read_at: null,
    })
    .execute();
}

/**
 * Work waiting in the operator's console, among people of the demo market who are not the
 * README's logins (their stories stay as told): two reports of one of Fernanda's open
 * opportunities and one of a profile, and a dispute Roberto opened on his contract with Thiago,
 * which Thiago has answered.
 */
async function seedModeration(db: Kysely<Database>, users: Map<string, UserRow>) {
  const person = (name: string) => users.get(`${name}@freela.dev`)!;
  const now = Date.now();
  const iso = (t: number) => new Date(t).toISOString();
  const opportunity = await db
    .selectFrom("opportunities")
    .select("uuid")
    .where("merchant_id", "=", person("fernanda").id)
    .where("status", "=", "open")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const report = (reporter: string, target: { type: "opportunity" | "profile"; id: string; author: string }) => ({
    id: randomUUID(),
    reporter_id: person(reporter).id,
    target_type: target.type,
    target_id: target.id,
    author_id: person(target.author).id,
    status: "open" as const,
    resolution: null,
    resolution_reason: null,
    resolved_by: null,
    resolved_at: null,
  });
  const listing = { type: "opportunity" as const, id: opportunity.uuid, author: "fernanda" };
  await db
    .insertInto("reports")
    .values([
      {
        ...report("rafael", listing),
        reason: "off_platform",
        details: "Pede para fechar e pagar pelo WhatsApp, fora da plataforma.",
        created_at: iso(now - 2 * DAY),
      },
      { ...report("camila", listing), reason: "fraud", details: null, created_at: iso(now - DAY) },
      {
        ...report("beatriz", { type: "profile", id: person("gabriel").id, author: "gabriel" }),
        reason: "inappropriate",
        details: "O portfólio mostra trabalhos que são meus.",
        created_at: iso(now - 5 * HOUR),
      },
    ])
    .execute();

  const contract = await db
    .selectFrom("contracts")
    .selectAll()
    .where("merchant_id", "=", person("roberto").id)
    .where("freelancer_id", "=", person("thiago").id)
    .where("status", "=", "in_progress")
    .executeTakeFirstOrThrow();
  const openedAt = now - 3 * DAY;
  const answeredAt = now - 2 * DAY;
  await db
    .insertInto("disputes")
    .values({
      id: randomUUID(),
      contract_id: contract.id,
      opened_by: "merchant",
      reason: "scope",
      status: "open",
      respond_by: iso(openedAt + 5 * DAY),
      answered_at: iso(answeredAt),
      reminded_at: null,
      decision: null,
      decision_reason: null,
      decided_by: null,
      decided_at: null,
      created_at: iso(openedAt),
      updated_at: iso(answeredAt),
    })
    .execute();
  await db
    .insertInto("contract_events")
    .values([
      {
        id: randomUUID(),
        contract_id: contract.id,
        seq: contract.events_count + 1,
        kind: "dispute_opened",
        author: "merchant",
        message: "Combinamos o site com loja virtual; as prévias mostram só a página institucional.",
        created_at: iso(openedAt),
      },
      {
        id: randomUUID(),
        contract_id: contract.id,
        seq: contract.events_count + 2,
        kind: "dispute_statement",
        author: "freelancer",
        message: "A loja virtual não estava no briefing; ofereci orçá-la à parte, como conversamos.",
        created_at: iso(answeredAt),
      },
    ])
    .execute();
  await db
    .updateTable("contracts")
    .set({ disputed_at: iso(openedAt), events_count: contract.events_count + 2, updated_at: iso(answeredAt) })
    .where("id", "=", contract.id)
    .execute();
}

/** The demo freelancers' services, published (checked by the form's own schema). */
async function seedServices(db: Kysely<Database>, users: Map<string, UserRow>, at: string) {
  for (const { freelancer, ...input } of demoServices) {
    await insertService(db, serviceInputSchema.parse(input), {
      id: randomUUID(),
      freelancer_id: users.get(freelancer)!.id,
      status: "published",
      published_at: at,
      created_at: at,
    });
  }
}

/** Seeds the demo accounts and marketplace into an empty database; false when it already has users. */
export async function seedDemo(db: Kysely<Database>) {
  const existing = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (existing) return false;
  await db.transaction().execute(async (trx) => {
    const users = new Map<string, UserRow>();
    // Joined three days ago: past the new accounts' first hours (docs/product.md, "Contas novas"),
    // so the demo applies and writes as any account does.
    const joined = new Date(Date.now() - 3 * DAY).toISOString();
    for (const account of demoAccounts.users) {
      users.set(
        account.email,
        await createUser(trx, { ...account, password: demoAccounts.password, created_at: joined }),
      );
    }
    await seedMarketplace(trx, users);
    await seedReputation(trx);
    await seedInvitation(trx, users);
    await seedPayments(trx);
    await seedHourly(trx, users);
    await seedModeration(trx, users);
    await seedServices(trx, users, joined);
    // An address the e-mail provider said does not exist (the operator's /admin/emails).
    await trx
      .insertInto("email_suppressions")
      .values({
        email: "caixa-inexistente@example.com",
        reason: "bounce",
        source: "mailgun",
        detail: "550 5.1.1 The email account that you tried to reach does not exist",
        created_at: joined,
      })
      .execute();
  });
  return true;
}
