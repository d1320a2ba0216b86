// A local stand-in for Mercado Pago's payments API, as its documentation describes it: POST
// /v1/payments (Bearer token, X-Idempotency-Key, payment_method_id "pix"), GET /v1/payments/:id,
// and signed webhook notifications (x-signature: ts and an HMAC-SHA256 of
// "id:<data.id>;request-id:<x-request-id>;ts:<ts>;"). The tests start it; nothing reaches the network.
// And a DICT key lookup, GET /pix_key/:key?document_number=<CPF or CNPJ>: Mercado Pago documents
// none, so it answers as banking-as-a-service APIs document theirs (QI Tech's "consultar chave
// Pix"): the key's DICT data with the holder's document masked, and is_pix_key_owner telling
// whether document_number is the holder's (null when none was asked); 404 for an unknown key.
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createStaticPix } from "pix-utils";

export type MockPayment = {
  id: number;
  status: "pending" | "approved" | "cancelled" | "refunded";
  status_detail: string;
  transaction_amount: number;
  description: string;
  payment_method_id: "pix";
  external_reference: string | null;
  date_of_expiration: string | null;
  date_approved: string | null;
  point_of_interaction: {
    type: "PIX";
    transaction_data: { qr_code: string; qr_code_base64: string; e2e_id: string | null };
  };
};

export type Notification = { path: string; headers: Record<string, string>; body: string };

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
  });

/** A stand-in's JSON answer. */
export const replyJson = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
};

export async function startMercadoPago(options: { token: string; secret: string; port?: number }) {
  const payments = new Map<number, MockPayment>();
  const byKey = new Map<string, number>();
  /** Pix keys of the DICT: key → the holder's CPF or CNPJ. */
  const dict = new Map<string, string>();
  const requests: { method: string; path: string; idempotencyKey: string | null }[] = [];
  // Ids as Mercado Pago gives them; from the clock, so a restarted stand-in never repeats one.
  let nextId = Date.now();
  // Unique across stand-ins, as real end-to-end ids are: a browser run repeated against the same
  // app database (--repeat-each) starts a new stand-in and must not send an id already recorded.
  let e2e = Date.now() % 1e8;

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const reply = (status: number, value: unknown) => replyJson(res, status, value);
    const path = req.url ?? "/";
    requests.push({
      method: req.method ?? "",
      path,
      idempotencyKey: (req.headers["x-idempotency-key"] as string) ?? null,
    });
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return reply(401, { message: "invalid access token", status: 401 });
    }
    if (req.method === "POST" && path === "/v1/payments") {
      const key = req.headers["x-idempotency-key"];
      if (typeof key !== "string" || key === "") return reply(400, { message: "X-Idempotency-Key is required" });
      const known = byKey.get(key);
      if (known) return reply(200, payments.get(known));
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body);
      } catch {
        return reply(400, { message: "malformed JSON" });
      }
      if (
        input.payment_method_id !== "pix" ||
        typeof input.transaction_amount !== "number" ||
        input.transaction_amount <= 0
      ) {
        return reply(400, { message: "invalid payment" });
      }
      const id = nextId++;
      const qr = createStaticPix({
        merchantName: "Mercado Pago",
        merchantCity: "Sao Paulo",
        pixKey: "mp-recebimentos@example.com",
        txid: `MP${id}`,
        transactionAmount: input.transaction_amount,
      });
      const payment: MockPayment = {
        id,
        status: "pending",
        status_detail: "pending_waiting_transfer",
        transaction_amount: input.transaction_amount,
        description: String(input.description ?? ""),
        payment_method_id: "pix",
        external_reference: typeof input.external_reference === "string" ? input.external_reference : null,
        date_of_expiration: typeof input.date_of_expiration === "string" ? input.date_of_expiration : null,
        date_approved: null,
        point_of_interaction: {
          type: "PIX",
          transaction_data: { qr_code: "toBRCode" in qr ? qr.toBRCode() : "", qr_code_base64: "", e2e_id: null },
        },
      };
      payments.set(id, payment);
      byKey.set(key, id);
      return reply(201, payment);
    }
    const lookup = /^\/pix_key\/([^?]+)(?:\?(.*))?$/.exec(path);
    if (req.method === "GET" && lookup) {
      const key = decodeURIComponent(lookup[1]!);
      const holder = dict.get(key);
      if (!holder) return reply(404, { title: "Chave não encontrada", code: "PIX_KEY_NOT_FOUND" });
      const asked = new URLSearchParams(lookup[2] ?? "").get("document_number");
      return reply(200, {
        pix_key: key,
        owner_name: "Titular da Chave",
        owner_person_type: holder.length === 14 ? "legal" : "natural",
        owner_masked_document_number:
          holder.length === 14
            ? `**.${holder.slice(2, 5)}.****/${holder.slice(8, 12)}-**`
            : `***.${holder.slice(3, 6)}.${holder.slice(6, 9)}-**`,
        ispb: "10573521",
        financial_institution: "MERCADO PAGO IP LTDA.",
        end_to_end_id: `E10573521${Date.now()}`.slice(0, 32),
        is_pix_key_owner: asked === null ? null : asked === holder,
      });
    }
    const match = /^\/v1\/payments\/(\d+)$/.exec(path);
    if (req.method === "GET" && match) {
      const payment = payments.get(Number(match[1]));
      return payment ? reply(200, payment) : reply(404, { message: "Payment not found", status: 404 });
    }
    return reply(404, { message: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  /** A signed notification of the payment, as Mercado Pago posts it to the notification URL. */
  function notification(
    paymentId: number | string,
    over: { secret?: string; ts?: number; eventId?: number; requestId?: string; signature?: string | null } = {},
  ): Notification {
    const requestId = over.requestId ?? randomUUID();
    const ts = over.ts ?? Math.floor(Date.now() / 1000);
    const dataId = String(paymentId);
    const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`;
    const v1 = createHmac("sha256", over.secret ?? options.secret)
      .update(manifest)
      .digest("hex");
    const headers: Record<string, string> = { "Content-Type": "application/json", "x-request-id": requestId };
    const signature = over.signature === undefined ? `ts=${ts},v1=${v1}` : over.signature;
    if (signature !== null) headers["x-signature"] = signature;
    return {
      path: `/api/payments/webhooks/mercadopago?data.id=${dataId}&type=payment`,
      headers,
      body: JSON.stringify({
        id: over.eventId ?? Math.floor(Math.random() * 1e12),
        live_mode: false,
        type: "payment",
        date_created: new Date().toISOString(),
        user_id: 44444,
        api_version: "v1",
        action: "payment.updated",
        data: { id: dataId },
      }),
    };
  }

  return {
    url,
    requests,
    payments,
    /** The payer paid: the payment is approved (with another amount, to test a mismatch). */
    approve(id: number, amount?: number) {
      const payment = payments.get(id)!;
      e2e += 1;
      payment.status = "approved";
      payment.status_detail = "accredited";
      payment.date_approved = new Date().toISOString();
      if (amount !== undefined) payment.transaction_amount = amount;
      payment.point_of_interaction.transaction_data.e2e_id = `E00000000202611231200MP${String(e2e).padStart(9, "0")}`;
    },
    /** A payment made outside this app (its external reference names nothing here). */
    foreign(amount: number) {
      const id = nextId++;
      payments.set(id, {
        id,
        status: "approved",
        status_detail: "accredited",
        transaction_amount: amount,
        description: "",
        payment_method_id: "pix",
        external_reference: "elsewhere",
        date_of_expiration: null,
        date_approved: new Date().toISOString(),
        point_of_interaction: { type: "PIX", transaction_data: { qr_code: "", qr_code_base64: "", e2e_id: null } },
      });
      return id;
    },
    notification,
    /** A Pix key in the DICT, held by this CPF or CNPJ (digits). */
    registerKey(key: string, document: string) {
      dict.set(key, document);
    },
    /** Posts the notification to a running app server. */
    async deliver(appUrl: string, n: Notification) {
      const response = await fetch(appUrl + n.path, { method: "POST", headers: n.headers, body: n.body });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MercadoPagoMock = Awaited<ReturnType<typeof startMercadoPago>>;
