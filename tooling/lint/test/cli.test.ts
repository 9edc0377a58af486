// The `nereus-lint` command end to end on fixture packages: ESLint house rules, import rules and publint in one
// run, `file:line rule message` output, and the exit code.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { main } from "../src/cli.js";
import { createFixtureWorkspace, manifest, removeFixtureWorkspace, type FixtureFiles } from "./fixture-workspace.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeFixtureWorkspace(root);
});

function fixture(overrides: FixtureFiles): string {
  const root = createFixtureWorkspace(overrides);
  roots.push(root);
  return root;
}

async function run(argv: string[], cwd: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const output = { out: (text: string) => lines.push(...text.split("\n")), error: (text: string) => lines.push(text) };
  const code = await main(argv, cwd, output);
  return { code, lines };
}

const HOUSE_RULE_BREAKS: FixtureFiles = {
  "packages/core/src/default-export.ts": "export default function createLane() {\n  return 1;\n}\n",
  "packages/core/src/unused.ts":
    "const unused = 1;\nconst _ignored = 2;\nexport const used = (_argument: number) => 1;\n",
  "packages/core/src/type-import.ts": 'import { Lane } from "./spi/lane.js";\nexport let lane: Lane | undefined;\n',
  "packages/core/src/leak.ts": 'import { store } from "@nereus/metadata";\nexport const leaked = store;\n',
};

describe("nereus-lint in a package directory", () => {
  test("reports ESLint house rules and import rules as file:line rule message, and fails", async () => {
    const root = fixture(HOUSE_RULE_BREAKS);
    const { code, lines } = await run([], path.join(root, "packages/core"));
    expect(code).toBe(1);
    expect(lines).toEqual([
      "src/default-export.ts:1 no-restricted-syntax No default exports: export a named binding (STYLE.md).",
      "src/leak.ts:1 import-direction @nereus/core may not import @nereus/metadata: core imports no other workspace package",
      "src/type-import.ts:1 @typescript-eslint/consistent-type-imports All imports in the declaration are only used as types. Use `import type`.",
      "src/unused.ts:1 @typescript-eslint/no-unused-vars 'unused' is assigned a value but never used. Allowed unused vars must match /^_/u.",
      expect.stringMatching(
        /^nereus-lint @nereus\/core: 4 errors, 0 warnings \(eslint \d+ files; imports \d+ files; publint skipped: dist\/ is missing/,
      ),
    ]);
  });

  test("a clean package passes; config and declaration files may default-export; publint is skipped without dist", async () => {
    const root = fixture({
      "packages/core/src/types/untyped.d.ts":
        'declare module "untyped" {\n  const value: number;\n  export default value;\n}\n',
    });
    expect(fs.existsSync(path.join(root, "packages/core/vitest.config.ts"))).toBe(true);
    const { code, lines } = await run([], path.join(root, "packages/core"));
    expect(lines).toEqual([
      expect.stringMatching(/^nereus-lint @nereus\/core: ok \(.*publint skipped: dist\/ is missing/),
    ]);
    expect(code).toBe(0);
  });

  test("--fix rewrites type-only imports", async () => {
    const root = fixture({ "packages/core/src/type-import.ts": HOUSE_RULE_BREAKS["packages/core/src/type-import.ts"] });
    const { code } = await run(["--fix"], path.join(root, "packages/core"));
    expect(code).toBe(0);
    expect(fs.readFileSync(path.join(root, "packages/core/src/type-import.ts"), "utf8")).toContain(
      'import type { Lane } from "./spi/lane.js";',
    );
  });

  test("runs publint on a built publishable package", async () => {
    const root = fixture({
      // No workspace dependencies: `pnpm pack` cannot resolve `workspace:*` in an uninstalled fixture.
      "packages/core/package.json": manifest("@nereus/core", { testing: true }),
      "packages/core/dist/index.js": "export class ByteReader {}\n",
      "packages/core/dist/index.d.ts": "export declare class ByteReader {}\n",
    });
    const { code, lines } = await run(["--no-eslint", "--no-imports"], path.join(root, "packages/core"));
    expect(code).toBe(1);
    expect(lines.filter((line) => line.includes("publint/"))).toEqual([
      expect.stringMatching(
        /^package\.json:\d+ publint\/FILE_DOES_NOT_EXIST pkg\.publishConfig\.exports\["\.\/testing"\]\.types is/,
      ),
      expect.stringMatching(
        /^package\.json:\d+ publint\/FILE_DOES_NOT_EXIST pkg\.publishConfig\.exports\["\.\/testing"\]\.default is/,
      ),
    ]);
  });

  test("skips publint and attw for private packages", async () => {
    const root = fixture({});
    const { lines } = await run(["--no-eslint", "--no-imports"], path.join(root, "apps/broker"));
    expect(lines).toEqual([
      "nereus-lint @nereus/broker: ok (publint skipped: private package; attw skipped: private package)",
    ]);
  });
});

describe("nereus-lint at the workspace root", () => {
  test("checks the import rules of every package", async () => {
    const root = fixture({ "packages/kafka/src/storage.ts": 'export { ObjectWal } from "@nereus/object-wal";\n' });
    const { code, lines } = await run(["--no-knip", "--no-format"], root);
    expect(code).toBe(1);
    expect(lines).toEqual([
      "packages/kafka/src/storage.ts:1 import-direction @nereus/kafka may not import @nereus/object-wal: adapters import @nereus/core and @nereus/cursor only; the broker injects concrete providers",
      expect.stringMatching(
        /^nereus-lint workspace: 1 error, 0 warnings \(imports 10 packages \/ \d+ files; publishing fields checked; Dockerfile checked\)$/,
      ),
    ]);
  });

  test("reports sources Prettier would reformat, and only those", async () => {
    const root = fixture({
      ".prettierrc.json": '{ "printWidth": 120 }\n',
      "packages/core/src/untidy.ts": "export const   value = {a:1}\n",
      "packages/core/src/tidy.ts": "export const value = { a: 1 };\n",
    });
    const { code, lines } = await run(["--no-knip"], root);
    expect(code).toBe(1);
    expect(lines).toContain(
      "packages/core/src/untidy.ts:1 prettier/format not formatted (run `pnpm format` at the repository root)",
    );
    expect(lines.some((line) => line.startsWith("packages/core/src/tidy.ts"))).toBe(false);
  });
});

describe("the bin", () => {
  test("runs the TypeScript sources without a build and exits non-zero on errors", async () => {
    const root = fixture(HOUSE_RULE_BREAKS);
    const bin = path.resolve(import.meta.dirname, "../bin/nereus-lint.mjs");
    const failure = await promisify(execFile)(process.execPath, [bin], { cwd: path.join(root, "packages/core") }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain("src/leak.ts:1 import-direction @nereus/core may not import @nereus/metadata");
  });
});
