// Links in a text: an address with its scheme (http://, https://), one starting with www., or a
// bare domain ending in a known top-level domain (exemplo.com, bit.ly/x, wa.me/55…, loja.com.br).
// The list of endings keeps "arquivo.pdf", "R$ 1.500,00" and "v2.0" out; an e-mail address is
// not a link (the part after @ is skipped).

const ENDINGS = [
  "com",
  "net",
  "org",
  "br",
  "io",
  "me",
  "ly",
  "gl",
  "app",
  "dev",
  "co",
  "info",
  "biz",
  "xyz",
  "site",
  "online",
  "store",
  "shop",
  "link",
  "page",
  "to",
  "us",
  "tk",
  "tech",
  "website",
  "click",
  "top",
  "live",
];

const SCHEME = /\bhttps?:\/\/\S/i;
const WWW = /\bwww\.[a-z0-9-]/i;
const BARE = new RegExp(`(^|[^@\\w.-])(?:[a-z0-9-]+\\.)+(?:${ENDINGS.join("|")})(?![\\w-])`, "i");

/** Whether the text carries a link (see above). */
export function hasLink(text: string): boolean {
  return SCHEME.test(text) || WWW.test(text) || BARE.test(text);
}
