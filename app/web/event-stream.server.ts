import { hashToken } from "~/services/accounts/sessions.server";
import { RETRY_MS, streamStart, subscribe } from "~/services/platform/events.server";
import type { UserRow } from "../../db/schema";
import { getRequestToken } from "./session.server";

const encoder = new TextEncoder();

/**
 * GET /api/events: the signed-in user's live events as Server-Sent Events (docs/api.md). Each
 * event has its number as `id:`, so a browser that reconnects sends it back as Last-Event-ID
 * (or, for a first connection, `?lastEventId=`) and gets what it missed. A comment every 20 s
 * keeps proxies from closing it; it ends when the session does, and is let go of as soon as the
 * client goes away. Nothing may buffer or compress it (X-Accel-Buffering: no for nginx).
 */
export async function eventStream(request: Request, user: UserRow): Promise<Response> {
  const lastSeen = request.headers.get("Last-Event-ID") ?? new URL(request.url).searchParams.get("lastEventId");
  const cursor = await streamStart(lastSeen);
  const token = await getRequestToken(request);
  const sessionId = hashToken(token ?? "");
  let unsubscribe = () => {};
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        request.signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // Already cancelled by the client.
        }
      };
      const write = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      };
      write(`retry: ${RETRY_MS}\n\n`);
      unsubscribe = subscribe({ userId: user.id, sessionId, cursor, write, close, reading: false, again: false });
      if (request.signal.aborted) close();
      else request.signal.addEventListener("abort", close);
    },
    cancel() {
      closed = true;
      unsubscribe();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
      // Its connection is not reused once it ends (the session ended, the server stops): an idle
      // kept-alive socket would hold a stopping server until its deadline.
      Connection: "close",
    },
  });
}
