import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

// What a request is called in the access log and the metrics: the Remix route id it reaches
// ("routes/opportunities+/$id", "routes/api+/opportunities+/_index"), never its URL. The set of
// names is the build's routes plus two, so a crawl of made-up URLs adds no new label.

type BuildRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

/** Files served before Remix runs (the build's assets, translations, the icon and preview image). */
export const STATIC_LABEL = "static";
/** A path no route takes (with the splat route `routes/$` there is none; kept for a build without it). */
export const UNMATCHED_LABEL = "unmatched";

/** The route tree of a server build, as Remix builds it from the flat list (parents first). */
export function routeTree(routes: Record<string, BuildRoute>, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => {
      const children = routeTree(routes, route.id);
      const base = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
      return route.index ? { ...base, index: true as const } : { ...base, children };
    });
}

/** `2xx`, `3xx`, `4xx` or `5xx` (a status outside 100–599 counts as a server error). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "5xx";
}

/** Whether a path's escapes are well-formed (the router warns about, and matches nothing for, the others). */
export function decodes(pathname: string) {
  try {
    decodeURI(pathname);
    return true;
  } catch {
    return false;
  }
}

/** A request's name (`route`) and its path as the log may show it (a path's token left out). */
export type RouteLabel = { route: string; path: string };

/**
 * The labeller of one build: a pathname (no query) to the id of the deepest route it matches.
 * The matching is the router's own, whose ranked branches and recent matches are kept per route
 * list (patches/@remix-run+router): a repeated path costs a map lookup. A path that carries a
 * secret (`/unsubscribe/:token`, `/buscas-salvas/cancelar/:token`) comes back without it.
 */
export function routeLabeller(routes: Record<string, BuildRoute>, publicPath = "/build/") {
  const tree = routeTree(routes);
  return (pathname: string): RouteLabel => {
    if (pathname.startsWith(publicPath) || pathname.startsWith("/locales/"))
      return { route: STATIC_LABEL, path: pathname };
    if (pathname === "/favicon.svg" || pathname === "/og-image.png") return { route: STATIC_LABEL, path: pathname };
    // A malformed escape: no route takes it (and the router would warn about it once more).
    if (pathname.includes("%") && !decodes(pathname)) return { route: UNMATCHED_LABEL, path: pathname };
    const matches = matchRoutes(tree, pathname);
    const last = matches?.[matches.length - 1];
    if (!last) return { route: UNMATCHED_LABEL, path: pathname };
    // The token is the path's last segment in every route that takes one.
    const path = last.params.token === undefined ? pathname : pathname.replace(/[^/]*\/?$/, "…");
    return { route: last.route.id!, path };
  };
}
