// Per-request CPU measured in the process, without HTTP: the server build's Remix handler called
// in a loop (200 warm-up calls, then CPU time over the calls), on a seeded SQLite database.
//   npm run build && DATABASE_PATH=<seeded copy> NODE_ENV=production SESSION_SECRET=<any> \
//     APP_URL=https://freela.example.com.br CONTRACT_SCHEDULE_SECONDS=0 OUTBOX_SECONDS=0 \
//     SAVED_SEARCH_SECONDS=0 node bench/in-process.mjs [list,page,public]
// It adds a session for the freelancer with the most applications (a Bearer token: pages take it
// too); the database must be migrated and its users must have accepted the terms (npm run bench
// prepares its copies so).
import { createHash, randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { createRequestHandler, installGlobals } from "@remix-run/node";
import Database from "better-sqlite3";

installGlobals();
const sqlite = new Database(process.env.DATABASE_PATH);
const reader = sqlite
  .prepare("SELECT freelancer_id AS id FROM applications GROUP BY freelancer_id ORDER BY count(*) DESC LIMIT 1")
  .get();
const token = randomBytes(32).toString("base64url");
const at = new Date().toISOString();
sqlite
  .prepare("INSERT INTO sessions (id, user_id, expires_at, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)")
  .run(
    createHash("sha256").update(token).digest("hex"),
    reader.id,
    new Date(Date.now() + 86_400_000).toISOString(),
    at,
    at,
  );
const uuids = sqlite
  .prepare(
    "SELECT uuid FROM opportunities WHERE status = 'open' AND hidden_at IS NULL AND held_at IS NULL ORDER BY id DESC LIMIT 300",
  )
  .all()
  .map((row) => row.uuid);
sqlite.close();

const build = await import(pathToFileURL(`${process.cwd()}/build/index.js`).href);
const handler = createRequestHandler(build, "production");
const signedIn = { Authorization: `Bearer ${token}`, "User-Agent": "bench" };
const paths = [];
for (const uuid of uuids) {
  const res = await handler(new Request(`http://localhost/api/public/opportunities/${uuid}`));
  if (res.ok) paths.push((await res.json()).data.path);
}

async function loop(name, n, call) {
  for (let i = 0; i < 200; i++) await call(i);
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await call(i);
  const used = process.cpuUsage(cpu);
  console.info(`${name}: ${((used.user + used.system) / 1000 / n).toFixed(3)} ms CPU/req`);
}
async function get(path, headers) {
  const res = await handler(new Request(`http://localhost${path}`, { headers }));
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.text();
}

const which = (process.argv[2] ?? "list,page,public").split(",");
if (which.includes("list")) await loop("GET /api/opportunities", 3000, () => get("/api/opportunities", signedIn));
if (which.includes("page")) {
  await loop("page /opportunities", 600, () => get("/opportunities", { ...signedIn, Accept: "text/html" }));
}
if (which.includes("public")) {
  await loop("public page, rendered", 1000, (i) => get(paths[i % paths.length], { Accept: "text/html" }));
  const { cachedPublicPage } = build.entry.module;
  await loop("public page, kept", 5000, async (i) => {
    if (!(await cachedPublicPage({ method: "GET", url: paths[i % paths.length] }))) throw new Error("not kept");
  });
}
process.exit(0);
