import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { config, isProduction } from "~/config.server";
import { safeRedirect } from "./redirects.server";

// remix-toast's own cookie is not signed; this one is.
const toastStorage = createCookieSessionStorage({
  cookie: {
    name: "freela_toast",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    path: "/",
    secrets: [config.SESSION_SECRET],
  },
});

const toasts = createToastUtilsWithCustomSession(toastStorage);

export const { getToast, jsonWithSuccess, jsonWithError } = toasts;

type RedirectWithToast = typeof toasts.redirectWithSuccess;
/** The redirects with a toast go where safeRedirect allows, like every other redirect. */
const safely =
  (send: RedirectWithToast): RedirectWithToast =>
  (to, ...rest) =>
    send(safeRedirect(to), ...rest);

export const redirectWithSuccess = safely(toasts.redirectWithSuccess);
export const redirectWithError = safely(toasts.redirectWithError);
export const redirectWithInfo = safely(toasts.redirectWithInfo);
export const redirectWithWarning = safely(toasts.redirectWithWarning);
