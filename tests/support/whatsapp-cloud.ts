import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in of Meta's WhatsApp Cloud API for the tests (docs/testing.md): an HTTP server on
// 127.0.0.1 that takes POST /<phone number id>/messages as the Cloud API documents it (the API's
// version left out of the path: WHATSAPP_API_URL points at the origin), checks the Bearer token and
// the template's shape, answers { messaging_product, contacts: [{ input, wa_id }], messages:
// [{ id: "wamid…" }] } and records each message. `notOnWhatsapp(to)` makes it answer the error
// object of code 131026 for that number, `fail(n)` the next n messages with 500. `sign(body)`
// makes the X-Hub-Signature-256 of a webhook body.

export const PHONE_NUMBER_ID = "109876543210";
export const TOKEN = "test-whatsapp-token";
export const APP_SECRET = "test-whatsapp-app-secret";
export const VERIFY_TOKEN = "test-whatsapp-verify-token";

export type ReceivedMessage = {
  id: string;
  to: string;
  template: string;
  language: string;
  /** The body's parameters, in order. */
  parameters: string[];
};

/** The X-Hub-Signature-256 header of `body`, signed with `secret`. */
export const sign = (body: string, secret = APP_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

type Template = {
  name?: unknown;
  language?: { code?: unknown };
  components?: { type?: unknown; parameters?: { type?: unknown; text?: unknown }[] }[];
};

/** The stand-in on `listenOn` (0: any free port). */
export async function startWhatsappCloud(listenOn = 0) {
  const received: ReceivedMessage[] = [];
  const unusable = new Set<string>();
  let failures = 0;
  let delayMs = 0;

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, message: string, code: number) =>
    answer(res, status, { error: { message, type: "OAuthException", code, fbtrace_id: "test" } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== `/${PHONE_NUMBER_ID}/messages`)
      return error(res, 404, "Unknown path", 100);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return error(res, 401, "Invalid OAuth access token", 190);
    let body: { messaging_product?: unknown; to?: unknown; type?: unknown; template?: Template };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
    } catch {
      return error(res, 400, "Invalid JSON", 100);
    }
    const template = body.template;
    const bodyComponent = template?.components?.find((c) => c.type === "body");
    const parameters = bodyComponent?.parameters ?? [];
    if (
      body.messaging_product !== "whatsapp" ||
      typeof body.to !== "string" ||
      !/^\+?[1-9]\d{7,14}$/.test(body.to) ||
      body.type !== "template" ||
      typeof template?.name !== "string" ||
      typeof template.language?.code !== "string" ||
      !parameters.length ||
      !parameters.every((p) => p.type === "text" && typeof p.text === "string" && p.text.length > 0)
    ) {
      return error(res, 400, "(#100) Invalid parameter", 100);
    }
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (failures > 0) {
      failures--;
      return error(res, 500, "An unknown error occurred", 1);
    }
    if (unusable.has(body.to)) return error(res, 400, "Message Undeliverable.", 131026);
    const id = `wamid.${randomBytes(12).toString("base64url")}`;
    received.push({
      id,
      to: body.to,
      template: template.name,
      language: template.language.code,
      parameters: parameters.map((p) => String(p.text)),
    });
    answer(res, 200, {
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to.replace(/^\+/, "") }],
      messages: [{ id }],
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => error(res, 500, "stand-in failed", 1));
  });
  await new Promise<void>((resolve) => server.listen(listenOn, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    notOnWhatsapp: (to: string) => void unusable.add(to),
    fail: (n: number) => void (failures = n),
    delay: (ms: number) => void (delayMs = ms),
    /** The last code sent to `to` (the freela_codigo template's {{1}}). */
    codeFor: (to: string) =>
      received.filter((m) => m.to === to && m.template === "freela_codigo").at(-1)?.parameters[0],
    reset: () => {
      received.length = 0;
      unusable.clear();
      failures = 0;
      delayMs = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
