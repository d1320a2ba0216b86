import { signedCookie } from "./cookie.server";

/**
 * Hands the new access token to the browser once, right after a login through the page,
 * so the client can mirror it into localStorage for legacy clients.
 */
export const mirrorCookie = signedCookie("freela_mirror", 60);

export async function takeMirrorToken(request: Request) {
  const token = await mirrorCookie.parse(request.headers.get("Cookie"));
  if (typeof token !== "string") return { token: null, setCookie: null };
  return { token, setCookie: await mirrorCookie.serialize("", { maxAge: 0 }) };
}
