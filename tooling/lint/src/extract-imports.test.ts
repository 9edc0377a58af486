import { expect, test } from "vitest";
import { extractImports } from "./extract-imports.js";

test("finds every static, re-export, dynamic, require and type-level reference with its line", () => {
  const source = [
    'import { a } from "./a.js";',
    'import type { B } from "./b.js";',
    'import "./side-effect.js";',
    'export { c } from "./c.js";',
    'export type { D } from "./d.js";',
    'export * from "./e.js";',
    'import f = require("./f.js");',
    "export async function load() {",
    '  const g = await import("./g.js");',
    "  const h = await import(`./h.js`);",
    "  const computed = await import(name);",
    '  return [g, h, computed, require("./i.cjs")];',
    "}",
    'export type J = typeof import("./j.js");',
    "declare const name: string; declare function require(id: string): unknown; void a; void f;",
  ].join("\n");
  expect(extractImports("file.ts", source)).toEqual([
    { specifier: "./a.js", line: 1, kind: "import", typeOnly: false },
    { specifier: "./b.js", line: 2, kind: "import", typeOnly: true },
    { specifier: "./side-effect.js", line: 3, kind: "import", typeOnly: false },
    { specifier: "./c.js", line: 4, kind: "export", typeOnly: false },
    { specifier: "./d.js", line: 5, kind: "export", typeOnly: true },
    { specifier: "./e.js", line: 6, kind: "export", typeOnly: false },
    { specifier: "./f.js", line: 7, kind: "require", typeOnly: false },
    { specifier: "./g.js", line: 9, kind: "dynamic", typeOnly: false },
    { specifier: "./h.js", line: 10, kind: "dynamic", typeOnly: false },
    { specifier: "./i.cjs", line: 12, kind: "require", typeOnly: false },
    { specifier: "./j.js", line: 14, kind: "type-reference", typeOnly: true },
  ]);
});

test("an inline `type` specifier keeps the import at runtime (verbatimModuleSyntax)", () => {
  expect(extractImports("file.ts", 'import { type A } from "./a.js";')).toEqual([
    { specifier: "./a.js", line: 1, kind: "import", typeOnly: false },
  ]);
});

test("parses plain JavaScript and ignores specifiers in strings and comments", () => {
  const source = '// import "./commented.js"\nconst text = "import(\'./quoted.js\')";\nimport { x } from "./x.mjs";\n';
  expect(extractImports("bin.mjs", source).map((record) => record.specifier)).toEqual(["./x.mjs"]);
});
