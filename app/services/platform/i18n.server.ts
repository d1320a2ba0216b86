import { createCookie } from "@remix-run/node";
import i18next, { type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { isProduction } from "~/config.server";
import { fallbackLng, i18nOptions as sharedOptions, supportedLngs, type Lng } from "~/lib/i18n";
import enCommon from "../../../public/locales/en/common.json";
import enMarket from "../../../public/locales/en/market.json";
import enMessages from "../../../public/locales/en/messages.json";
import ptCommon from "../../../public/locales/pt-BR/common.json";
import ptMarket from "../../../public/locales/pt-BR/market.json";
import ptMessages from "../../../public/locales/pt-BR/messages.json";

/** The server holds every language; pages render in the visitor's. */
export const i18nOptions = {
  ...sharedOptions,
  resources: {
    "pt-BR": { common: ptCommon, messages: ptMessages, market: ptMarket },
    en: { common: enCommon, messages: enMessages, market: enMarket },
  },
};

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: isProduction,
  maxAge: 60 * 60 * 24 * 365,
});

// Portuguese unless the user picked another language (kept in the cookie).
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLngs],
    fallbackLanguage: fallbackLng,
    cookie: localeCookie,
    order: ["searchParams", "cookie"],
  },
  i18next: i18nOptions,
});

// The default instance: document titles (app/lib/meta.ts) use it on both sides.
const instance = i18next;
void instance.init({ ...i18nOptions, initImmediate: false });

/** Messages of the JSON API are always Portuguese, as the product contract says. */
export const apiT: TFunction = instance.getFixedT("pt-BR", "messages");

/** The language the visitor picked (the lng cookie), or null when none was picked. */
export async function storedLocale(request: Request): Promise<Lng | null> {
  const picked: unknown = await localeCookie.parse(request.headers.get("Cookie"));
  return typeof picked === "string" && (supportedLngs as readonly string[]).includes(picked) ? (picked as Lng) : null;
}

/** A stored language if it is still supported, else Portuguese: the language of a user's e-mails. */
export function emailLocale(locale: string | null | undefined): Lng {
  return (supportedLngs as readonly string[]).includes(locale ?? "") ? (locale as Lng) : fallbackLng;
}

export async function getRequestT(request: Request) {
  const lng = await i18nServer.getLocale(request);
  return { lng, t: instance.getFixedT(lng, "messages") as TFunction };
}

export function fixedT(lng: string, ns = "messages"): TFunction {
  return instance.getFixedT(lng, ns) as TFunction;
}
