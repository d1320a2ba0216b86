import type { MetaFunction } from "@remix-run/node";
import { fallbackLng, resources, type Lng } from "./i18n";

function lookup(tree: unknown, key: string): string | undefined {
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
  return typeof value === "string" ? value : undefined;
}

export function translateCommon(lng: string | undefined, key: string) {
  const language = (lng && lng in resources ? lng : fallbackLng) as Lng;
  return lookup(resources[language].common, key) ?? lookup(resources[fallbackLng].common, key) ?? key;
}

/** A meta function giving the document title `{title} | Freela`, in the page's language. */
export function titleMeta(key: string): MetaFunction {
  return ({ matches }) => {
    const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
    return [{ title: `${translateCommon(root?.locale, key)} | Freela` }];
  };
}
