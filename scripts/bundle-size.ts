// The JavaScript a browser downloads for the first page of a visit, gzipped as remix-serve sends
// it: the entry, the root route and the route chunks of /login and of /opportunities (with their
// shared imports, each file counted once). Fails over the budget. Run after `npm run build`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 120_000; // 120 kB gzipped
const PAGES = ["/login", "/opportunities"];

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[] };
type Manifest = { entry: { module: string; imports: string[] }; routes: Record<string, RouteEntry>; url: string };

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The manifest of the current build: build/index.js names its file in public/build. */
function readManifest(): Manifest {
  if (!existsSync("build/index.js")) fail("No build found: run `npm run build` first.");
  const url = readFileSync("build/index.js", "utf8").match(/\/build\/manifest-[A-Za-z0-9]+\.js/)?.[0];
  const file = url ? join("public", url) : null;
  if (!file || !existsSync(file)) {
    const found = existsSync("public/build")
      ? readdirSync("public/build").filter((f) => f.startsWith("manifest-"))
      : [];
    fail(
      `The manifest named by build/index.js (${url ?? "none"}) is missing; found: ${found.join(", ") || "nothing"}.`,
    );
  }
  const text = readFileSync(file, "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

/** Root-to-leaf route ids rendering a URL path (static segments only, which is all we ask for). */
function matchRoutes(manifest: Manifest, pathname: string): string[] {
  const routes = Object.values(manifest.routes);
  const fullPath = (route: RouteEntry): string => {
    const parent = route.parentId ? manifest.routes[route.parentId] : undefined;
    const own = route.path ?? "";
    const base = parent ? fullPath(parent) : "";
    return [base, own].filter(Boolean).join("/");
  };
  const target = pathname.replace(/^\/|\/$/g, "");
  const leaves = routes.filter((r) => fullPath(r) === target && !routes.some((c) => c.parentId === r.id && !c.path));
  const leaf = leaves.find((r) => r.index) ?? leaves[0];
  if (!leaf) fail(`No route renders ${pathname}.`);
  const chain: string[] = [];
  for (let r: RouteEntry | undefined = leaf; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
    chain.unshift(r.id);
  return chain;
}

const manifest = readManifest();
const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
const perPage: Record<string, string[]> = {};
for (const page of PAGES) {
  const ids = matchRoutes(manifest, page);
  perPage[page] = ids;
  for (const id of ids) {
    const route = manifest.routes[id];
    for (const f of [route.module, ...(route.imports ?? [])]) files.add(f);
  }
}

const gzipped = (url: string) => gzipSync(readFileSync(join("public", url))).length;
const raw = (url: string) => readFileSync(join("public", url)).length;
let total = 0;
let totalRaw = 0;
const rows = [...files].map((url) => {
  const size = gzipped(url);
  total += size;
  totalRaw += raw(url);
  return { url, size };
});
rows.sort((a, b) => b.size - a.size);
for (const page of PAGES) console.info(`${page}: ${perPage[page].join(" > ")}`);
for (const { url, size } of rows) console.info(`${(size / 1000).toFixed(1).padStart(7)} kB  ${url}`);
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
console.info(
  `First-page JavaScript: ${kb(total)} gzipped (${kb(totalRaw)} raw, ${rows.length} files); budget ${kb(BUDGET_BYTES)}.`,
);
if (total > BUDGET_BYTES) fail(`Over budget by ${kb(total - BUDGET_BYTES)}.`);
