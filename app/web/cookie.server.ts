import { createCookie } from "@remix-run/node";
import { config, isProduction } from "~/config.server";

/** A cookie of the app's own: signed, out of the page's scripts' reach, sent on the site's links too. */
export function signedCookie(name: string, maxAgeSeconds: number) {
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    path: "/",
    secrets: [config.SESSION_SECRET],
    maxAge: maxAgeSeconds,
  });
}
