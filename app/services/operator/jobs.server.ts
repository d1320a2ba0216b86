import { db, transaction } from "../../../db";
import { isAccountEmailKind } from "../messaging/account-email.server";
import { AppError } from "../platform/errors.server";
import { metrics } from "../platform/metrics.server";
import { now } from "../platform/records.server";
import { recordAudit, type Actor } from "./audit.server";

// The job queue, visible (/admin/jobs and GET /api/admin/jobs): what waits in the background
// queues — the e-mails' outbox and the notas fiscais — by kind (waiting, running, failed, the
// oldest waiting), the failed e-mails with their error, and the periodic jobs' runs in this
// process. A failed e-mail is sent again ("tentar de novo") or set aside ("descartar"), audited,
// by a conditional UPDATE: one of two operators wins, the other gets a 409. A failed nota is
// issued again from /admin/notas.

export type QueueRow = {
  queue: "outbox" | "notas";
  kind: string;
  waiting: number;
  running: number;
  failed: number;
  oldest_waiting: string | null;
};

const FAILED_LIMIT = 100;

/** The queues by kind, the failed e-mails (newest first, at most 100) and the periodic jobs. */
export async function jobsOverview() {
  const [outbox, notas, failed] = await Promise.all([
    db
      .selectFrom("outbox")
      .select((eb) => [
        "kind",
        eb.fn.sum<number>(eb.case().when("status", "=", "pending").then(1).else(0).end()).as("waiting"),
        eb.fn.sum<number>(eb.case().when("status", "=", "sending").then(1).else(0).end()).as("running"),
        eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
        eb.fn
          .min<string>(eb.case().when("status", "=", "pending").then(eb.ref("created_at")).end())
          .as("oldest_waiting"),
      ])
      .where("status", "in", ["pending", "sending", "failed"])
      .groupBy("kind")
      .orderBy("kind")
      .execute(),
    db
      .selectFrom("nfse_documents")
      .select((eb) => [
        "kind",
        eb.fn.sum<number>(eb.case().when("status", "=", "pending").then(1).else(0).end()).as("waiting"),
        eb.fn.sum<number>(eb.case().when("status", "=", "issuing").then(1).else(0).end()).as("running"),
        eb.fn.sum<number>(eb.case().when("status", "in", ["failed", "rejected"]).then(1).else(0).end()).as("failed"),
        eb.fn
          .min<string>(eb.case().when("status", "=", "pending").then(eb.ref("created_at")).end())
          .as("oldest_waiting"),
      ])
      .where("status", "in", ["pending", "issuing", "failed", "rejected"])
      .groupBy("kind")
      .orderBy("kind")
      .execute(),
    db
      .selectFrom("outbox")
      .innerJoin("users", "users.id", "outbox.user_id")
      .select([
        "outbox.id",
        "outbox.kind",
        "outbox.attempts",
        "outbox.last_error",
        "outbox.created_at",
        "outbox.next_attempt_at as failed_at",
        "users.email",
      ])
      .where("outbox.status", "=", "failed")
      .orderBy("outbox.created_at", "desc")
      .orderBy("outbox.id", "desc")
      .limit(FAILED_LIMIT)
      .execute(),
  ]);
  type Counted = { kind: string; waiting: number; running: number; failed: number; oldest_waiting: string | null };
  const queue = (name: QueueRow["queue"]) => (row: Counted) => ({
    queue: name,
    kind: row.kind,
    waiting: Number(row.waiting),
    running: Number(row.running),
    failed: Number(row.failed),
    oldest_waiting: row.oldest_waiting ?? null,
  });
  return {
    queues: [...outbox.map(queue("outbox")), ...notas.map(queue("notas"))] as QueueRow[],
    failed: failed.map(({ email, ...row }) => ({
      ...row,
      to: maskEmail(email),
      /** An account e-mail's link is gone once it failed: it cannot be sent again. */
      retriable: !isAccountEmailKind(row.kind),
    })),
    periodic: await periodicJobs(),
  };
}

/** "j***@example.com": enough for support to recognise, not to harvest. */
export function maskEmail(email: string) {
  const at = email.lastIndexOf("@");
  return at < 1 ? "***" : `${email[0]}***${email.slice(at)}`;
}

/** The periodic jobs' runs and failures since this process started (the whole server: /metrics). */
async function periodicJobs() {
  const [runs, failures] = await Promise.all([metrics.jobRuns.get(), metrics.jobFailures.get()]);
  const failed = new Map(failures.values.map((v) => [String(v.labels.job), v.value]));
  return runs.values
    .map((v) => ({ job: String(v.labels.job), runs: v.value, failures: failed.get(String(v.labels.job)) ?? 0 }))
    .sort((a, b) => a.job.localeCompare(b.job));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A failed e-mail back in the queue (`retry`: due now, its tries counted again) or set aside for
 * good (`discard`: skipped, never sent), audited. 404 for no such e-mail; 409 when it is not
 * failed any more (another operator moved it first) or, for a retry, when it carried a link.
 */
export async function moveFailedEmail(actor: Actor, id: unknown, move: "retry" | "discard") {
  if (typeof id !== "string" || !UUID.test(id)) throw new AppError(404, "job_not_found");
  const at = now();
  return transaction(async (trx) => {
    const row = await trx
      .selectFrom("outbox")
      .select(["kind", "status", "attempts"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw new AppError(404, "job_not_found");
    if (move === "retry" && isAccountEmailKind(row.kind)) throw new AppError(409, "job_not_retriable");
    const moved = await trx
      .updateTable("outbox")
      .set(
        move === "retry"
          ? { status: "pending", attempts: 0, next_attempt_at: at, last_error: null }
          : { status: "skipped", last_error: "discarded" },
      )
      .where("id", "=", id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new AppError(409, "job_not_failed");
    await recordAudit(
      trx,
      actor,
      {
        action: move === "retry" ? "job.retry" : "job.discard",
        target_type: "job",
        target_id: id,
        before: { status: "failed", kind: row.kind, attempts: row.attempts },
        after: { status: move === "retry" ? "pending" : "skipped" },
      },
      at,
    );
    return { id, status: move === "retry" ? ("pending" as const) : ("skipped" as const) };
  });
}
