// Where a redirect may send a browser.

const SITE = "http://freela.invalid";
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f]/;

/**
 * The one function that decides where a redirect taken from input (a form's `redirectFrom` or
 * `redirectTo`, a notification's link, a toast's target) may go: a path of this site, or
 * `fallback`. The check is made on what is returned — the path as a browser will read it, after
 * dot segments are resolved and percent-escapes decoded — not on the string as sent: `/.//x` and
 * `/%2e%2e//x` both resolve to `//x`, which a browser reads as another host. Refused: anything
 * not starting with one `/`, backslashes (browsers read them as slashes), control characters
 * (URL parsers drop tabs and line breaks), and a path whose decoded form starts with `//` or `/\`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof to !== "string" || to.length > 2048) return fallback;
  if (!to.startsWith("/") || UNSAFE.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, SITE);
  } catch {
    return fallback;
  }
  if (url.origin !== SITE) return fallback;
  const target = url.pathname + url.search + url.hash;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  // What goes out is one slash and then not another (nor a backslash), decoded or not.
  const onSite = (path: string) => /^\/(?![/\\])/.test(path) && !UNSAFE.test(path);
  return onSite(target) && onSite(decoded) ? target : fallback;
}
