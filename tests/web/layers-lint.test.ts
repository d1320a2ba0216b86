import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The layering rule of eslint.config.js (docs/architecture.md): the project's own configuration,
// run on a line of code as if it were in each layer's folder.
const eslint = new ESLint();

async function layerErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

describe("the layers lint rule", () => {
  // The first run loads the configuration and its plugins (seconds on a busy machine).
  beforeAll(() => eslint.lintText("", { filePath: "app/lib/x.ts" }), 60_000);

  const refused: [string, string, RegExp][] = [
    [
      "app/routes/_account+/x.tsx",
      'import { db as x } from "../../../db";',
      /reaches the database only through a service/,
    ],
    ["app/routes/healthz.ts", 'import { sql as x } from "kysely";', /only through a service/],
    ["app/routes/api+/x.ts", 'import type { UserRow as x } from "../../../db/schema";', /only through a service/],
    [
      "app/services/accounts/x.server.ts",
      'import { requireUser as x } from "~/web/auth.server";',
      /never sees the web layer/,
    ],
    [
      "app/services/accounts/x.server.ts",
      'import { json as x } from "../../web/errors.server";',
      /never sees the web layer/,
    ],
    [
      "app/components/ui/x.tsx",
      'import { getUser as x } from "~/services/accounts/users.server";',
      /never imports a \.server module/,
    ],
    ["app/lib/x.ts", 'import { config as x } from "~/config.server";', /never imports a \.server module/],
  ];
  it.each(refused)("refuses in %s: %s", async (file, code, message) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  const allowed: [string, string][] = [
    ["app/routes/_account+/x.tsx", 'import { getUser as x } from "~/services/accounts/users.server";'],
    ["app/routes/_account+/x.tsx", 'import { requireUser as x } from "~/web/auth.server";'],
    ["app/services/accounts/x.server.ts", 'import { db as x } from "../../../db";'],
    ["app/web/x.server.ts", 'import type { UserRow as x } from "../../db/schema";'],
    // Types are erased from the browser's bundle.
    ["app/components/ui/x.tsx", 'import type { UserJson as x } from "~/services/accounts/users.server";'],
    ["app/components/ui/x.tsx", 'import { formatMoney as x } from "~/lib/money";'],
  ];
  it.each(allowed)("allows in %s: %s", async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
