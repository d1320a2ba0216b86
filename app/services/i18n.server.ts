import { createCookie } from "@remix-run/node";
import i18next, { type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { isProduction } from "~/config.server";
import { fallbackLng, i18nOptions, supportedLngs } from "~/lib/i18n";

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

const instance = i18next.createInstance();
void instance.init({ ...i18nOptions, initImmediate: false });

/** Messages of the JSON API are always Portuguese, as the product contract says. */
export const apiT: TFunction = instance.getFixedT("pt-BR", "messages");

export async function getRequestT(request: Request) {
  const lng = await i18nServer.getLocale(request);
  return { lng, t: instance.getFixedT(lng, "messages") as TFunction };
}

export function fixedT(lng: string, ns = "messages"): TFunction {
  return instance.getFixedT(lng, ns) as TFunction;
}
