import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { config } from "~/config.server";

// Secrets the server must read back (the two-factor TOTP secret) are kept sealed in the database
// (docs/product.md, "Contas e sessões"): AES-256-GCM under a key that never is in the database, so
// a copy of the database or a backup alone cannot produce anyone's codes. The sealed text names
// its key ("v1.<key id>.<iv>.<ciphertext+tag>", base64url) and is bound to its account (the user
// id is the additional data: a sealed secret copied onto another account does not open).
//
// The key: SECRETS_KEY when set, otherwise derived from SESSION_SECRET (one secret fewer to keep
// for a small installation). Both derived keys open what they sealed; `npm run migrate` (run by
// `npm start`) re-seals under the current one whatever was sealed under another or kept in clear
// by an older version, so setting SECRETS_KEY and then changing SESSION_SECRET loses nothing
// (docs/operations.md).

const VERSION = "v1";

type Key = { id: string; bytes: Buffer };

function keyOf(material: string): Key {
  const bytes = Buffer.from(hkdfSync("sha256", material, "", "freela sealed secrets", 32));
  return { id: createHash("sha256").update(bytes).digest("base64url").slice(0, 8), bytes };
}

let cached: { current: Key; known: Key[] } | null = null;
function keys() {
  if (!cached) {
    const session = keyOf(config.SESSION_SECRET);
    const current = config.SECRETS_KEY ? keyOf(config.SECRETS_KEY) : session;
    cached = { current, known: current === session ? [current] : [current, session] };
  }
  return cached;
}

/** Seals `plain` for the account `owner`. */
export function seal(plain: string, owner: string): string {
  const key = keys().current;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(Buffer.from(owner));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, key.id, iv.toString("base64url"), body.toString("base64url")].join(".");
}

/** How a value sealed under the current key begins (a prefix to find the others by). */
export function currentSealPrefix() {
  return `${VERSION}.${keys().current.id}.`;
}

/**
 * The secret kept in `stored` for `owner`. A value from before sealing (no version prefix) is
 * the secret itself. Throws when it was sealed under a key this server does not have, or for
 * another account.
 */
export function unseal(stored: string, owner: string): string {
  if (!stored.startsWith(`${VERSION}.`)) return stored;
  const [, keyId, iv, body] = stored.split(".");
  const key = keys().known.find((k) => k.id === keyId);
  if (!key || !iv || !body) throw new Error("sealed secret: unknown key");
  const data = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(owner));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

/** Forgets the derived keys (tests that change the configuration). */
export function resetSealingKeys() {
  cached = null;
}
