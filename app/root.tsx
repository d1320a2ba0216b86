import { randomUUID } from "node:crypto";
import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppFrame } from "~/components/layout/app-frame";
import { ErrorCode } from "~/lib/error-code";
import { DEFAULT_TOAST_DURATION, layoutAttributes, toastDurations } from "~/lib/layout";
import { useNonce } from "~/lib/nonce";
import { openedRecord } from "~/lib/notifications";
import { useRootData } from "~/lib/root-data";
import { i18nServer } from "~/web/i18n.server";
import { bellOf, readOpenedRecord } from "~/services/messaging/notifications.server";
import { unreadMessages } from "~/services/messaging/messages.server";
import { takeMirrorToken } from "~/web/mirror.server";
import { getSession } from "~/web/session.server";
import { getToast } from "~/web/toast.server";
import { toUserJson } from "~/services/accounts/users.server";
import { needsVerification } from "~/services/accounts/verification.server";
import styles from "~/styles/app.css";
import { isLiveReload } from "~/lib/live-events";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The installable app (public/manifest.webmanifest, public/sw.js).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [session, locale, { toast, headers: toastHeaders }] = await Promise.all([
    getSession(request),
    i18nServer.getLocale(request),
    getToast(request),
  ]);
  // getToast always re-commits its cookie; send it only when a toast was consumed.
  const headers = toast ? toastHeaders : new Headers();
  let mirrorToken: string | null = null;
  if (session) {
    const mirror = await takeMirrorToken(request);
    mirrorToken = mirror.token;
    if (mirror.setCookie) headers.append("Set-Cookie", mirror.setCookie);
  }
  // The top bar's bell: the unread count and the latest few, on every page of the shell.
  // And the unread messages of the user's conversations, but for the one being opened (its page
  // marks it read while this loader runs).
  // Opening a record reads its notifications first, so the bell no longer counts them.
  const { pathname } = new URL(request.url);
  const reading = /^\/applications\/([^/]+)\/messages\/?$/.exec(pathname)?.[1];
  // Operators have no bell: the marketplace's notifications are not theirs.
  const member = session && session.user.account_type !== "operator" ? session.user : null;
  const [notifications, messages] = member
    ? await Promise.all([
        // A page read again by the live updates is not the user opening the record (its
        // notifications stay in the bell until they do).
        (isLiveReload(request) ? Promise.resolve() : readOpenedRecord(member, pathname)).then(() => bellOf(member)),
        unreadMessages(member, reading),
      ])
    : [null, null];
  return json(
    {
      locale,
      user: session ? toUserJson(session.user) : null,
      /** The account still has to confirm its e-mail (the banner above every page). */
      verifyEmail: session ? needsVerification(session.user) : false,
      /** Its address bounced for good or complained: no e-mail goes out (the banner asks for another). */
      undeliverableEmail: Boolean(session?.user.email_undeliverable_at),
      mirrorToken,
      notifications,
      messages,
      toast: toast
        ? {
            id: randomUUID(),
            message: toast.message,
            type: toast.type,
            duration: toast.duration ?? toastDurations[toast.type] ?? DEFAULT_TOAST_DURATION,
          }
        : null,
    },
    { headers },
  );
}

export const handle = { i18n: ["common", "messages"] };

/**
 * The top bar's counts are read again on the way into or out of a conversation (opening one reads
 * its messages) and on the way into a record (opening one reads its notifications), besides
 * Remix's own reasons (after an action, a changed query).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate ||
  openedRecord(nextUrl.pathname) !== null ||
  [currentUrl, nextUrl].some((url) => /^\/applications\/[^/]+\/messages\/?$/.test(url.pathname));

function Document({ children, locale }: { children: ReactNode; locale: string }) {
  const nonce = useNonce();
  return (
    <html lang={locale} {...layoutAttributes}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const data = useRootData()!;
  return (
    <Document locale={data.locale}>
      <AppFrame data={data}>
        <Outlet />
      </AppFrame>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRootData();
  const { t } = useTranslation();
  // Routing errors are only logged; the visitor gets a plain page with a way home.
  // In the browser only: the server logged it already (entry.server handleError), as JSON.
  if (typeof document !== "undefined" && !isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A refusal the server chose to explain (such as a cross-site form post) keeps its message;
  // anything unexpected shows only the generic text, never its details.
  const refusal =
    isRouteErrorResponse(error) && typeof error.data?.message === "string" ? (error.data.message as string) : null;
  return (
    <Document locale={data?.locale ?? "pt-BR"}>
      <main className="auth-page">
        <section className="card auth-card center">
          <p className="error-code">{status}</p>
          <h1>{t("errors.generic_title")}</h1>
          <p className="muted">{refusal ?? t("errors.generic_text")}</p>
          {status >= 500 && <ErrorCode />}
          <a className="btn btn-primary" href="/">
            {t("not_found.back_home")}
          </a>
        </section>
      </main>
    </Document>
  );
}
