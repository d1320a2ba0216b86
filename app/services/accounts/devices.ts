// The device of a session as people recognise it, read from its User-Agent: the browser (or API
// client) and the system. Plain rules over the few families that matter, in the order that
// tells them apart (Edge and Opera say "Chrome" too; Chrome says "Safari"); null when unknown.
// Not a full parser: the list in the security settings needs "Chrome · Windows", not a version.

export type Device = { browser: string | null; os: string | null; mobile: boolean };

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS)\//, "Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
  [/^(node|undici|node-fetch)\b/i, "Node.js"],
  [/^python-requests\//, "Python"],
  [/^okhttp\//, "OkHttp"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (list: [RegExp, string][], agent: string) => list.find(([re]) => re.test(agent))?.[1] ?? null;

export function deviceOf(userAgent: string | null | undefined): Device {
  const agent = userAgent ?? "";
  return {
    browser: agent ? first(BROWSERS, agent) : null,
    os: agent ? first(SYSTEMS, agent) : null,
    mobile: /\bMobile\b|\biPhone\b|\bAndroid\b.*\bMobile\b/.test(agent),
  };
}
