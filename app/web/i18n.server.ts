import { createCookie } from "@remix-run/node";
import type { TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { isProduction } from "~/config.server";
import { fallbackLng, supportedLngs, type Lng } from "~/lib/i18n";
import { fixedT, i18nOptions } from "~/services/platform/i18n.server";

// The language of a request: the lng cookie (or ?lng=), Portuguese otherwise.

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

/** The language the visitor picked (the lng cookie), or null when none was picked. */
export async function storedLocale(request: Request): Promise<Lng | null> {
  const picked: unknown = await localeCookie.parse(request.headers.get("Cookie"));
  return typeof picked === "string" && (supportedLngs as readonly string[]).includes(picked) ? (picked as Lng) : null;
}

/** The visitor's language and its messages, for a page's answer. */
export async function getRequestT(request: Request) {
  const lng = await i18nServer.getLocale(request);
  return { lng, t: fixedT(lng) as TFunction };
}
