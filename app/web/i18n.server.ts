import { createCookie } from "@remix-run/node";
import type { TFunction } from "i18next";
import Negotiator from "negotiator";
import { RemixI18Next } from "remix-i18next/server";
import { isProduction } from "~/config.server";
import { fallbackLng, supportedLngs, type Lng } from "~/lib/i18n";
import { fixedT, i18nOptions } from "~/services/platform/i18n.server";

// The language of a request: ?lng=, the lng cookie, the browser's Accept-Language, Portuguese otherwise.

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: isProduction,
  maxAge: 60 * 60 * 24 * 365,
});

// The language the user picked (kept in the cookie) or, for a visitor who picked none, the first
// of the browser's languages Freela has ("es-AR" reads Spanish, "en-US" English); Portuguese otherwise.
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLngs],
    fallbackLanguage: fallbackLng,
    cookie: localeCookie,
    order: ["searchParams", "cookie", "custom"],
    findLocale: async (request) => browserLocale(request),
  },
  i18next: i18nOptions,
});

/**
 * The browser's most preferred language (Accept-Language, by its q values) that Freela has, or
 * null when it names none ("*" names none: a visitor who asked for nothing keeps Portuguese).
 */
export function browserLocale(request: Request): Lng | null {
  const header = request.headers.get("Accept-Language");
  if (!header) return null;
  const named = header
    .split(",")
    .filter((range) => range.split(";")[0]!.trim() !== "*")
    .join(",");
  const [first] = new Negotiator({ headers: { "accept-language": named } }).languages([...supportedLngs]);
  return (first as Lng | undefined) ?? null;
}

/**
 * The language the visitor picked (the lng cookie), else the one their browser asks for and the
 * pages are shown in, or null when neither names one: what a new account keeps for its e-mails.
 */
export async function storedLocale(request: Request): Promise<Lng | null> {
  const picked: unknown = await localeCookie.parse(request.headers.get("Cookie"));
  if (typeof picked === "string" && (supportedLngs as readonly string[]).includes(picked)) return picked as Lng;
  return browserLocale(request);
}

/** The visitor's language and its messages, for a page's answer. */
export async function getRequestT(request: Request) {
  const lng = await i18nServer.getLocale(request);
  return { lng, t: fixedT(lng) as TFunction };
}
