import enCommon from "../../public/locales/en/common.json";
import enMessages from "../../public/locales/en/messages.json";
import ptCommon from "../../public/locales/pt-BR/common.json";
import ptMessages from "../../public/locales/pt-BR/messages.json";

// Both languages are small, so they ship inside the bundles: no loading flash, no extra request.
export const supportedLngs = ["pt-BR", "en"] as const;
export type Lng = (typeof supportedLngs)[number];
export const fallbackLng: Lng = "pt-BR";
export const defaultNS = "common";

export const resources = {
  "pt-BR": { common: ptCommon, messages: ptMessages },
  en: { common: enCommon, messages: enMessages },
};

export const i18nOptions = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: ["common", "messages"],
  resources,
  interpolation: { escapeValue: false },
};
