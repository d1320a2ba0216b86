// The order Vitest hands out test files: the server project's first. Its files are the longest
// (a production build, its databases and load: 10–65 s each, ~340 s in all) and Vitest's own
// order runs the projects by name, which put them after the ~280 files of `app` and `app-pg`,
// so the run ended with two long files and nothing to share the cores with. Started first, the
// short files fill the cores around them. Within each project, Vitest's order stays.
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class ServerFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const server = (spec: TestSpecification) => spec.project.name === "server";
    return [...sorted.filter(server), ...sorted.filter((spec) => !server(spec))];
  }
}
