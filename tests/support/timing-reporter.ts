// A Vitest reporter for `npm test` (scripts/test.ts): writes each test file's time, by project,
// to the file named by VITEST_TIMES (set up, import and tests, as a file costs the run).
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out = process.env.VITEST_TIMES;
    if (!out) return;
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: relative(process.cwd(), m.moduleId),
        project: m.project.name,
        ms: Math.round(
          d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
        ),
      };
    });
    writeFileSync(out, JSON.stringify(files));
  }
}
