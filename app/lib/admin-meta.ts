import type { MetaFunction } from "@remix-run/node";
import i18next from "i18next";
import { fallbackLng } from "./i18n";
import { errorTitle } from "./market-meta";

/**
 * The document title of a console page, `{title} · Console | Freela`, in the page's language
 * (the `admin` namespace); a page that could not be shown gets the error's title.
 */
export function adminTitleMeta(key: string): MetaFunction {
  return (args) => {
    if (args.error) return errorTitle(args);
    const root = args.matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
    const lng = root?.locale ?? fallbackLng;
    const title = i18next.t(key, { lng, ns: "admin" });
    return [{ title: `${title} · ${i18next.t("console", { lng, ns: "admin" })} | Freela` }];
  };
}
