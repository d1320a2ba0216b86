import Bowser from "bowser";

// The device of a session as people recognise it, read from its User-Agent: the browser (or API
// client) and the system, null when unknown. Browsers and systems by bowser (decision 043: a
// maintained MIT parser, kept up with new browsers by others), with shorter names where its own
// are long; the API clients bowser does not know by a few rules of our own. Not a version: the
// list in the security settings needs "Chrome · Windows".

export type Device = { browser: string | null; os: string | null; mobile: boolean };

/** bowser's names that read long in the list, as people say them. */
const SHORT: Record<string, string> = {
  "Microsoft Edge": "Edge",
  "Samsung Internet for Android": "Samsung Internet",
  "Chrome OS": "ChromeOS",
};

const CLIENTS: [RegExp, string][] = [
  [/^curl\//, "curl"],
  [/^(node|undici|node-fetch)\b/i, "Node.js"],
  [/^python-requests\//, "Python"],
  [/^okhttp\//, "OkHttp"],
];

const named = (name: string | undefined) => (name ? (SHORT[name] ?? name) : null);

export function deviceOf(userAgent: string | null | undefined): Device {
  const agent = userAgent ?? "";
  if (!agent) return { browser: null, os: null, mobile: false };
  const client = CLIENTS.find(([re]) => re.test(agent))?.[1];
  if (client) return { browser: client, os: null, mobile: false };
  const { browser, os, platform } = Bowser.parse(agent);
  return { browser: named(browser.name), os: named(os.name), mobile: platform.type === "mobile" };
}
