// The ESLint flat config every Nereus package is linted with: @eslint/js recommended + typescript-eslint
// recommended (syntax only, no type information, so a package lints in seconds) plus the house rules of
// STYLE.md that a syntax check can see. It does not decide which files are linted; run-eslint.ts does.
import js from "@eslint/js";
import { defineConfig, type Config } from "eslint/config";
import tseslint from "typescript-eslint";

const SOURCE_FILES = ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"];
const JAVASCRIPT_FILES = ["**/*.{js,jsx,mjs,cjs}"];
/**
 * Exempt from "no default exports": tool config files (vitest, tsup and eslint read a default export) and
 * hand-written declaration files, which describe third-party modules as they are.
 */
const DEFAULT_EXPORT_ALLOWED = ["**/*.config.{ts,mts,cts,js,mjs,cjs}", "**/*.d.{ts,mts,cts}"];

/** Globals of Node.js 20 that plain JavaScript files (bin scripts) may use; TypeScript files get them from types. */
const NODE_GLOBALS = Object.fromEntries(
  [
    "AbortController",
    "AbortSignal",
    "Buffer",
    "TextDecoder",
    "TextEncoder",
    "URL",
    "URLSearchParams",
    "clearImmediate",
    "clearInterval",
    "clearTimeout",
    "console",
    "fetch",
    "performance",
    "process",
    "queueMicrotask",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "structuredClone",
  ].map((name) => [name, "readonly" as const]),
);

const NO_DEFAULT_EXPORT = "No default exports: export a named binding (STYLE.md).";

export function createEslintConfig(): Config[] {
  return defineConfig(
    { ignores: ["**/dist/**", "**/.tsbuild/**", "**/coverage/**", "**/node_modules/**"] },
    { files: SOURCE_FILES, extends: [js.configs.recommended, tseslint.configs.recommended] },
    {
      files: SOURCE_FILES,
      linterOptions: { reportUnusedDisableDirectives: "error" },
      languageOptions: { ecmaVersion: "latest", sourceType: "module" },
      rules: {
        "@typescript-eslint/no-unused-vars": [
          "error",
          {
            args: "after-used",
            argsIgnorePattern: "^_",
            varsIgnorePattern: "^_",
            caughtErrorsIgnorePattern: "^_",
            destructuredArrayIgnorePattern: "^_",
            ignoreRestSiblings: true,
          },
        ],
        "@typescript-eslint/consistent-type-imports": [
          "error",
          { prefer: "type-imports", fixStyle: "separate-type-imports" },
        ],
        "no-restricted-syntax": [
          "error",
          { selector: "ExportDefaultDeclaration", message: NO_DEFAULT_EXPORT },
          { selector: "ExportSpecifier[exported.name='default']", message: NO_DEFAULT_EXPORT },
          { selector: "TSExportAssignment", message: NO_DEFAULT_EXPORT },
        ],
      },
    },
    { files: JAVASCRIPT_FILES, languageOptions: { globals: NODE_GLOBALS } },
    { files: DEFAULT_EXPORT_ALLOWED, rules: { "no-restricted-syntax": "off" } },
  );
}
