// The bare SSR reference of the signed-in list page (`npm run bench -- --only bare`, served by
// bench/bare-server.ts at GET /opportunities): the page the app answers at /opportunities,
// rendered with react-dom/server from the app's own components and data, without Remix.
//
// Per request: the bell, the unread messages and the first page of the list read by the app's
// service functions (what the root's and the page's loaders read for a signed-in member without
// filters), the i18next instance of the app's entry (i18nFor: one per language, its t() calls
// remembered), and the same tree under <body>: AppFrame (the shell, the bell, the toast, the
// token's mirror) around the list page's own component, rendered with renderToPipeableStream and
// sent as one buffer once all is ready, as app/entry.server.tsx does, with the same security
// headers and a fresh nonce. The components' links, forms and useLoaderData need React Router's
// context: a static router over the page's two routes and a context made here by hand (what
// Remix's static handler would have filled in after running the loaders).
//
// Left out, what Remix adds: Express and the Request/Response polyfills, route matching and the
// loaders' protocol (json() out and parsed back in), the entry, <Meta>/<Links> (the head here is
// written by hand: title, stylesheet, icon), the route modules' preloads, window.__remixContext
// (the loaders' data again, for hydration) and the scripts. The session comes from the Bearer
// token (the app's page is measured with the browser's signed cookie) and the language is
// Portuguese (no lng cookie in the benchmark). The benchmark checks that <body> is the app's, byte
// for byte, once the app's scripts and preload links are taken out.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { pageBufferSink } from "../app/web/page-buffer.server";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { Outlet } from "@remix-run/react";
import type { RouteObject } from "react-router-dom";
import { createStaticRouter, StaticRouterProvider } from "react-router-dom/server.js";
import OpportunitiesPage, { meta } from "../app/routes/opportunities+/_index";
import { AppFrame } from "../app/components/layout/app-frame";
import { fallbackLng } from "../app/lib/i18n";
import { layoutAttributes } from "../app/lib/layout";
import { NonceContext } from "../app/lib/nonce";
import { useRootData } from "../app/lib/root-data";
import { i18nFor } from "../app/services/platform/i18n-render.server";
import { bellOf } from "../app/services/messaging/notifications.server";
import { unreadMessages } from "../app/services/messaging/messages.server";
import { listOpportunities } from "../app/services/marketplace/opportunities.server";
import { toUserJson } from "../app/services/accounts/users.server";
import { needsVerification } from "../app/services/accounts/verification.server";
import { applySecurityHeaders } from "../app/web/security.server";
import type { UserRow } from "../db/schema";

const PAGE_ID = "routes/opportunities+/_index";
export const PAGE_PATH = "/opportunities";

/** The stylesheet's address in the server build (the app's <Links>), if there is a build. */
const STYLESHEET = (() => {
  try {
    return readFileSync("build/index.js", "utf8").match(/\/build\/_assets\/app-\w+\.css/)?.[0] ?? "/app.css";
  } catch {
    return "/app.css";
  }
})();

function Root() {
  return (
    <AppFrame data={useRootData()!}>
      <Outlet />
    </AppFrame>
  );
}

// The two routes of the page, with the ids, paths and index flag Remix gives them (a form's
// action on an index route ends in ?index).
const routes: RouteObject[] = [
  {
    id: "root",
    path: "",
    element: <Root />,
    children: [{ id: PAGE_ID, path: "opportunities", index: true, element: <OpportunitiesPage /> }],
  },
];
// As Remix's RemixServer makes its static router (remix.config.js: v3_relativeSplatPath).
const ROUTER = { future: { v7_partialHydration: true, v7_relativeSplatPath: true } };
const matches = [
  { params: {}, pathname: "/", pathnameBase: "/", route: routes[0]! },
  { params: {}, pathname: PAGE_PATH, pathnameBase: PAGE_PATH, route: routes[0]!.children![0]! },
];

function Document({ locale, title, children }: { locale: string; title: string; children: ReactNode }) {
  return (
    <html lang={locale} {...layoutAttributes}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="stylesheet" href={STYLESHEET} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>{children}</body>
    </html>
  );
}

/** What the root's and the page's loaders give a signed-in member at /opportunities, without filters. */
export async function listPageData(user: UserRow) {
  const [notifications, messages, list] = await Promise.all([
    bellOf(user),
    unreadMessages(user),
    listOpportunities(user, {}),
  ]);
  const root = {
    locale: fallbackLng,
    user: toUserJson(user),
    verifyEmail: needsVerification(user),
    undeliverableEmail: Boolean(user.email_undeliverable_at),
    mirrorToken: null,
    notifications,
    messages,
    toast: null,
  };
  return { root, page: { role: user.account_type, list: { ...list, filters: {}, errors: {} } } };
}

/** The list page of a signed-in member (not an operator), as the app sends it: body and headers. */
export async function renderListPage(user: UserRow): Promise<{ body: Buffer; headers: Headers }> {
  const data = await listPageData(user);
  const nonce = randomBytes(16).toString("base64");
  const i18n = await i18nFor(data.root.locale);
  const context: Parameters<typeof createStaticRouter>[1] = {
    basename: "/",
    location: { pathname: PAGE_PATH, search: "", hash: "", state: null, key: "default" },
    matches: matches as unknown as Parameters<typeof createStaticRouter>[1]["matches"],
    loaderData: { root: data.root, [PAGE_ID]: data.page },
    actionData: null,
    errors: null,
    statusCode: 200,
    loaderHeaders: {},
    actionHeaders: {},
    activeDeferreds: null,
  };
  const args = { data: data.page, matches: [{ id: "root", data: data.root }] } as unknown as Parameters<typeof meta>[0];
  const title = meta(args)?.find((tag) => "title" in tag) as { title: string };
  const body = await render(
    <NonceContext.Provider value={nonce}>
      <I18nextProvider i18n={i18n}>
        <Document locale={data.root.locale} title={title.title}>
          <StaticRouterProvider
            router={createStaticRouter(routes, context, ROUTER)}
            context={context}
            hydrate={false}
          />
        </Document>
      </I18nextProvider>
    </NonceContext.Provider>,
    nonce,
  );
  const headers = applySecurityHeaders(new Headers({ "Content-Type": "text/html; charset=utf-8" }), nonce);
  return { body, headers };
}

/** The whole page in one buffer, once all of it is ready (app/entry.server.tsx). */
function render(element: ReactNode, nonce: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      nonce,
      onAllReady() {
        pipe(pageBufferSink(resolve));
      },
      onShellError: reject,
      onError: reject,
    });
  });
}
