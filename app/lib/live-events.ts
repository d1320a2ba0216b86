import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Events that arrive together (a message and its notification) cause one reload of the data. */
const SETTLE_MS = 100;

/**
 * Live updates for a signed-in member (docs/architecture.md, "Live updates"): one EventSource on
 * GET /api/events for the whole app, and on each event the page's data is read again (the
 * loaders of the page in view: a conversation's messages, the inbox, a contract, and the top
 * bar's unread counts and bell). A hidden tab waits until it is shown again, so it does not mark
 * messages read that nobody saw. The browser reconnects by itself with the Last-Event-ID and
 * gives up on a 401 (the session ended). Without JavaScript pages show what was there on load.
 */
export function useLiveEvents(enabled: boolean) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let missed = false;
    const reload = () => {
      if (document.visibilityState !== "visible") {
        missed = true;
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => latest.current.revalidate(), SETTLE_MS);
    };
    const shown = () => {
      if (missed && document.visibilityState === "visible") {
        missed = false;
        reload();
      }
    };
    source.addEventListener("message", reload);
    document.addEventListener("visibilitychange", shown);
    return () => {
      source.close();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", shown);
    };
  }, [enabled]);
}
