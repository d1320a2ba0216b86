import { randomUUID } from "node:crypto";
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import { opportunitySlug } from "~/lib/slug";
import {
  ANSWER_MAX,
  answersInputSchema,
  orderChoiceSchema,
  orderFileInputSchema,
  orderInputSchema,
} from "~/lib/order-schemas";
import {
  parseServiceLists,
  type ServiceExtra,
  type ServiceLists,
  type ServicePackage,
  type ServiceQuestion,
} from "~/lib/service-schemas";
import { db, transaction } from "../../../db";
import { insertContract } from "../../../db/contracts";
import type { Database, ServiceOrderRow, UserRow } from "../../../db/schema";
import { displayNameOf } from "../accounts/users.server";
import { servicePath } from "../discovery/public.server";
import { insertFirstOffer } from "../marketplace/applications.server";
import { insertOpportunity, lockOpportunityOrder } from "../marketplace/opportunities.server";
import { notifyOtherSide } from "../messaging/notifications.server";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { releaseStorage, reserveStorage } from "../platform/storage.server";
import { deleteAttachment, readAttachment, saveAttachment } from "../platform/uploads.server";
import { assertId, now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { publicOnly, selectServices } from "./services.server";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"). A merchant picks a
// package and extras, confirms the total, and the order is a hire: in one transaction a private
// opportunity (marked with the service, filled at birth, never listed), an accepted application
// with the package as the freelancer's offer, a fixed contract with one milestone for the total
// (waiting for its Pix with payments, ready without), and the order row with a copy of what was
// confirmed. The contract then follows the contract's own rules (contracts.server.ts); the order
// adds the buyer's answers and the package's revisions, counted by each change request.

/** A chosen extra, with its place in the service's list. */
export type QuotedExtra = ServiceExtra & { index: number };

/** What a package and extras cost and take: the confirmation page's and the order's one sum. */
export type Quote = {
  package_index: number;
  package: ServicePackage;
  extras: QuotedExtra[];
  total_cents: number;
  /** The package's days plus the extras'. */
  delivery_days: number;
  revisions: number;
};

/** What an order keeps of the service as it was confirmed: prices are copied, never referenced. */
export type OrderSnapshot = {
  title: string;
  slug: string;
  package: ServicePackage;
  extras: QuotedExtra[];
  questions: ServiceQuestion[];
};

/** A file answering a question of kind file: kept in the contract files' store (uploads.server.ts). */
export type OrderFile = { id: string; stored_name: string; content_type: string; size_bytes: number };

/** An answer as stored: a file question's `answer` is the file's name, and `file` the file. */
export type OrderAnswer = {
  question: string;
  kind: ServiceQuestion["kind"];
  answer: string | null;
  file?: OrderFile;
};

/** An answer as the sides read it: the file's download path instead of its stored name. */
export type OrderAnswerJson = Omit<OrderAnswer, "file"> & {
  file?: Omit<OrderFile, "stored_name"> & { path: string };
};

export type OrderJson = {
  id: string;
  service: { id: string; title: string; path: string };
  package_index: number;
  package: ServicePackage;
  extras: QuotedExtra[];
  questions: ServiceQuestion[];
  total_cents: number;
  delivery_days: number;
  /** Null until the buyer answers. */
  answers: OrderAnswerJson[] | null;
  answered_at: string | null;
  revisions_allowed: number;
  revisions_used: number;
  created_at: string;
};

/** The total and days of a package and extras of a service; an index it does not have is refused (422). */
export function quoteOrder(
  lists: Pick<ServiceLists, "packages" | "extras">,
  choice: { package_index: number; extras: number[] },
): Quote {
  const pkg = lists.packages[choice.package_index];
  if (!pkg) throw new AppError(422, "validation_failed", { package_index: "services:order_package_invalid" });
  const extras = choice.extras.map((index) => {
    const extra = lists.extras[index];
    if (!extra) throw new AppError(422, "validation_failed", { extras: "services:order_extras_invalid" });
    return { ...extra, index };
  });
  return {
    package_index: choice.package_index,
    package: pkg,
    extras,
    total_cents: pkg.price_cents + extras.reduce((sum, e) => sum + e.price_cents, 0),
    delivery_days: pkg.delivery_days + extras.reduce((sum, e) => sum + e.extra_days, 0),
    revisions: pkg.revisions,
  };
}

/** A service anyone may buy now (published, not hidden, its freelancer active), else 404. */
async function buyable(database: Kysely<Database>, id: string) {
  assertId(id);
  const row = await publicOnly(selectServices(database), now()).where("services.id", "=", id).executeTakeFirst();
  if (!row) throw new AppError(404, "not_found");
  return row;
}

/**
 * The quote of a package and extras of a public service, with the questions the buyer answers:
 * what the confirmation page shows (one statement).
 */
export async function getQuote(serviceId: string, input: unknown) {
  const choice = parseInput(orderChoiceSchema, input);
  const service = await buyable(db, serviceId);
  const lists = parseServiceLists(service);
  return {
    service: {
      id: service.id,
      title: service.title,
      path: servicePath(service),
      freelancer: displayNameOf({
        display_name: service.freelancer_display_name,
        full_name: service.freelancer_full_name,
      })!,
    },
    quote: quoteOrder(lists, choice),
    extras: lists.extras,
    questions: lists.questions,
  };
}

/**
 * The buyer's answers checked against the questions (field errors `answers.N`): a required one
 * answered, a text at most ANSWER_MAX characters, a choice one of its choices. A file question
 * takes no answer here: its file is sent by itself (answerOrderFile), and kept from `previous`.
 */
export function checkAnswers(
  questions: ServiceQuestion[],
  answers: (string | null)[],
  previous: OrderAnswer[] | null = null,
): OrderAnswer[] {
  const errors: Record<string, string> = {};
  if (answers.length > questions.length) errors.answers = "services:order_answers_invalid";
  const checked = questions.map((q, i): OrderAnswer => {
    const given = (answers[i] ?? "").trim();
    const field = `answers.${i}`;
    if (q.kind === "file") return previous?.[i]?.file ? previous[i]! : { question: q.text, kind: q.kind, answer: null };
    if (given === "") {
      if (q.required) errors[field] = "services:order_answer_required";
    } else if (q.kind === "text" && given.length > ANSWER_MAX) {
      errors[field] = "services:order_answer_too_long";
    } else if (q.kind === "choice" && !(q.choices ?? []).includes(given)) {
      errors[field] = "services:order_answer_choice";
    }
    return { question: q.text, kind: q.kind, answer: given === "" ? null : given };
  });
  if (Object.keys(errors).length) throw new AppError(422, "validation_failed", errors);
  return checked;
}

const needsAnswers = (questions: ServiceQuestion[]) => questions.some((q) => q.required && q.kind !== "file");

/**
 * A merchant buys a package (and extras) of a public service at the total they confirmed: the
 * contract's id. A total that is no longer the quote (the freelancer changed the prices meanwhile)
 * is refused with 409 and the new quote, and nothing is created. Required questions are answered
 * here, so the work never starts without them.
 */
export async function placeOrder(merchant: UserRow, serviceId: string, input: unknown): Promise<{ id: string }> {
  await consumeWrite(merchant.id);
  assertRoleFor(merchant, "service.order");
  const data = parseInput(orderInputSchema, input);
  const id = randomUUID();
  await transaction(async (trx) => {
    const service = await buyable(trx, serviceId);
    if (service.freelancer_id === merchant.id) throw new AppError(403, "forbidden_role");
    const lists = parseServiceLists(service);
    const quote = quoteOrder(lists, data);
    if (quote.total_cents !== data.expected_total_cents) {
      throw new AppError(409, "services:order_price_changed", undefined, undefined, undefined, {
        code: "service_price_changed",
        quote,
      });
    }
    const answers =
      data.answers || needsAnswers(lists.questions) ? checkAnswers(lists.questions, data.answers ?? []) : null;
    // The time is read under the lock the opportunity's id is drawn under: of two orders at once,
    // the first to draw its id is the older one.
    await lockOpportunityOrder(trx);
    const at = now();
    const uuid = randomUUID();
    await insertOpportunity(trx, {
      uuid,
      merchant_id: merchant.id,
      title: service.title,
      slug: opportunitySlug(service.title),
      description: service.description,
      category: service.category,
      skills: service.skills,
      budget_type: "fixed",
      budget_min_cents: quote.total_cents,
      budget_max_cents: quote.total_cents,
      currency: "BRL",
      deadline: null,
      location_type: "remote",
      city: null,
      vacancies: 1,
      // Filled at birth by its one hire: no one may apply, and no list shows it (service_id).
      status: "filled",
      applications_count: 1,
      accepted_count: 1,
      first_applied_at: at,
      held_at: null,
      service_id: service.id,
      created_at: at,
      updated_at: at,
    });
    const opportunity = await trx
      .selectFrom("opportunities")
      .select("id")
      .where("uuid", "=", uuid)
      .executeTakeFirstOrThrow();
    const terms = { price_cents: quote.total_cents, delivery_days: quote.delivery_days };
    // The package is the freelancer's offer, accepted by the purchase.
    await trx
      .insertInto("applications")
      .values({
        id,
        opportunity_id: opportunity.id,
        freelancer_id: service.freelancer_id,
        cover_letter: quote.package.name,
        ...terms,
        status: "accepted",
        awaiting: null,
        rejection_reason: null,
        rejection_message: null,
        offers_count: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await insertFirstOffer(trx, id, terms, at);
    const deal = { id, opportunity_id: opportunity.id, merchant_id: merchant.id, freelancer_id: service.freelancer_id };
    await insertContract(trx, { ...deal, ...terms }, at);
    const snapshot: OrderSnapshot = {
      title: service.title,
      slug: service.slug,
      package: quote.package,
      extras: quote.extras,
      questions: lists.questions,
    };
    await trx
      .insertInto("service_orders")
      .values({
        id,
        service_id: service.id,
        merchant_id: merchant.id,
        freelancer_id: service.freelancer_id,
        package_index: quote.package_index,
        snapshot: JSON.stringify(snapshot),
        total_cents: quote.total_cents,
        delivery_days: quote.delivery_days,
        answers: answers ? JSON.stringify(answers) : null,
        answered_at: answers ? at : null,
        revisions_allowed: quote.revisions,
        created_at: at,
      })
      .execute();
    // "Novo pedido: <serviço> — <pacote>": the opportunity carries the title, the notice the package.
    await notifyOtherSide(trx, "merchant", deal, "service_ordered", { package: quote.package.name });
  });
  return { id };
}

/** An answer without its file's stored name, with the path the two sides download it at. */
function answerJson(orderId: string, { file, ...answer }: OrderAnswer): OrderAnswerJson {
  if (!file) return answer;
  const { stored_name: _stored, ...shown } = file;
  return { ...answer, file: { ...shown, path: `/contracts/${orderId}/order-files/${file.id}` } };
}

function toOrderJson(row: ServiceOrderRow): OrderJson {
  const snapshot = JSON.parse(row.snapshot) as OrderSnapshot;
  return {
    id: row.id,
    service: {
      id: row.service_id,
      title: snapshot.title,
      path: servicePath({ id: row.service_id, slug: snapshot.slug }),
    },
    package_index: row.package_index,
    package: snapshot.package,
    extras: snapshot.extras,
    questions: snapshot.questions,
    total_cents: Number(row.total_cents),
    delivery_days: row.delivery_days,
    answers: row.answers ? (JSON.parse(row.answers) as OrderAnswer[]).map((a) => answerJson(row.id, a)) : null,
    answered_at: row.answered_at,
    revisions_allowed: row.revisions_allowed,
    revisions_used: row.revisions_used,
    created_at: row.created_at,
  };
}

/** The order a contract came from (null: a hire from an opportunity). The caller checked the viewer. */
export async function orderOfContract(contractId: string, database: Kysely<Database> = db): Promise<OrderJson | null> {
  const row = await database.selectFrom("service_orders").selectAll().where("id", "=", contractId).executeTakeFirst();
  return row ? toOrderJson(row) : null;
}

/**
 * The buyer answers (or corrects the answers) until the first delivery: one conditional UPDATE
 * joined to the contract's state, so an answer never lands after the work was handed in. The
 * freelancer is told (service_answered), in the same transaction.
 */
export async function answerOrder(merchant: UserRow, contractId: string, input: unknown): Promise<OrderJson> {
  await consumeWrite(merchant.id);
  assertId(contractId);
  const { answers } = parseInput(answersInputSchema, input);
  return transaction(async (trx) => {
    const { opportunity_id, ...row } = await buyersOrder(trx, merchant, contractId);
    const snapshot = JSON.parse(row.snapshot) as OrderSnapshot;
    const previous = row.answers ? (JSON.parse(row.answers) as OrderAnswer[]) : null;
    const checked = checkAnswers(snapshot.questions, answers, previous);
    const at = now();
    const updated = await trx
      .updateTable("service_orders")
      .set({ answers: JSON.stringify(checked), answered_at: at })
      .where("id", "=", contractId)
      .where(stillAnswerable(contractId, row.answered_at))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw await answersRefusal(trx, contractId);
    await notifyOtherSide(trx, "merchant", { ...row, opportunity_id }, "service_answered");
    return toOrderJson({ ...row, answers: JSON.stringify(checked), answered_at: at });
  });
}

/**
 * The WHERE of an answer's UPDATE: the contract still before its first delivery, and the answers
 * as they were read (answered_at unchanged), so that of a file and a text sent at once neither
 * overwrites the other unseen: the later one gets 409 and is sent again.
 */
function stillAnswerable(contractId: string, answeredAt: string | null) {
  return (eb: ExpressionBuilder<Database, "service_orders">) =>
    eb.and([
      answeredAt === null ? eb("answered_at", "is", null) : eb("answered_at", "=", answeredAt),
      eb.exists(
        eb
          .selectFrom("contracts")
          .select("contracts.id")
          .where("contracts.id", "=", contractId)
          .where("contracts.status", "=", "in_progress")
          .where("contracts.deliveries_count", "=", 0),
      ),
    ]);
}

/** Why an answer's UPDATE changed nothing: the work was delivered (or the contract ended), or answered meanwhile. */
async function answersRefusal(trx: Kysely<Database>, contractId: string) {
  const open = await trx
    .selectFrom("contracts")
    .select("id")
    .where("id", "=", contractId)
    .where("status", "=", "in_progress")
    .where("deliveries_count", "=", 0)
    .executeTakeFirst();
  return new AppError(409, open ? "services:order_answers_changed" : "services:order_answers_closed");
}

/** The buyer's order of a contract, with its opportunity (for the notice), or 404. */
async function buyersOrder(trx: Kysely<Database>, merchant: Pick<UserRow, "id">, contractId: string) {
  const found = await trx
    .selectFrom("service_orders")
    .innerJoin("contracts", "contracts.id", "service_orders.id")
    .selectAll("service_orders")
    .select("contracts.opportunity_id")
    .where("service_orders.id", "=", contractId)
    .where("service_orders.merchant_id", "=", merchant.id)
    .executeTakeFirst();
  // Not the buyer's (or no order) looks like nothing at all.
  if (!found) throw new AppError(404, "not_found");
  return found;
}

/**
 * The buyer answers a question of kind file with a file (`question`: its index; the file checked
 * and stored as a contract's files are, counted against the buyer's storage), until the first
 * delivery, as the other answers. A new file replaces the question's previous one, whose bytes go
 * back to the buyer's quota in the same transaction and whose file then leaves the store. The
 * freelancer is told (service_answered).
 */
export async function answerOrderFile(
  merchant: UserRow,
  contractId: string,
  input: unknown,
  file: Blob | undefined,
): Promise<OrderJson> {
  await consumeWrite(merchant.id);
  assertId(contractId);
  const { question } = parseInput(orderFileInputSchema, input);
  const current = await buyersOrder(db, merchant, contractId);
  const snapshot = JSON.parse(current.snapshot) as OrderSnapshot;
  if (snapshot.questions[question]?.kind !== "file") {
    throw new AppError(422, "validation_failed", { question: "services:order_file_question_invalid" });
  }
  if (!file) throw new AppError(422, "validation_failed", { files: "services:order_file_required" });
  const saved = await saveAttachment(file, "files");
  let replaced: string | null = null;
  try {
    const order = await transaction(async (trx) => {
      const { opportunity_id, ...row } = await buyersOrder(trx, merchant, contractId);
      const answers: OrderAnswer[] = row.answers
        ? (JSON.parse(row.answers) as OrderAnswer[])
        : snapshot.questions.map((q) => ({ question: q.text, kind: q.kind, answer: null }));
      const previous = answers[question]?.file;
      replaced = previous?.stored_name ?? null;
      answers[question] = {
        question: snapshot.questions[question]!.text,
        kind: "file",
        answer: saved.original_name,
        file: {
          id: randomUUID(),
          stored_name: saved.stored_name,
          content_type: saved.content_type,
          size_bytes: saved.size_bytes,
        },
      };
      const at = now();
      const updated = await trx
        .updateTable("service_orders")
        .set({ answers: JSON.stringify(answers), answered_at: at })
        .where("id", "=", contractId)
        .where(stillAnswerable(contractId, row.answered_at))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw await answersRefusal(trx, contractId);
      // The replaced file's bytes go back first, so that a buyer at the quota may still swap a file
      // for one of the same size; a refused reservation rolls both back.
      await releaseStorage(trx, merchant.id, previous?.size_bytes ?? 0);
      await reserveStorage(trx, merchant.id, saved.size_bytes, "files");
      await notifyOtherSide(trx, "merchant", { ...row, opportunity_id }, "service_answered");
      return toOrderJson({ ...row, answers: JSON.stringify(answers), answered_at: at });
    });
    if (replaced) await deleteAttachment(replaced);
    return order;
  } catch (error) {
    await deleteAttachment(saved.stored_name);
    throw error;
  }
}

/** A file answering an order's question, for the contract's two sides only (404 for anyone else). */
export async function getOrderFile(user: Pick<UserRow, "id">, contractId: string, fileId: string) {
  assertId(contractId);
  assertId(fileId);
  const row = await db
    .selectFrom("service_orders")
    .select("answers")
    .where("id", "=", contractId)
    .where((eb) => eb.or([eb("merchant_id", "=", user.id), eb("freelancer_id", "=", user.id)]))
    .executeTakeFirst();
  const answer = row?.answers ? (JSON.parse(row.answers) as OrderAnswer[]).find((a) => a.file?.id === fileId) : null;
  const stored = answer?.file ? await readAttachment(answer.file.stored_name) : null;
  if (!answer?.file || !stored) throw new AppError(404, "not_found");
  return { name: answer.answer ?? "arquivo", contentType: answer.file.content_type, body: stored.body };
}

/**
 * A change request on an order's contract spends one of the package's revisions, in the request's
 * own transaction: the WHERE holds revisions_used below the allowance, so of two requests for the
 * last one a single one counts; past it, 409 (the freelancer may still propose a paid milestone).
 * A contract without an order is left alone.
 */
export async function spendRevision(trx: Kysely<Database>, contractId: string) {
  const spent = await trx
    .updateTable("service_orders")
    .set({ revisions_used: sql<number>`revisions_used + 1` })
    .where("id", "=", contractId)
    .where(sql<boolean>`revisions_used < revisions_allowed`)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) > 0) return;
  const order = await trx.selectFrom("service_orders").select("id").where("id", "=", contractId).executeTakeFirst();
  if (order) {
    throw new AppError(409, "services:revisions_exhausted", undefined, undefined, undefined, {
      code: "revisions_exhausted",
    });
  }
}

/** Pages: a refusal's answer errors on the form's fields (`answers.0` → `answer_0`). */
export async function answersOnFields<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof AppError && error.fieldErrors) {
      error.fieldErrors = Object.fromEntries(
        Object.entries(error.fieldErrors).map(([field, key]) => [field.replace(/^answers\.(\d)$/, "answer_$1"), key]),
      );
    }
    throw error;
  }
}
