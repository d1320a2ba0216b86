import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as page from "~/routes/admin+/jobs";
import * as listApi from "~/routes/api+/admin+/jobs._index";
import * as retryApi from "~/routes/api+/admin+/jobs.$id.retry";
import * as discardApi from "~/routes/api+/admin+/jobs.$id.discard";
import { jobsOverview, maskEmail } from "~/services/operator/jobs.server";
import { metrics } from "~/services/platform/metrics.server";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import type { OutboxRow } from "../../db/schema";
import { escrow, hired, milestonesOf } from "../payments/support";
import { fiscalIssuer, insertNota } from "../support/fiscal-notas";
import { mailsTo, signedInUser } from "../support/helpers";
import { statementsOf } from "../support/statements";
import { auditRows, get, post, postForm, signedInOperator } from "./support";

// The job queue, visible (/admin/jobs, GET /api/admin/jobs), on both engines: the queues by kind,
// the failed e-mails with their errors, "tentar de novo" and "descartar" (audited, one winner).

beforeAll(() => escrow(1_000));

const hourAgo = new Date(Date.now() - 3_600_000).toISOString();

async function outboxRow(userId: string, over: Partial<OutboxRow> = {}) {
  const row = {
    id: randomUUID(),
    user_id: userId,
    kind: "application_received" as OutboxRow["kind"],
    application_id: null,
    opportunity_id: null,
    items: 1,
    detail: null,
    status: "failed" as OutboxRow["status"],
    attempts: 8,
    next_attempt_at: hourAgo,
    claim: null,
    locked_until: null,
    last_error: "connect ECONNREFUSED 127.0.0.1:25",
    created_at: hourAgo,
    sent_at: null,
    payload: null,
    ...over,
  };
  await db.insertInto("outbox").values(row).execute();
  return row;
}

const statusOf = async (id: string) =>
  await db
    .selectFrom("outbox")
    .select(["status", "attempts", "last_error"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("the job queue", () => {
  it("shows the queues by kind, the failed e-mails with their errors (the address masked) and the periodic jobs", async () => {
    const { token } = await signedInOperator();
    const person = await createUser(db, { email: "fila.pessoa@example.com" });
    const failed = await outboxRow(person.id);
    await outboxRow(person.id, { status: "pending", attempts: 0, last_error: null });
    await outboxRow(person.id, { status: "sending", attempts: 1, last_error: null, kind: "offer_received" });
    await outboxRow(person.id, { status: "sent", attempts: 1, last_error: null, kind: "offer_received" });
    await outboxRow(person.id, { kind: "password_reset", last_error: "550 mailbox unavailable" });
    // A nota waiting and one failed.
    const { applicant, id } = await hired();
    const [milestone] = await milestonesOf(id);
    const platform = await fiscalIssuer("platform");
    const nota = { kind: "fee" as const, issuer_id: platform.id, contract_id: id, taker_user_id: applicant.id };
    await insertNota({ ...nota, milestone_id: milestone.id, status: "pending", created_at: hourAgo });
    metrics.jobRuns.inc({ job: "mail" });

    const answer = await get(listApi, "/api/admin/jobs", token);
    expect(answer.status).toBe(200);
    const { queues, failed: failures, periodic } = answer.body;
    expect(queues).toContainEqual({
      queue: "outbox",
      kind: "application_received",
      waiting: 1,
      running: 0,
      failed: 1,
      oldest_waiting: hourAgo,
    });
    expect(queues).toContainEqual({
      queue: "outbox",
      kind: "offer_received",
      waiting: 0,
      running: 1,
      failed: 0,
      oldest_waiting: null,
    });
    expect(queues).toContainEqual(
      expect.objectContaining({ queue: "notas", kind: "fee", waiting: 1, oldest_waiting: hourAgo }),
    );
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: failed.id,
          kind: "application_received",
          attempts: 8,
          to: "f***@example.com",
          retriable: true,
        }),
        expect.objectContaining({ kind: "password_reset", last_error: "550 mailbox unavailable", retriable: false }),
      ]),
    );
    expect(failures).toHaveLength(2);
    expect(JSON.stringify(answer.body)).not.toContain("fila.pessoa");
    expect(periodic).toContainEqual(expect.objectContaining({ job: "mail" }));

    const pageData = await get(page, "/admin/jobs", token);
    expect(pageData.status).toBe(200);
    expect(pageData.body.failed).toHaveLength(2);
    // Three statements however many rows: the two queues' counts and the failed e-mails.
    expect(await statementsOf(() => jobsOverview())).toBe(3);
    for (let i = 0; i < 30; i++)
      await outboxRow(person.id, { kind: i % 2 ? "offer_received" : "application_received" });
    expect(await statementsOf(() => jobsOverview())).toBe(3);
  });

  it("tries a failed e-mail again: one of two operators at once wins, the other gets 409; it is then sent", async () => {
    const { user: olga, token } = await signedInOperator("Olga");
    const { token: other } = await signedInOperator("Otto");
    const person = await createUser(db, { email: "reenvio@example.com" });
    const { id } = await outboxRow(person.id, { kind: "offer_received" });

    const answers = await Promise.all([
      post(retryApi, `/api/admin/jobs/${id}/retry`, token, {}, { id }),
      post(retryApi, `/api/admin/jobs/${id}/retry`, other, {}, { id }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toMatch(/não está mais com falha/);
    expect(await statusOf(id)).toEqual({ status: "pending", attempts: 0, last_error: null });
    const audit = (await auditRows()).filter((r) => r.target_id === id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "job.retry", target_type: "job" });
    expect(audit[0]!.actor_id === olga.id || audit[0]!.actor_name.startsWith("Otto")).toBe(true);
    // Back in the queue: the next drain takes it (here: the e-mail has nothing to say any more
    // without its application, so it is skipped rather than failing again).
    await mailsTo(person.email);
    expect((await statusOf(id)).status).not.toBe("failed");
  });

  it("discards a failed e-mail (never sent, audited); refuses a retry of one that carried a link, and moves on nothing else", async () => {
    const { token } = await signedInOperator();
    const person = await createUser(db, { email: "descarte@example.com" });
    const { id } = await outboxRow(person.id);
    const discarded = await postForm(page, "/admin/jobs", token, { intent: "discard", id });
    expect(discarded.status).toBe(302);
    expect(await statusOf(id)).toMatchObject({ status: "skipped", last_error: "discarded" });
    expect(await mailsTo(person.email)).toEqual([]);
    expect((await auditRows()).filter((r) => r.target_id === id).map((r) => r.action)).toEqual(["job.discard"]);
    // Again: no longer failed.
    expect((await post(discardApi, `/api/admin/jobs/${id}/discard`, token, {}, { id })).status).toBe(409);
    expect((await post(retryApi, `/api/admin/jobs/${id}/retry`, token, {}, { id })).status).toBe(409);

    const link = await outboxRow(person.id, { kind: "password_reset" });
    const refused = await post(retryApi, `/api/admin/jobs/${link.id}/retry`, token, {}, { id: link.id });
    expect(refused.status).toBe(409);
    expect((await statusOf(link.id)).status).toBe("failed");
    const pending = await outboxRow(person.id, { status: "pending", attempts: 0 });
    expect(
      (await post(discardApi, `/api/admin/jobs/${pending.id}/discard`, token, {}, { id: pending.id })).status,
    ).toBe(409);
    expect((await statusOf(pending.id)).status).toBe("pending");

    const nobody = randomUUID();
    expect((await post(retryApi, `/api/admin/jobs/${nobody}/retry`, token, {}, { id: nobody })).status).toBe(404);
    const bad = await postForm(page, "/admin/jobs", token, { intent: "retry", id: "' OR 1=1 --" });
    expect(bad.status).toBe(404);
  });

  it("is the operator's: a member gets 404", async () => {
    const { token } = await signedInUser();
    expect((await get(listApi, "/api/admin/jobs", token)).status).toBe(404);
    const id = randomUUID();
    expect((await post(retryApi, `/api/admin/jobs/${id}/retry`, token, {}, { id })).status).toBe(404);
  });

  it("masks an address to its first letter and domain", () => {
    expect(maskEmail("julia@freela.dev")).toBe("j***@freela.dev");
    expect(maskEmail("@x")).toBe("***");
  });
});
