import { afterAll, describe, expect, it } from "vitest";
import { loader as eventsApi } from "~/routes/api+/events";
import { sendMessage } from "~/services/messaging/messages.server";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { deliverContract } from "~/services/contracts/contracts.server";
import { notify } from "~/services/messaging/notifications.server";
import { createSession, revokeSession } from "~/services/accounts/sessions.server";
import {
  closeEventStreams,
  eventsAfter,
  EVENTS_KEEP_MS,
  lastEventId,
  MAX_STREAMS_PER_ACCOUNT,
  MAX_STREAMS_PER_SESSION,
  openStreams,
  ORDER_LOCK,
  pruneEvents,
  publish,
  sweepStreams,
} from "~/services/platform/events.server";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { db, engine, postgresPool, transaction } from "../../db";
import { BASE, call } from "../support/helpers";
import { negotiation } from "../support/market";
import { readSse } from "../support/sse";

// Live updates (docs/architecture.md, "Live updates"), in one process, on both engines: GET
// /api/events streams the user's events with their numbers; a reconnect with Last-Event-ID gets
// exactly what it missed; the stream ends with its session and is let go of when the client
// goes away; no text of a message travels in it.

afterAll(() => closeEventStreams());

async function open(token: string, options: { lastEventId?: string; query?: string; signal?: AbortSignal } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (options.lastEventId !== undefined) headers["Last-Event-ID"] = options.lastEventId;
  const request = new Request(`${BASE}/api/events${options.query ?? ""}`, { headers, signal: options.signal });
  const response = (await eventsApi({ request, params: {}, context: {} })) as Response;
  return response;
}

async function conversation() {
  const deal = await negotiation("pending");
  const owner = await createSession(deal.owner.id);
  const applicant = await createSession(deal.applicant.id);
  return { ...deal, ownerToken: owner.token, applicantToken: applicant.token };
}

describe("GET /api/events", () => {
  it("answers 401 without a session, as every API route", async () => {
    const response = await call(eventsApi, new Request(`${BASE}/api/events`));
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/Sessão/);
  });

  it("streams a message to the other side with its number, its kind and its conversation, never its text", async () => {
    const { owner, applicant, application, ownerToken } = await conversation();
    const response = await open(ownerToken);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("X-Accel-Buffering")).toBe("no");
    expect(response.headers.get("Cache-Control")).toMatch(/no-transform/);
    const stream = readSse(response);
    await stream.until(() => stream.state.retry !== null, "retry:");
    await sendMessage(applicant, application.id, { body: "Segredo: posso começar amanhã" });
    await stream.until(() => stream.events.length === 1, "the message's event");
    expect(stream.data()).toEqual([{ kind: "message", ref: application.id }]);
    expect(Number(stream.events[0]!.id)).toBeGreaterThan(0);
    expect(stream.events[0]!.data).not.toContain("Segredo");
    // The author's own other tabs hear of it too, not a third party.
    await sendMessage(owner, application.id, { body: "Combinado" });
    await stream.until(() => stream.events.length === 2, "the owner's own message");
    await stream.cancel();
  });

  it("streams notifications (the bell) and nothing of other users", async () => {
    const { owner, application, ownerToken } = await conversation();
    const stranger = await conversation();
    const stream = readSse(await open(ownerToken));
    await stream.until(() => stream.state.retry !== null, "retry:");
    await notify(db, {
      user_id: stranger.owner.id,
      kind: "application_received",
      application_id: stranger.application.id,
      opportunity_id: stranger.opportunity.id,
    });
    await notify(db, {
      user_id: owner.id,
      kind: "application_received",
      application_id: application.id,
      opportunity_id: application.opportunity_id,
    });
    await stream.until(() => stream.events.length >= 1, "the notification");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.data()).toEqual([{ kind: "notification", ref: application.id }]);
    await stream.cancel();
  });

  it("a contract's move reaches both sides' streams; a refused move publishes nothing", async () => {
    const { owner, applicant, application, ownerToken } = await conversation();
    const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
    await acceptOffer(owner, application.id, { offer_id: offer.id });
    const stream = readSse(await open(ownerToken));
    await stream.until(() => stream.state.retry !== null, "retry:");
    const before = await lastEventId();
    await deliverContract(applicant, application.id, { message: "Segue a primeira versão do site completo." });
    await stream.until(() => stream.data().some((e) => e.kind === "contract"), "the contract's move");
    expect(stream.data()).toContainEqual({ kind: "contract", ref: application.id });
    expect((await eventsAfter(applicant.id, before)).map((e) => e.kind)).toContain("contract");
    // Delivering again is refused (409: already delivered): its transaction rolls back, and its events with it.
    const after = await lastEventId();
    await expect(
      deliverContract(applicant, application.id, { message: "Outra entrega, que não pode acontecer." }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await lastEventId()).toBe(after);
    await stream.cancel();
  });

  it("replays exactly what was missed after Last-Event-ID, nothing twice, then goes on live", async () => {
    const { owner, applicant, application, ownerToken } = await conversation();
    const first = readSse(await open(ownerToken));
    await first.until(() => first.state.retry !== null, "retry:");
    await sendMessage(applicant, application.id, { body: "um" });
    await first.until(() => first.events.length === 1, "the first event");
    const seen = first.events[0]!.id!;
    await first.cancel();
    // Away: two messages.
    await sendMessage(applicant, application.id, { body: "dois" });
    await sendMessage(owner, application.id, { body: "três" });
    const again = readSse(await open(ownerToken, { lastEventId: seen }));
    await again.until(() => again.events.length === 2, "the two missed events");
    const ids = again.events.map((e) => Number(e.id));
    expect(ids.every((id) => id > Number(seen))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    await sendMessage(applicant, application.id, { body: "quatro" });
    await again.until(() => again.events.length === 3, "the live event");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(again.events).toHaveLength(3);
    await again.cancel();
    // The first connection of a page may pass the number in the query instead.
    const byQuery = readSse(await open(ownerToken, { query: `?lastEventId=${seen}` }));
    await byQuery.until(() => byQuery.events.length === 3, "the replay by query");
    await byQuery.cancel();
    // Without a number, a stream starts from now.
    const fresh = readSse(await open(ownerToken));
    await fresh.until(() => fresh.state.retry !== null, "retry:");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fresh.events).toHaveLength(0);
    await fresh.cancel();
  });

  it("refuses a Last-Event-ID that is not an event's number with a 400, and takes one past the newest as the newest", async () => {
    const { applicant, application, ownerToken } = await conversation();
    for (const bad of ["abc", "-1", "1.5", "1e3", "9".repeat(40), "0x10"]) {
      const response = await call(
        eventsApi,
        new Request(`${BASE}/api/events`, {
          headers: { Authorization: `Bearer ${ownerToken}`, "Last-Event-ID": bad },
        }),
      );
      expect(response.status, bad).toBe(400);
      expect(response.body.message).toBe("O Last-Event-ID deve ser o número de um evento.");
    }
    const byQuery = await call(
      eventsApi,
      new Request(`${BASE}/api/events?lastEventId=x`, {
        headers: { Authorization: `Bearer ${ownerToken}` },
      }),
    );
    expect(byQuery.status).toBe(400);
    const ahead = readSse(await open(ownerToken, { lastEventId: "999999999999" }));
    await ahead.until(() => ahead.state.retry !== null, "retry:");
    await sendMessage(applicant, application.id, { body: "ainda chega" });
    await ahead.until(() => ahead.events.length === 1, "the event after a number from the future");
    await ahead.cancel();
  });

  it("ends when its session ends (sign-out elsewhere), at the next event or heartbeat", async () => {
    const { applicant, application, ownerToken } = await conversation();
    const stream = readSse(await open(ownerToken));
    await stream.until(() => stream.state.retry !== null, "retry:");
    await revokeSession(ownerToken);
    await sendMessage(applicant, application.id, { body: "alguém aí?" });
    await stream.until(() => stream.state.ended, "the end of the stream");
    expect(stream.events).toHaveLength(0);

    const { ownerToken: other } = await conversation();
    const quiet = readSse(await open(other));
    await quiet.until(() => quiet.state.retry !== null, "retry:");
    await revokeSession(other);
    await sweepStreams();
    await quiet.until(() => quiet.state.ended, "the end at the heartbeat");
    expect(quiet.state.comments).toBeGreaterThan(0);
  });

  it("lets go of a stream as soon as its client goes away", async () => {
    const { ownerToken } = await conversation();
    const before = openStreams();
    const abort = new AbortController();
    const stream = readSse(await open(ownerToken, { signal: abort.signal }));
    await stream.until(() => stream.state.retry !== null, "retry:");
    expect(openStreams()).toBe(before + 1);
    abort.abort();
    expect(openStreams()).toBe(before);
    await stream.cancel();
  });

  it("holds at most 8 streams per session and 16 per account: a new one past that ends the oldest", async () => {
    const { owner, applicant, application, ownerToken } = await conversation();
    const before = openStreams();
    // A burst of streams on one token: the newest 8 stay, the older ones end, told to wait a minute.
    const burst = await Promise.all(Array.from({ length: 30 }, () => open(ownerToken)));
    const streams = burst.map(readSse);
    await Promise.all(streams.map((s) => s.until(() => s.state.retry !== null, "retry:")));
    expect(openStreams()).toBe(before + MAX_STREAMS_PER_SESSION);
    await streams[0]!.until(
      () => streams.filter((s) => s.state.ended).length === 30 - MAX_STREAMS_PER_SESSION,
      "the end of the older streams",
    );
    expect(streams.filter((s) => s.state.ended).every((s) => s.state.retry === 60_000)).toBe(true);
    const live = streams.filter((s) => !s.state.ended);
    // Other sessions of the same account: at most 16 streams in all.
    const sessions = await Promise.all(Array.from({ length: 3 }, () => createSession(owner.id)));
    const more = (await Promise.all(sessions.flatMap(({ token }) => Array.from({ length: 6 }, () => open(token))))).map(
      readSse,
    );
    await Promise.all(more.map((s) => s.until(() => s.state.retry !== null, "retry:")));
    expect(openStreams()).toBe(before + MAX_STREAMS_PER_ACCOUNT);
    // The streams left still get the account's events.
    await sendMessage(applicant, application.id, { body: "ainda aí?" });
    const open16 = [...live, ...more].filter((s) => !s.state.ended);
    expect(open16).toHaveLength(MAX_STREAMS_PER_ACCOUNT);
    await Promise.all(open16.map((s) => s.until(() => s.events.length === 1, "the message's event")));
    for (const s of [...streams, ...more]) await s.cancel();
    expect(openStreams()).toBe(before);
  }, 30_000);

  it("keeps events an hour: the housekeeping deletes older ones", async () => {
    const { applicant, application } = await conversation();
    await sendMessage(applicant, application.id, { body: "velho" });
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("events")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(await pruneEvents(new Date(Date.now() + EVENTS_KEEP_MS - 60_000))).toBe(0);
    const { events } = await pruneExpired(new Date(Date.now() + EVENTS_KEEP_MS + 60_000));
    expect(events).toBe(before);
    expect(await count()).toBe(0);
  });
});

describe.runIf(engine === "postgres")("event numbers on PostgreSQL", () => {
  it("are drawn only once the publishing lock is held, so they commit in order", async () => {
    const { owner } = await conversation();
    const holder = await postgresPool!.connect();
    const other = await postgresPool!.connect();
    try {
      // Another publishing transaction holds the lock, about to commit.
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock($1)", [ORDER_LOCK]);
      const publishing = transaction((trx) => publish(trx, [{ user_id: owner.id, kind: "notification" }]));
      // Once this one waits for the lock, a number drawn elsewhere...
      for (let waited = 0; ; waited += 10) {
        const { rows } = await other.query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
          [ORDER_LOCK],
        );
        if (rows[0].n > 0) break;
        if (waited > 5_000) throw new Error("the publishing transaction never waited for the lock");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const { rows } = await other.query("SELECT nextval(pg_get_serial_sequence('events', 'id'))::int AS n");
      await holder.query("COMMIT");
      await publishing;
      // ...is lower than the one it stores (drawn before the lock, it would be higher).
      const [event] = await eventsAfter(owner.id, 0);
      expect(event.id).toBeGreaterThan(rows[0].n);
    } finally {
      holder.release();
      other.release();
    }
  });
});
