// The floor the JSON list is measured against (`npm run bench`, case "bare"): node:http and
// better-sqlite3 in one process doing the list's own work on the same database file, with no
// framework. Per request: the bearer token's session and user (the app's statement), the
// list's count and page statements (built once per user by the app's own query code, then only
// executed), the rows mapped by the app's own toOpportunityJson, the same JSON body out (the
// benchmark checks it byte for byte against GET /api/opportunities). Only the first page of
// the unfiltered list; anything else answers 404.
//
// GET /opportunities (Accept: text/html, the same Bearer token): the bare SSR reference of the
// signed-in list page, bench/bare-page.tsx (the app's services and components, react-dom/server,
// no Remix).
//
//   PORT=… DATABASE_PATH=… SESSION_SECRET=… node --import tsx bench/bare-server.ts
import { createServer, type ServerResponse } from "node:http";
import type { Statement } from "better-sqlite3";
import { opportunityQuerySchema } from "../app/lib/market-schemas";
import { parseInput } from "../app/services/platform/errors.server";
import { pageMeta } from "../app/services/platform/records.server";
import { opportunityListQueries, toOpportunityJson, TOTAL_CAP } from "../app/services/marketplace/opportunities.server";
import { findSession, hashToken } from "../app/services/accounts/sessions.server";
import { sqlite as connection } from "../db";
import type { UserRow } from "../db/schema";
import { PAGE_PATH, renderListPage } from "./bare-page";

if (!connection) throw new Error("The bare server runs on SQLite only (DATABASE_URL is set).");
const sqlite = connection;

const userOf = sqlite.prepare(
  "select users.* from sessions inner join users on users.id = sessions.user_id where sessions.id = ? and sessions.expires_at > ?",
);
const query = parseInput(opportunityQuerySchema, {});
type Prepared = { statement: Statement; parameters: readonly unknown[] };
const perUser = new Map<string, { count: Prepared; page: Prepared }>();

function prepared(user: UserRow) {
  let found = perUser.get(user.id);
  if (!found) {
    const { count, page } = opportunityListQueries(user, query);
    const prep = (q: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const { sql, parameters } = q.compile();
      return { statement: sqlite.prepare(sql), parameters };
    };
    found = { count: prep(count), page: prep(page) };
    perUser.set(user.id, found);
  }
  return found;
}

/** The list page, signed in as the app's pages are: the session looked up by the app's findSession. */
async function listPage(token: string | undefined, res: ServerResponse) {
  const found = token ? await findSession(token) : null;
  if (!found || found.user.account_type === "operator") {
    res.writeHead(found ? 404 : 401, { "Content-Type": "text/plain" }).end("no");
    return;
  }
  const { body, headers } = await renderListPage(found.user);
  headers.set("Content-Length", String(body.byteLength));
  res.writeHead(200, Object.fromEntries(headers)).end(body);
}

const server = createServer((req, res) => {
  const auth = req.headers.authorization;
  if (req.url === PAGE_PATH) {
    listPage(auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined, res).catch((error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    });
    return;
  }
  const user = auth?.startsWith("Bearer ")
    ? (userOf.get(hashToken(auth.slice(7).trim()), new Date().toISOString()) as UserRow | undefined)
    : undefined;
  if (!user || req.url !== "/api/opportunities") {
    res.writeHead(user ? 404 : 401, { "Content-Type": "application/json" }).end('{"message":"no"}');
    return;
  }
  const { count, page } = prepared(user);
  const { total } = count.statement.get(...count.parameters) as { total: number };
  const rows = page.statement.all(...page.parameters) as Parameters<typeof toOpportunityJson>[0][];
  const body = JSON.stringify({
    data: rows.map((row) => toOpportunityJson(row, user)),
    meta: pageMeta(query.page, query.per_page, Math.min(Number(total), TOTAL_CAP), Number(total) > TOTAL_CAP),
  });
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
