// The browser tests' mailbox: a real SMTP server that the e2e servers send to (SMTP_URL), and a
// small HTTP server the tests read it from, so a test follows a link from an e-mail as a person
// would (confirming an address, ending a session from a sign-in notice, downloading an export).
// SMTP on MAIL_CATCHER_PORT, HTTP on the next port: GET /messages?to=<address> lists what
// that address received, oldest first; GET /healthz answers once both listen.
import { createServer } from "node:http";
import { startSmtp } from "./smtp";

const port = Number(process.env.MAIL_CATCHER_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error("MAIL_CATCHER_PORT is required");
const smtp = await startSmtp(port);
const http = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/healthz") return res.end("ok");
  if (url.pathname !== "/messages") {
    res.statusCode = 404;
    return res.end();
  }
  const to = (url.searchParams.get("to") ?? "").toLowerCase();
  const found = smtp.received
    .filter((m) => m.to.some((address) => address.toLowerCase() === to))
    .map(({ to: recipients, subject, text }) => ({ to: recipients, subject, text }));
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(found));
});
http.listen(port + 1, "127.0.0.1");
const stop = async () => {
  http.close();
  await smtp.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
