import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nOptions, namespaces } from "~/lib/i18n";

/**
 * The page's language only, from public/locales: the server has already rendered the text,
 * so this waits only to hydrate. `no-cache` revalidates (a 304 when unchanged), so a new
 * deploy's strings are never mixed with an old copy.
 */
async function loadResources(lng: string) {
  const entries = await Promise.all(
    namespaces.map(async (ns) => {
      const response = await fetch(`/locales/${encodeURIComponent(lng)}/${ns}.json`, { cache: "no-cache" });
      return [ns, response.ok ? await response.json() : {}] as const;
    }),
  );
  return { [lng]: Object.fromEntries(entries) };
}

async function hydrate() {
  const lng = document.documentElement.lang;
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    lng,
    // Only this language is loaded: a missing key shows as itself rather than fetching another.
    fallbackLng: lng,
    resources: await loadResources(lng),
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();

/**
 * The installable app's service worker (public/sw.js): the build's files and an offline page,
 * nothing private. Its address carries the build's version, so a new deploy installs a new
 * worker, which takes over and drops the old build's files.
 */
function registerServiceWorker() {
  if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
  const version = (window as unknown as { __remixManifest?: { version?: string } }).__remixManifest?.version ?? "dev";
  navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`).catch(() => undefined);
}

// After the page's own loads: the entry may run before or after the window's load event.
if (document.readyState === "complete") registerServiceWorker();
else window.addEventListener("load", registerServiceWorker, { once: true });
