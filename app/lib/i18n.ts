import enCommon from "../../public/locales/en/common.json";
import enMarket from "../../public/locales/en/market.json";
import enMessages from "../../public/locales/en/messages.json";
import ptCommon from "../../public/locales/pt-BR/common.json";
import ptMarket from "../../public/locales/pt-BR/market.json";
import ptMessages from "../../public/locales/pt-BR/messages.json";

// Both languages are small, so they ship inside the bundles: no loading flash, no extra request.
export const supportedLngs = ["pt-BR", "en"] as const;
export type Lng = (typeof supportedLngs)[number];
export const fallbackLng: Lng = "pt-BR";
export const defaultNS = "common";

export const resources = {
  "pt-BR": { common: ptCommon, messages: ptMessages, market: ptMarket },
  en: { common: enCommon, messages: enMessages, market: enMarket },
};

export const i18nOptions = {
  supportedLngs: [...supportedLngs],
  fallbackLng,
  defaultNS,
  ns: ["common", "messages", "market"],
  resources,
  interpolation: { escapeValue: false },
};
