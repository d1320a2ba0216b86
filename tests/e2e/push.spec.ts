import { createECDH, randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";

// Push notifications (docs/product.md, section 6): the settings page's table of kinds by channel,
// subscribing this device, and the service worker showing a push as a notification. Headless
// Chromium cannot reach a real push service offline, so in this test alone
// pushManager.subscribe is stubbed to give a subscription as a browser would (an FCM endpoint and
// real keys), and the push itself is delivered to the worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage). Delivery through a push service, encrypted and signed, is
// tests/messaging/push.test.ts's.

test("settings by channel, this device subscribed, a push shown as a notification", async ({ merchant }) => {
  const { page } = merchant;
  await page.context().grantPermissions(["notifications"]);
  await page.goto("/pages/profile-setting#email");

  // The table: each kind in the app (always), by e-mail and by push.
  const section = page.locator("section#email");
  const table = section.getByRole("table", { name: "Candidaturas e propostas" });
  for (const column of ["Notificação", "No Freela", "E-mail", "Push"]) {
    await expect(table.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }
  // New messages go by push too.
  await expect(section.locator('input[name=push][value="message_received"]')).toBeChecked();
  const pushBox = section.locator('input[name=push][value="offer_received"]');
  await expect(pushBox).toBeChecked();
  await pushBox.uncheck();
  await section.getByRole("button", { name: "Salvar preferências" }).click();
  await expect(page.getByText("Preferências de e-mail salvas.")).toBeVisible();
  await expect(section.locator('input[name=push][value="offer_received"]')).not.toBeChecked();
  await expect(section.getByRole("checkbox", { name: "Contraproposta recebida" })).toBeChecked();

  // The button, once the app's worker is in place; the subscription stubbed (see above).
  const device = page.locator("section#push");
  const button = device.getByRole("button", { name: "Receber notificações neste aparelho" });
  await expect(button).toBeVisible();
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const subscription = {
    endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString("hex")}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
  await page.evaluate(async (json) => {
    const registration = await navigator.serviceWorker.ready;
    const proto = Object.getPrototypeOf(registration.pushManager) as PushManager;
    proto.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
      (window as unknown as { asked: unknown }).asked = {
        userVisibleOnly: options!.userVisibleOnly,
        key: btoa(String.fromCharCode(...key))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, ""),
      };
      return { toJSON: () => json } as unknown as PushSubscription;
    };
  }, subscription);
  await button.click();
  await expect(device.getByRole("status")).toHaveText("Pronto: este aparelho vai receber as notificações.");
  const { key } = (await (await page.request.get("/api/push/key")).json()) as { key: string };
  expect(await page.evaluate(() => (window as unknown as { asked: unknown }).asked)).toEqual({
    userVisibleOnly: true,
    key,
  });
  await expect(device.locator("[data-push-device]")).toHaveCount(1);

  // A push delivered to the worker shows a notification with the app's icon and link.
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  const payload = { title: "Freela", body: "João enviou uma contraproposta", url: "/notifications" };
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          icon: n.icon,
          url: (n.data as { url: string }).url,
        })),
      ),
    )
    .toEqual([
      { title: "Freela", body: payload.body, icon: `${origin}/icons/icon-192.png`, url: `${origin}/notifications` },
    ]);

  // Clicking it (the event dispatched in the worker, as the browser does) closes it and leads the
  // tab to its link.
  const worker = page
    .context()
    .serviceWorkers()
    .find((w) => new URL(w.url()).pathname === "/sw.js")!;
  await worker.evaluate(async () => {
    type Scope = {
      registration: ServiceWorkerRegistration;
      dispatchEvent(event: Event): boolean;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    const scope = globalThis as unknown as Scope;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notification! }));
  });
  await expect(page).toHaveURL(`${origin}/notifications`);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).getNotifications())).toHaveLength(0);
  await page.goto("/pages/profile-setting#email");

  // Removing the device: its own plain form.
  await device.getByRole("button", { name: /^Remover / }).click();
  await expect(page.getByText("Aparelho removido: ele não recebe mais notificações.")).toBeVisible();
  await expect(page.locator("section#push [data-push-device]")).toHaveCount(0);
});
