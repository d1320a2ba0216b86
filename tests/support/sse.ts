// Reads a Server-Sent Events answer (GET /api/events) as a test would: every event with its id
// and data, the comments counted apart, and whether the server ended the stream.

export type SseEvent = { id: string | null; data: string; event: string | null };

export function readSse(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: SseEvent[] = [];
  const state = { ended: false, comments: 0, retry: null as number | null };
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { id: null, data: "", event: null };
          let hasData = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) state.comments++;
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) event.event = line.slice(7);
            else if (line.startsWith("retry: ")) state.retry = Number(line.slice(7));
            else if (line.startsWith("data: ")) {
              event.data += line.slice(6);
              hasData = true;
            }
          }
          if (hasData) events.push(event);
        }
      }
    } catch {
      // Cancelled by the test.
    }
    state.ended = true;
  })();
  return {
    events,
    state,
    /** The events' data, parsed. */
    data: () => events.map((e) => JSON.parse(e.data) as { kind: string; ref: string | null }),
    /** Waits until `check` holds (every 10 ms, up to `ms`); throws with `what` otherwise. */
    async until(check: () => boolean, what: string, ms = 5_000) {
      const end = Date.now() + ms;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async cancel() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}
