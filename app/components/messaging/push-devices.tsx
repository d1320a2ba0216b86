import { useEffect, useState } from "react";
import { useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DeviceName, type DeviceView } from "~/components/accounts/sessions";
import { IntentButton } from "~/components/ui/form";
import { formatDate } from "~/lib/format";

export type PushDeviceItem = { id: string; device: DeviceView; created_at: string };

type State = "unsupported" | "ready" | "busy" | "done" | "denied" | "failed";

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function keyBytes(key: string) {
  const base64 = (key + "=".repeat((4 - (key.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * Subscribes this browser: asks for permission, subscribes through the service worker's
 * PushManager with the server's key, and hands the subscription to the API.
 */
async function subscribeThisDevice(): Promise<State> {
  if ((await Notification.requestPermission()) !== "granted") return "denied";
  const registration = await navigator.serviceWorker.ready;
  const { key } = (await (await fetch("/api/push/key")).json()) as { key: string };
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key),
  });
  const response = await fetch("/api/push-subscriptions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(subscription.toJSON()),
  });
  return response.ok ? "done" : "failed";
}

/**
 * The devices that get this account's push notifications, each with a plain form to remove it,
 * and the button that adds this one. The button needs JavaScript, a service worker and
 * PushManager: without them (and before the page's scripts run) a short explanation stands in
 * its place.
 */
export function PushDevices({ devices }: { devices: PushDeviceItem[] }) {
  const { t, i18n } = useTranslation("market");
  const { t: ta } = useTranslation("account");
  const revalidator = useRevalidator();
  const [state, setState] = useState<State>("unsupported");
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
    // Once the app's worker is registered (never, where there is none: the button stays away).
    let live = true;
    void navigator.serviceWorker.ready.then(() => live && setState("ready"));
    return () => {
      live = false;
    };
  }, []);

  async function onClick() {
    setState("busy");
    const outcome = await subscribeThisDevice().catch((): State => "failed");
    setState(outcome);
    if (outcome === "done") revalidator.revalidate();
  }

  return (
    <section className="card form-card stack" id="push" aria-labelledby="push-title">
      <h2 id="push-title">{t("push_devices.title")}</h2>
      <p className="muted">{t("push_devices.intro")}</p>
      {state === "unsupported" ? (
        <p className="muted" data-push="unsupported">
          {t("push_devices.unsupported")}
        </p>
      ) : (
        <div>
          <button type="button" className="btn btn-secondary" onClick={onClick} disabled={state === "busy"}>
            {state === "busy" ? t("push_devices.busy") : t("push_devices.subscribe")}
          </button>
          <p role="status" className="muted">
            {state === "done" || state === "denied" || state === "failed" ? t(`push_devices.${state}`) : null}
          </p>
        </div>
      )}
      {devices.length ? (
        <ul className="session-list">
          {devices.map((d) => {
            const name = `${d.device.browser ?? ta("security.session_unknown_browser")} · ${d.device.os ?? ta("security.session_unknown_os")}`;
            return (
              <li key={d.id} className="session-item" data-push-device={d.id}>
                <div>
                  <strong>
                    <DeviceName device={d.device} />
                  </strong>
                  <br />
                  <span className="muted">
                    {t("push_devices.since", { date: formatDate(d.created_at, i18n.language) })}
                  </span>
                </div>
                <IntentButton
                  intent="push_remove"
                  fields={{ id: d.id }}
                  className="btn btn-danger-ghost btn-sm"
                  label={t("push_devices.remove_label", { device: name })}
                >
                  {t("push_devices.remove")}
                </IntentButton>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">{t("push_devices.none")}</p>
      )}
    </section>
  );
}
