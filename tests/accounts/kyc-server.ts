// A local stand-in for the automatic identity provider (IDENTITY_PROVIDER=kyc), with the API the
// app assumes (app/services/accounts/identity-provider.server.ts; docs/operations.md): POST
// /verifications (Bearer token, Idempotency-Key; the typed data, the three photos in base64 and
// the callback_url) answers 201 with the verification's id, and the same key again answers the
// same verification (200). The decision comes later, as a real asynchronous provider sends it: a
// POST to the callback_url with `{ id, type: "verification.completed", data: { id, status:
// approved|rejected, reason } }`, signed with x-kyc-timestamp and x-kyc-signature "sha256=<HMAC-
// SHA256 of '<timestamp>.<body>'>". The tests start it; nothing reaches the network.
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { readBody, replyJson } from "../payments/mercadopago-server";

export type KycVerification = {
  id: string;
  reference: string;
  idempotencyKey: string;
  callback_url: string;
  /** The request's body as received: the typed data and the photos. */
  input: Record<string, any>;
  status: "processing" | "approved" | "rejected";
};

export type KycDecision = { status: "approved" } | { status: "rejected"; reason: string };

export type KycNotification = { url: string; headers: Record<string, string>; body: string };

const FILES = ["front", "back", "selfie"] as const;

export async function startKyc(options: { token: string; secret: string; port?: number }) {
  const verifications = new Map<string, KycVerification>();
  const byKey = new Map<string, string>();
  const requests: { method: string; path: string; idempotencyKey: string | null }[] = [];
  /** While true, the service is down: every request answers 503. */
  let down = false;

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const reply = (status: number, value: unknown) => replyJson(res, status, value);
    const path = req.url ?? "/";
    const key = req.headers["idempotency-key"];
    requests.push({ method: req.method ?? "", path, idempotencyKey: typeof key === "string" ? key : null });
    if (down) return reply(503, { error: "service_unavailable" });
    if (req.headers.authorization !== `Bearer ${options.token}`) return reply(401, { error: "invalid_token" });
    if (req.method === "POST" && path === "/verifications") {
      if (typeof key !== "string" || key === "") return reply(400, { error: "idempotency_key_required" });
      const known = byKey.get(key);
      if (known) return reply(200, { id: known, status: verifications.get(known)!.status });
      let input: Record<string, any>;
      try {
        input = JSON.parse(body);
      } catch {
        return reply(400, { error: "malformed_json" });
      }
      const complete =
        typeof input.reference === "string" &&
        typeof input.document === "string" &&
        typeof input.legal_name === "string" &&
        typeof input.callback_url === "string" &&
        FILES.every((f) => typeof input.files?.[f]?.base64 === "string" && input.files[f].base64.length > 0);
      if (!complete) return reply(422, { error: "invalid_verification" });
      const id = `ver_${randomUUID().replace(/-/g, "")}`;
      verifications.set(id, {
        id,
        reference: input.reference,
        idempotencyKey: key,
        callback_url: input.callback_url,
        input,
        status: "processing",
      });
      byKey.set(key, id);
      return reply(201, { id, status: "processing" });
    }
    return reply(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  /** Headers signing `body` as the service does (or with another secret, time or signature). */
  function sign(body: string, over: { secret?: string; ts?: number | string; signature?: string | null } = {}) {
    const ts = String(over.ts ?? Math.floor(Date.now() / 1000));
    const hex = createHmac("sha256", over.secret ?? options.secret)
      .update(`${ts}.${body}`)
      .digest("hex");
    const headers: Record<string, string> = { "Content-Type": "application/json", "x-kyc-timestamp": ts };
    const signature = over.signature === undefined ? `sha256=${hex}` : over.signature;
    if (signature !== null) headers["x-kyc-signature"] = signature;
    return headers;
  }

  /** The signed result of a verification, as the service posts it to the callback URL. */
  function notification(
    verificationId: string,
    decision: KycDecision,
    over: { secret?: string; ts?: number; eventId?: string; signature?: string | null } = {},
  ): KycNotification {
    const body = JSON.stringify({
      id: over.eventId ?? `evt_${randomUUID().replace(/-/g, "")}`,
      type: "verification.completed",
      created_at: new Date().toISOString(),
      data: { id: verificationId, ...decision },
    });
    // A verification it never made goes to the last callback it was given (the same app).
    const callback =
      verifications.get(verificationId)?.callback_url ?? [...verifications.values()].at(-1)!.callback_url;
    return { url: callback, headers: sign(body, over), body };
  }

  /** Posts a notification to its callback URL (a running app), as the service does. */
  async function deliver(n: KycNotification) {
    const response = await fetch(n.url, { method: "POST", headers: n.headers, body: n.body });
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  return {
    url,
    requests,
    verifications,
    sign,
    notification,
    deliver,
    /** The service decides the verification and tells the app: the delivery's answer. */
    async decide(verificationId: string, decision: KycDecision) {
      verifications.get(verificationId)!.status = decision.status;
      return deliver(notification(verificationId, decision));
    },
    /** The latest verification made for this reference ("<user id>:<version>") or user. */
    latestFor(userId: string) {
      return [...verifications.values()].filter((v) => v.reference.startsWith(`${userId}:`)).at(-1);
    },
    /** The service goes down (every request 503) or comes back. */
    setDown(value: boolean) {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type KycMock = Awaited<ReturnType<typeof startKyc>>;
