import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";
import { titleMeta, translateCommon } from "./meta";

type MetaArgs = Parameters<MetaFunction>[0];

/** The title of a page that could not be shown: the not-found page's, or the generic error's. */
export function errorTitle(args: MetaArgs) {
  const root = args.matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  // An opportunity that ended (410) is titled by its own title.
  const ended = isRouteErrorResponse(args.error)
    ? (args.error.data?.ended as { title?: string } | undefined)
    : undefined;
  if (ended?.title) return [{ title: `${ended.title} | Freela` }];
  const key =
    isRouteErrorResponse(args.error) && args.error.status === 404 ? "not_found.title" : "errors.generic_title";
  return [{ title: `${translateCommon(root?.locale, key)} | Freela` }];
}

/** titleMeta for marketplace pages, whose error boundary shows the not-found page. */
export function marketTitleMeta(key: string): MetaFunction {
  const base = titleMeta(key);
  return (args) => (args.error ? errorTitle(args) : base(args));
}
