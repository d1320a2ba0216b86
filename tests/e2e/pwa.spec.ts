import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";

// The installable app (docs/product.md, "Aplicativo instalável"): the manifest Chromium reads to
// offer the install, the service worker controlling the page, the offline page when the network
// is gone, and nothing private ever kept by the worker.

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

test("installs: a valid manifest, a worker in control, the offline page without network, nothing private kept", async ({
  freelancer,
}) => {
  const { page } = freelancer;
  await page.goto("/dashboard");
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#0f766e");

  // The manifest, as Chromium's installability check wants it.
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  const res = await page.request.get(href!);
  expect(res.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: expect.stringContaining("Freela"),
    short_name: "Freela",
    start_url: "/",
    display: "standalone",
    theme_color: "#0f766e",
  });
  const icons = manifest.icons.filter((i: { type: string }) => i.type === "image/png");
  for (const size of ["192x192", "512x512"]) expect(icons.map((i: { sizes: string }) => i.sizes)).toContain(size);
  expect(icons.some((i: { purpose: string }) => i.purpose === "maskable")).toBe(true);
  for (const icon of icons) {
    const file = await page.request.get(icon.src);
    expect([file.status(), file.headers()["content-type"]]).toEqual([200, "image/png"]);
    expect(pngSize(await file.body()).join("x")).toBe(icon.sizes);
  }

  // The worker, registered for this build, controls the page after a reload.
  const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(script).toMatch(/\/sw\.js\?v=.+/);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.goto("/opportunities");
  await page.goto("/account/security");

  // What the worker keeps: the build's files and the offline page, never a page or an API answer.
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(kept).toContain("/offline.html");
  expect(kept.some((u) => u.startsWith("/build/"))).toBe(true);
  expect(kept.filter((u) => u !== "/offline.html" && !u.startsWith("/build/"))).toEqual([]);

  // Offline, a navigation shows the offline page in Portuguese; back online, the page again.
  await page.context().setOffline(true);
  await page.goto("/opportunities");
  await expect(page.getByRole("heading", { name: "Você está sem conexão" })).toBeVisible();
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.context().setOffline(false);
  await page.getByRole("link", { name: "Tentar de novo" }).click();
  await expect(page).toHaveURL(/\/opportunities$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Você está sem conexão");
});
