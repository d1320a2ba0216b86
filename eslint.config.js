import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Imports one layer may not make (no-restricted-imports patterns, matched on the import's text). */
const LAYERS = {
  db: {
    regex: "^((\\.\\./)+db(/.*)?|kysely|better-sqlite3|pg)$",
    message: "A route reaches the database only through a service (app/services).",
  },
  web: {
    regex: "^(~/|(\\.\\./)+)web(/.*)?$",
    message: "A service never sees the web layer (app/web): take typed input from the caller.",
  },
  server: {
    regex: "\\.server(\\.tsx?)?$",
    // Types only are erased from the browser's bundle: a component may name what a service returns.
    allowTypeImports: true,
    message: "Browser code never imports a .server module: pass the data through the loader.",
  },
};

export default tseslint.config(
  {
    ignores: ["build/", "public/build/", "data/", "backups/", "test-results/", "playwright-report/", "bench/results/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // No unused locals or parameters; a name starting with "_" marks one kept on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "all",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
      "prefer-const": ["error", { destructuring: "all" }],
    },
  },
  {
    // Migrations take Kysely<any> (they run against whatever schema came before them), and tests
    // read JSON bodies of any shape.
    files: ["migrations/**", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Choice labels hold their text a few elements down (label > span > strong).
      "jsx-a11y/label-has-associated-control": ["error", { depth: 3 }],
    },
  },
  // The layers (docs/architecture.md): pages and API declarations reach the database only through
  // a service; services never see the web layer; what runs in the browser never imports server code.
  {
    files: ["app/routes/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [LAYERS.db] }] },
  },
  {
    files: ["app/services/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [LAYERS.web] }] },
  },
  {
    files: ["app/components/**", "app/lib/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [LAYERS.server] }] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two classic rules; the plugin's React Compiler checks do not apply (no compiler here).
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // A function a reader can hold in mind: a longer page is split into named sections.
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
);
