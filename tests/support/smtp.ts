import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { mailer } from "~/services/platform/mail.server";

export type ReceivedMail = {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
};

/**
 * A real SMTP server on a free port of 127.0.0.1 that keeps what it receives. `refuse(n)` makes
 * it answer the next n messages with a temporary failure (451), as a busy server would.
 */
export async function startSmtp(port = 0) {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals--;
          return callback(Object.assign(new Error("Caixa ocupada, tente mais tarde"), { responseCode: 451 }));
        }
        const mail = parseMail(Buffer.concat(chunks).toString("utf8"));
        received.push({
          ...mail,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const listening = (server.server.address() as AddressInfo).port;
  return {
    received,
    url: `smtp://127.0.0.1:${listening}`,
    send: mailer(`smtp://127.0.0.1:${listening}`),
    refuse(n: number) {
      refusals = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header value. */
function decodeWords(value: string) {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QBqb])\?([^?]*)\?=/g, (_all, _charset, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(text: string) {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/%/g, "%25")
    .replace(/=([0-9A-F]{2})/gi, "%$1");
  try {
    return decodeURIComponent(bytes);
  } catch {
    return text;
  }
}

/** A single-part text message: its headers (lower-case names, decoded) and its decoded text. */
export function parseMail(raw: string) {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return { headers, subject: headers.subject ?? "", text: text.replace(/\r\n/g, "\n") };
}
