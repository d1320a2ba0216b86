import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { config, isProduction } from "~/config.server";

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

export const {
  getToast,
  redirectWithSuccess,
  redirectWithError,
  redirectWithInfo,
  redirectWithWarning,
  jsonWithSuccess,
  jsonWithError,
} = createToastUtilsWithCustomSession(toastStorage);
