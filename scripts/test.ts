// `npm test`: lint, typecheck and build side by side (each takes mostly one core), then Vitest, then
// Playwright (the first failure stops the run, as `&&` would), then a table of each suite's time
// and the slowest test files, read from Vitest's and Playwright's JSON reports (data/test-report/).
// The budget and the rule for new tests are in docs/testing.md.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const REPORTS = "data/test-report";
const VITEST_TIMES = join(REPORTS, "vitest.json");
const PLAYWRIGHT_JSON = join(REPORTS, "playwright.json");
const SLOWEST = 15;

type Step = { name: string; command: string[]; env?: Record<string, string> };

/** The steps, in phases: a phase's steps run at the same time, and the next phase waits for them. */
const phases: Step[][] = [
  [
    { name: "lint", command: ["npm", "run", "lint"] },
    { name: "typecheck", command: ["npm", "run", "typecheck"] },
    { name: "build", command: ["npm", "run", "build"] },
  ],
  [
    {
      name: "vitest",
      command: ["npx", "vitest", "run", "--reporter=default", "--reporter=./tests/support/timing-reporter.ts"],
      env: { VITEST_TIMES },
    },
  ],
  // playwright.config.ts adds the JSON reporter when PLAYWRIGHT_JSON_OUTPUT_NAME is set.
  [
    {
      name: "playwright",
      command: ["npx", "playwright", "test"],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON },
    },
  ],
];

type FileTime = { file: string; project: string; ms: number };

type PlaywrightSuite = {
  file: string;
  specs: { tests: { projectName: string; results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
};

/** Playwright's JSON report: the time of every test's runs, summed by file and project. */
function playwrightFiles(report: { suites: PlaywrightSuite[] }): FileTime[] {
  const times = new Map<string, FileTime>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs) {
      for (const test of spec.tests) {
        const key = `${suite.file} ${test.projectName}`;
        const entry = times.get(key) ?? { file: join("tests/e2e", suite.file), project: test.projectName, ms: 0 };
        entry.ms += test.results.reduce((sum, r) => sum + r.duration, 0);
        times.set(key, entry);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return [...times.values()];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const readJson = (file: string) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

function table(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "),
  );
}

/** Runs a step, its output on the terminal; resolves with its time and whether it passed. */
function run(step: Step): Promise<{ name: string; ms: number; ok: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command[0]!, step.command.slice(1), {
      stdio: "inherit",
      env: { ...process.env, ...step.env },
    });
    const done = (ok: boolean) => resolve({ name: step.name, ms: Date.now() - started, ok });
    child.on("error", () => done(false));
    child.on("exit", (code) => done(code === 0));
  });
}

async function main() {
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const started = Date.now();
  const times: { name: string; ms: number; ok: boolean }[] = [];
  for (const phase of phases) {
    times.push(...(await Promise.all(phase.map(run))));
    if (times.some((t) => !t.ok)) break;
  }
  const failed = times.some((t) => !t.ok);

  const total = Date.now() - started;
  const lines = [
    "",
    "Time by suite:",
    ...table([
      ["suite", "time", "result"],
      ...times.map((t) => [t.name, seconds(t.ms), t.ok ? "ok" : "FAILED"]),
      // The run's own time: the first phase's steps overlap.
      ["total", seconds(total), failed ? "FAILED" : "ok"],
    ]),
  ];
  const vitest: FileTime[] | undefined = readJson(VITEST_TIMES);
  const playwright = readJson(PLAYWRIGHT_JSON);
  const files = [...(vitest ?? []), ...(playwright ? playwrightFiles(playwright) : [])];
  if (files.length) {
    lines.push(
      "",
      `The ${SLOWEST} slowest test files:`,
      ...table([
        ["file", "suite", "time"],
        ...files
          .sort((a, b) => b.ms - a.ms)
          .slice(0, SLOWEST)
          .map((f) => [f.file, f.project, seconds(f.ms)]),
      ]),
    );
  }
  console.log(lines.join("\n"));
  process.exit(failed ? 1 : 0);
}

void main();
