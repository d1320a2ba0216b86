import i18next, { type TFunction } from "i18next";
import { config } from "~/config.server";
import { fallbackLng, i18nOptions as sharedOptions, supportedLngs, type Lng } from "~/lib/i18n";
import enAccount from "../../../public/locales/en/account.json";
import enAdmin from "../../../public/locales/en/admin.json";
import enCommon from "../../../public/locales/en/common.json";
import enMarket from "../../../public/locales/en/market.json";
import enMessages from "../../../public/locales/en/messages.json";
import enServices from "../../../public/locales/en/services.json";
import esAccount from "../../../public/locales/es/account.json";
import esAdmin from "../../../public/locales/es/admin.json";
import esCommon from "../../../public/locales/es/common.json";
import esMarket from "../../../public/locales/es/market.json";
import esMessages from "../../../public/locales/es/messages.json";
import esServices from "../../../public/locales/es/services.json";
import ptAccount from "../../../public/locales/pt-BR/account.json";
import ptAdmin from "../../../public/locales/pt-BR/admin.json";
import ptCommon from "../../../public/locales/pt-BR/common.json";
import ptMarket from "../../../public/locales/pt-BR/market.json";
import ptMessages from "../../../public/locales/pt-BR/messages.json";
import ptServices from "../../../public/locales/pt-BR/services.json";

// Translations on the server, apart from any request: the API's Portuguese, e-mails in the
// user's language. The visitor's language of a page is read in app/web/i18n.server.ts.

/**
 * I18N_STRICT (tests): a key no language file has, or a value a text asks for and is not given,
 * renders as ⟦key⟧ instead of the key itself, so the browser crawl can find it in any page.
 */
const strict = config.I18N_STRICT
  ? {
      parseMissingKeyHandler: (key: string, defaultValue?: string) => defaultValue ?? `⟦${key}⟧`,
      missingInterpolationHandler: (_text: string, value: string[]) => `⟦${value[1]}⟧`,
    }
  : {};

/** The server holds every language; pages render in the visitor's. */
export const i18nOptions = {
  ...sharedOptions,
  ...strict,
  resources: {
    "pt-BR": {
      common: ptCommon,
      messages: ptMessages,
      market: ptMarket,
      account: ptAccount,
      admin: ptAdmin,
      services: ptServices,
    },
    en: {
      common: enCommon,
      messages: enMessages,
      market: enMarket,
      account: enAccount,
      admin: enAdmin,
      services: enServices,
    },
    es: {
      common: esCommon,
      messages: esMessages,
      market: esMarket,
      account: esAccount,
      admin: esAdmin,
      services: esServices,
    },
  },
};

// The default instance: document titles (app/lib/meta.ts) use it on both sides.
const instance = i18next;
void instance.init({ ...i18nOptions, initImmediate: false });

/** Messages of the JSON API are always Portuguese, as the product contract says. */
export const apiT: TFunction = instance.getFixedT("pt-BR", "messages");

/** A stored language if it is still supported, else Portuguese: the language of a user's e-mails. */
export function emailLocale(locale: string | null | undefined): Lng {
  return (supportedLngs as readonly string[]).includes(locale ?? "") ? (locale as Lng) : fallbackLng;
}

export function fixedT(lng: string, ns = "messages"): TFunction {
  return instance.getFixedT(lng, ns) as TFunction;
}
