// Language settings shared by both sides. The translations themselves live in
// public/locales: the server imports them (app/services/platform/i18n.server.ts); the browser fetches
// only the page's language before hydrating, so they stay out of the JavaScript bundles.
export const supportedLngs = ["pt-BR", "en", "es"] as const;
export type Lng = (typeof supportedLngs)[number];
export const fallbackLng: Lng = "pt-BR";
export const defaultNS = "common";
export const namespaces = ["common", "messages", "market", "account", "admin", "services"] as const;

export const i18nOptions = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: [...namespaces],
  interpolation: { escapeValue: false },
};
