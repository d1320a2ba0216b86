import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { config } from "~/config.server";

// A push service of our own for the tests (docs/testing.md): an HTTP server on 127.0.0.1 that
// takes pushes as a real one does (RFC 8030: POST to the subscription's endpoint, TTL and Urgency
// headers), checks the VAPID signature (RFC 8292) with node:crypto and decrypts the body
// (aes128gcm, RFC 8291) with the device's private key and auth secret — nothing of web-push, so
// what it accepts is what a real push service and browser would. `device()` makes a
// subscription's keys as a browser does; `gone(endpoint)` makes it answer 410 for that device,
// `fail(n)` the next n pushes with 503.

export type ReceivedPush = {
  endpoint: string;
  ttl: number;
  urgency: string | null;
  /** The decrypted payload, parsed. */
  payload: unknown;
  /** The VAPID JWT's claims and public key. */
  vapid: { aud: string; exp: number; sub: string; key: string };
};

export type Device = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  authSecret: Buffer;
};

const b64url = (b: Buffer) => b.toString("base64url");

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number) {
  const prk = createHmac("sha256", salt).update(ikm).digest();
  return createHmac("sha256", prk)
    .update(Buffer.concat([info, Buffer.from([1])]))
    .digest()
    .subarray(0, length);
}

/** RFC 8291: the aes128gcm body of one push, decrypted with the device's keys. */
export function decryptPush(body: Buffer, device: Pick<Device, "ecdh" | "authSecret">): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const serverKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = device.ecdh.getPublicKey();
  const secret = device.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, serverKey]);
  const ikm = hkdf(device.authSecret, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(salt, ikm, Buffer.from("Content-Encoding: nonce\0"), 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then padding zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("bad padding delimiter");
  return plain.subarray(0, end);
}

/** RFC 8292: `vapid t=<JWT>, k=<key>` checked (ES256 with k, aud, exp within 24 h, sub); its claims. */
export function verifyVapid(header: string | undefined, endpoint: string, at = Date.now()) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error("no vapid authorization");
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, claims, signature] = jwt.split(".") as [string, string, string];
  const point = Buffer.from(k, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!ok) throw new Error("bad vapid signature");
  const header_ = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg: string };
  if (header_.alg !== "ES256") throw new Error("vapid alg is not ES256");
  const c = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud: string; exp: number; sub: string };
  if (c.aud !== new URL(endpoint).origin) throw new Error(`vapid aud ${c.aud} is not the endpoint's origin`);
  if (!(c.exp * 1000 > at && c.exp * 1000 <= at + 24 * 3600_000)) throw new Error("vapid exp out of range");
  if (!c.sub) throw new Error("vapid sub missing");
  return { ...c, key: k };
}

export async function startPushService() {
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  const devices = new Map<string, Device>();
  const goneEndpoints = new Set<string>();
  let failures = 0;
  let origin = "";

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const endpoint = `${origin}${req.url}`;
    const device = devices.get(endpoint);
    if (req.method !== "POST" || !device) return res.writeHead(404).end("no such subscription");
    if (goneEndpoints.has(endpoint)) return res.writeHead(410).end("unsubscribed");
    if (failures > 0) {
      failures--;
      return res.writeHead(503).end("busy");
    }
    try {
      const vapid = verifyVapid(req.headers.authorization, endpoint);
      if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm");
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) throw new Error("no TTL");
      const payload = JSON.parse(decryptPush(Buffer.concat(chunks), device).toString("utf8")) as unknown;
      received.push({ endpoint, ttl, urgency: (req.headers.urgency as string | undefined) ?? null, payload, vapid });
      res.writeHead(201, { Location: `${endpoint}/messages/${received.length}` }).end();
    } catch (error) {
      rejected.push(error instanceof Error ? error.message : String(error));
      res.writeHead(400).end(String(error));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    rejected,
    /** A new device: its endpoint on this service and its keys, as PushSubscription.toJSON() gives. */
    device(): Device {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString("hex")}`;
      const device = {
        endpoint,
        keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) },
        ecdh,
        authSecret,
      };
      devices.set(endpoint, device);
      return device;
    },
    /** The device unsubscribed: its pushes get 410 Gone from now on. */
    gone(endpoint: string) {
      goneEndpoints.add(endpoint);
    },
    /** The next `n` pushes get 503. */
    fail(n: number) {
      failures = n;
    },
    reset() {
      received.length = 0;
      rejected.length = 0;
      goneEndpoints.clear();
      failures = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PushService = Awaited<ReturnType<typeof startPushService>>;

/**
 * The push service for a test file: started before its tests, the only push host the app sends to
 * meanwhile (PUSH_TEST_ENDPOINT_ORIGIN), closed after; `started` gets it.
 */
export function usePushService(started: (service: PushService) => void) {
  let service: PushService;
  beforeAll(async () => {
    service = await startPushService();
    config.PUSH_TEST_ENDPOINT_ORIGIN = service.origin;
    started(service);
  });
  afterAll(async () => {
    config.PUSH_TEST_ENDPOINT_ORIGIN = undefined;
    await service.close();
  });
}
