import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** Events that arrive together (a message and its notification) cause one reload of the data. */
const SETTLE_MS = 100;
/**
 * Set by the page for the few milliseconds of a live reload: the root loader then leaves the
 * notifications of the record in view unread (opening a record reads them; a reload is not the
 * user opening it). Remix's revalidation requests carry no mark of their own.
 */
const LIVE_COOKIE = "freela_live";

/** Whether a loader runs for a live reload (server side: the request's cookie). */
export function isLiveReload(request: Request) {
  return new RegExp(`(?:^|;\\s*)${LIVE_COOKIE}=1(?:;|$)`).test(request.headers.get("Cookie") ?? "");
}

function markLiveReload(on: boolean) {
  document.cookie = on
    ? `${LIVE_COOKIE}=1; Path=/; Max-Age=10; SameSite=Strict`
    : `${LIVE_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`;
}

/**
 * Live updates for a signed-in member (docs/architecture.md, "Live updates"): one EventSource on
 * GET /api/events for the whole app, and on each event the page's data is read again (the
 * loaders of the page in view: a conversation's messages, the inbox, a contract, and the top
 * bar's unread counts and bell). It waits while a hidden tab is hidden (so it does not mark
 * messages read that nobody saw) and while a navigation or a form is under way (that one loads
 * the page anew, and the reload follows it). The browser reconnects by itself with the
 * Last-Event-ID and gives up on a 401 (the session ended). Without JavaScript pages show what
 * was there on load.
 */
export function useLiveEvents(enabled: boolean) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const latest = useRef({ revalidator, busy: navigation.state !== "idle" });
  latest.current = { revalidator, busy: navigation.state !== "idle" };
  const missed = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  const reload = useRef(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (document.visibilityState !== "visible" || latest.current.busy) {
        missed.current = true;
        return;
      }
      missed.current = false;
      markLiveReload(true);
      latest.current.revalidator.revalidate();
    }, SETTLE_MS);
  }).current;

  // The mark goes as soon as the reload is over, or a navigation starts.
  useEffect(() => {
    if (revalidator.state === "idle" || navigation.state !== "idle") markLiveReload(false);
  }, [revalidator.state, navigation.state]);

  // A reload put off by a hidden tab or a navigation happens once it is over.
  useEffect(() => {
    if (navigation.state === "idle" && missed.current) reload();
  }, [navigation.state, reload]);

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    const shown = () => {
      if (missed.current && document.visibilityState === "visible") reload();
    };
    source.addEventListener("message", reload);
    document.addEventListener("visibilitychange", shown);
    return () => {
      source.close();
      clearTimeout(timer.current);
      document.removeEventListener("visibilitychange", shown);
    };
  }, [enabled, reload]);
}
