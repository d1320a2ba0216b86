import type { MetaFunction } from "@remix-run/node";
import i18next from "i18next";
import { fallbackLng } from "./i18n";

/**
 * A title in the page's language, through the default i18next instance: the server's holds
 * every language, the browser's the language of the page it loaded.
 */
export function translateCommon(lng: string | undefined, key: string) {
  return i18next.t(key, { lng: lng ?? fallbackLng, ns: "common" });
}

/** A meta function giving the document title `{title} | Freela`, in the page's language. */
export function titleMeta(key: string): MetaFunction {
  return ({ matches }) => {
    const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
    return [{ title: `${translateCommon(root?.locale, key)} | Freela` }];
  };
}
