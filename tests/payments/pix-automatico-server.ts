// A local stand-in for a PSP's Pix Automático, as the Banco Central's API Pix (v2) documents it:
// POST /v2/locrec (a location), POST /v2/rec (a recurrence: vinculo, calendario MENSAL,
// valor.valorRec, loc), GET /v2/rec/{idRec} (with dadosQR.pixCopiaECola, journey 2), PATCH
// /v2/rec/{idRec} {status: CANCELADA}, PUT /v2/cobr/{txid} (a recurring charge: idRec,
// calendario.dataDeVencimento, valor.original), GET and PATCH /v2/cobr/{txid}; statuses as the
// API names them (rec: CRIADA, APROVADA, REJEITADA, CANCELADA, EXPIRADA; cobr: CRIADA, ATIVA,
// CONCLUIDA, REJEITADA, CANCELADA). Tests approve or refuse a recurrence and settle or refuse a
// charge as the payer's bank would, and get the signed webhook ({"recs":[…]} / {"cobsr":[…]},
// x-signature: ts and an HMAC-SHA256 of "<ts>.<body>") to hand to the app. Nothing reaches the network.
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { readBody, replyJson, type Notification } from "./mercadopago-server";

type Rec = {
  idRec: string;
  status: "CRIADA" | "APROVADA" | "REJEITADA" | "CANCELADA" | "EXPIRADA";
  vinculo: { objeto: string; contrato: string; devedor: Record<string, string> };
  calendario: { dataInicial: string; periodicidade: string };
  valor: { valorRec: string };
  politicaRetentativa: string;
  loc: { id: number };
  dadosQR: { pixCopiaECola: string; jornada: "JORNADA_2" };
};

type Cobr = {
  txid: string;
  idRec: string;
  status: "CRIADA" | "ATIVA" | "CONCLUIDA" | "REJEITADA" | "CANCELADA";
  calendario: { dataDeVencimento: string };
  valor: { original: string };
  pix?: { endToEndId: string; valor: string }[];
};

export async function startPixAutomatico(options: { token: string; secret: string; port?: number }) {
  const recs = new Map<string, Rec>();
  const cobrs = new Map<string, Cobr>();
  const requests: { method: string; path: string; body: unknown }[] = [];
  let nextLoc = 1;
  let nextRec = Date.now();
  let e2e = Date.now() % 1e8;

  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const reply = (status: number, value: unknown) => replyJson(res, status, value);
    const path = req.url ?? "/";
    let body: Record<string, any> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return reply(400, { type: "https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida", status: 400 });
    }
    requests.push({ method: req.method ?? "", path, body });
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return reply(401, { type: "https://pix.bcb.gov.br/api/v2/error/NaoAutorizado", status: 401 });
    }
    const invalid = (what: string) =>
      reply(400, { type: `https://pix.bcb.gov.br/api/v2/error/${what}OperacaoInvalida`, status: 400 });
    if (req.method === "POST" && path === "/v2/locrec") {
      return reply(201, { id: nextLoc++, location: `pix.example.com/qr/v2/rec/${nextLoc}`, criacao: new Date() });
    }
    if (req.method === "POST" && path === "/v2/rec") {
      if (
        !body.vinculo?.contrato ||
        !body.vinculo?.devedor ||
        body.calendario?.periodicidade !== "MENSAL" ||
        !/^\d+\.\d{2}$/.test(body.valor?.valorRec ?? "")
      ) {
        return invalid("Rec");
      }
      const idRec = `RR1234567820261129${String(nextRec++).slice(-11)}`;
      const rec: Rec = {
        idRec,
        status: "CRIADA",
        vinculo: body.vinculo,
        calendario: body.calendario,
        valor: body.valor,
        politicaRetentativa: body.politicaRetentativa,
        loc: { id: body.loc },
        dadosQR: {
          pixCopiaECola: `00020101021226990014br.gov.bcb.pix2577pix.example.com/qr/v2/rec/${idRec}`,
          jornada: "JORNADA_2",
        },
      };
      recs.set(idRec, rec);
      return reply(201, rec);
    }
    const rec = /^\/v2\/rec\/([A-Za-z0-9]+)$/.exec(path);
    if (rec) {
      const found = recs.get(rec[1]!);
      if (!found) return reply(404, { type: "https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrado", status: 404 });
      if (req.method === "GET") return reply(200, found);
      if (req.method === "PATCH" && body.status === "CANCELADA") {
        found.status = "CANCELADA";
        for (const c of cobrs.values()) if (c.idRec === found.idRec && c.status !== "CONCLUIDA") c.status = "CANCELADA";
        return reply(200, found);
      }
      return invalid("Rec");
    }
    const cobr = /^\/v2\/cobr\/([A-Za-z0-9]{26,35})$/.exec(path);
    if (cobr) {
      const txid = cobr[1]!;
      const found = cobrs.get(txid);
      if (req.method === "PUT") {
        // The same txid again answers the charge made (a retried request makes no second charge).
        if (found) return reply(200, found);
        const owner = recs.get(body.idRec);
        if (!owner || owner.status !== "APROVADA") return invalid("Cobr");
        if (body.valor?.original !== owner.valor.valorRec || !body.calendario?.dataDeVencimento) return invalid("Cobr");
        const made: Cobr = {
          txid,
          idRec: body.idRec,
          status: "ATIVA",
          calendario: body.calendario,
          valor: body.valor,
        };
        cobrs.set(txid, made);
        return reply(201, made);
      }
      if (!found) return reply(404, { type: "https://pix.bcb.gov.br/api/v2/error/CobrNaoEncontrado", status: 404 });
      if (req.method === "GET") return reply(200, found);
      if (req.method === "PATCH" && body.status === "CANCELADA") {
        if (found.status !== "CONCLUIDA") found.status = "CANCELADA";
        return reply(200, found);
      }
      return invalid("Cobr");
    }
    return reply(404, { type: "https://pix.bcb.gov.br/api/v2/error/NaoEncontrado", status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  /** A signed notification, as the PSP posts it to the app's webhook. */
  function notification(
    value: { recs?: { idRec: string; status?: string }[]; cobsr?: { txid: string; status?: string }[] },
    over: { secret?: string; ts?: number; signature?: string | null } = {},
  ): Notification {
    const body = JSON.stringify(value);
    const ts = over.ts ?? Math.floor(Date.now() / 1000);
    const v1 = createHmac("sha256", over.secret ?? options.secret)
      .update(`${ts}.${body}`)
      .digest("hex");
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const signature = over.signature === undefined ? `ts=${ts},v1=${v1}` : over.signature;
    if (signature !== null) headers["x-signature"] = signature;
    return { path: "/api/payments/webhooks/pix-automatico", headers, body };
  }
  const recNotice = (idRec: string) => notification({ recs: [{ idRec, status: recs.get(idRec)?.status }] });
  const cobrNotice = (txid: string) => notification({ cobsr: [{ txid, status: cobrs.get(txid)?.status }] });

  return {
    url,
    requests,
    recs,
    cobrs,
    notification,
    /** The payer's bank approved (or refused) the recurrence: its notification. */
    approve(idRec: string) {
      recs.get(idRec)!.status = "APROVADA";
      return recNotice(idRec);
    },
    reject(idRec: string) {
      recs.get(idRec)!.status = "REJEITADA";
      return recNotice(idRec);
    },
    /** The payer's bank debited the charge (with another amount, to test a mismatch): its notification. */
    settle(txid: string, valor?: string) {
      const c = cobrs.get(txid)!;
      e2e += 1;
      c.status = "CONCLUIDA";
      c.pix = [
        { endToEndId: `E00000000202611291200PA${String(e2e).padStart(9, "0")}`, valor: valor ?? c.valor.original },
      ];
      return cobrNotice(txid);
    },
    /** The payer's bank did not debit the charge: its notification. */
    refuse(txid: string) {
      cobrs.get(txid)!.status = "REJEITADA";
      return cobrNotice(txid);
    },
    /** Posts the notification to a running app server. */
    async deliver(appUrl: string, n: Notification) {
      const response = await fetch(appUrl + n.path, { method: "POST", headers: n.headers, body: n.body });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PixAutomaticoMock = Awaited<ReturnType<typeof startPixAutomatico>>;
