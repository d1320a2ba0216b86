// Writes the performance tables of docs/performance.md from the bench's results
// (bench/results/bare.json of `npm run bench -- --only bare`, bench/results/latest.json of
// `npm run bench`): each table sits between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`
// and is replaced whole; a table whose results file is missing is left as it is.
//
//   npm run bench -- --only bare && npm run bench:doc
import { existsSync, readFileSync, writeFileSync } from "node:fs";

type Case = {
  name: string;
  requests_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  server_cpu_ms_per_req: number;
  errors: number;
  non_2xx: number;
};
type Check = { budget: string; holds: boolean; measured: string };
type Results = {
  date: string;
  machine: { nproc: number; cpu: string; node: string; server_processes: number };
  load_before: string;
  load_after?: string;
  options: { connections: number; duration_s: number; warmup_s: number };
  data?: { opportunities?: number };
  cases: Case[];
  checks: Check[];
  ratio_app_over_bare?: number;
};

const DOC = "docs/performance.md";
const number = (n: number, digits = 0) =>
  n.toLocaleString("pt-BR", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(results: Results) {
  const when = new Date(results.date).toISOString().slice(0, 16).replace("T", " ");
  const m = results.machine;
  const lines = [
    `Gerada de \`bench/results\` em ${when} UTC: ${m.nproc} núcleos (${m.cpu}), Node ${m.node}, ` +
      `${m.server_processes} processo(s) do servidor, ${number(results.data?.opportunities ?? 0)} oportunidades, ` +
      `${results.options.connections} conexões, ${results.options.duration_s} s por caso após ` +
      `${results.options.warmup_s} s de aquecimento; carga da máquina ${results.load_before} antes` +
      (results.load_after ? `, ${results.load_after} depois` : "") +
      ".",
    "",
    "| caso | req/s | p50 ms | p99 ms | CPU ms/req | erros + não-2xx |",
    "|---|---|---|---|---|---|",
    ...results.cases.map(
      (c) =>
        `| ${c.name} | ${number(c.requests_per_sec)} | ${number(c.p50_ms)} | ${number(c.p99_ms)} | ` +
        `${number(c.server_cpu_ms_per_req, 3)} | ${c.errors + c.non_2xx} |`,
    ),
    "",
    "| meta | medido | atingida |",
    "|---|---|---|",
    ...results.checks.map((c) => `| ${c.budget} | ${c.measured} | ${c.holds ? "sim" : "**não**"} |`),
  ];
  return lines.join("\n");
}

let doc = readFileSync(DOC, "utf8");
for (const [name, file] of [
  ["bare", "bench/results/bare.json"],
  ["all", "bench/results/latest.json"],
] as const) {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const at = doc.indexOf(start);
  const until = doc.indexOf(end);
  if (at < 0 || until < at) throw new Error(`${DOC}: no ${start} … ${end}`);
  if (!existsSync(file)) {
    console.log(`${file} missing: table "${name}" left as it is`);
    continue;
  }
  const results = JSON.parse(readFileSync(file, "utf8")) as Results;
  doc = `${doc.slice(0, at + start.length)}\n${table(results)}\n${doc.slice(until)}`;
  console.log(`table "${name}" written from ${file}`);
}
writeFileSync(DOC, doc);
