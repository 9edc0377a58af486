// The folder-cycle rule against fixture workspaces: folders of one package's src/ (its root files being the folder
// `src`) may not import each other in a circle, type-only imports included, tests left out; the per-package
// allowance list tolerates exactly the cycles it names and nothing else.
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { checkImports, type CheckImportsResult } from "../src/check-imports.js";
import { createFixtureWorkspace, removeFixtureWorkspace, type FixtureFiles } from "./fixture-workspace.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeFixtureWorkspace(root);
});

function check(
  overrides: FixtureFiles,
  allowedFolderCycles: Record<string, readonly string[]> = {},
): CheckImportsResult & { lines: string[] } {
  const root = createFixtureWorkspace(overrides);
  roots.push(root);
  const result = checkImports({ cwd: root, allowedFolderCycles });
  const lines = result.violations.map(
    (violation) =>
      `${path.relative(root, violation.file).split(path.sep).join("/")}:${violation.line} ${violation.rule} ${violation.message}`,
  );
  return { ...result, lines };
}

/** append/ imports lane/ and lane/ imports append/, through different files: no file cycle, one folder cycle. */
const APPEND_LANE_CYCLE: FixtureFiles = {
  "packages/core/src/append/run.ts": 'import { Lane } from "../lane/lane.js";\nexport const run = () => new Lane();\n',
  "packages/core/src/append/attempt.ts": "export class Attempt {}\n",
  "packages/core/src/lane/lane.ts": "export class Lane {}\n",
  "packages/core/src/lane/queue.ts":
    'import { Attempt } from "../append/attempt.js";\nexport const queue: Attempt[] = [];\n',
};

describe("folder cycles", () => {
  test("a cycle between two folders fails, named with one import per step, though no file cycle exists", () => {
    expect(check(APPEND_LANE_CYCLE).lines).toEqual([
      "packages/core/src/append/run.ts:1 no-folder-cycle folder cycle: src/append -> src/lane -> src/append " +
        "(src/append/run.ts:1 imports src/lane/lane.ts; src/lane/queue.ts:1 imports src/append/attempt.ts)",
    ]);
  });

  test("the same folders importing in one direction only pass", () => {
    expect(check({ ...APPEND_LANE_CYCLE, "packages/core/src/lane/queue.ts": undefined }).lines).toEqual([]);
  });

  test("a longer cycle is found, and each elementary cycle is reported once", () => {
    const lines = check({
      ...APPEND_LANE_CYCLE,
      "packages/core/src/lane/queue.ts": 'import { Head } from "../read/head.js";\nexport const queue: Head[] = [];\n',
      "packages/core/src/read/head.ts":
        'import type { Attempt } from "../append/attempt.js";\nexport type Head = { attempt?: Attempt };\n',
    }).lines;
    expect(lines).toEqual([
      expect.stringContaining("folder cycle: src/append -> src/lane -> src/read -> src/append ("),
    ]);
  });

  test("type-only imports count: a folder's types are part of what it offers", () => {
    const lines = check({
      ...APPEND_LANE_CYCLE,
      "packages/core/src/lane/queue.ts":
        'import type { Attempt } from "../append/attempt.js";\nexport const queue: Attempt[] = [];\n',
    }).lines;
    expect(lines).toEqual([expect.stringContaining("folder cycle: src/append -> src/lane -> src/append")]);
  });

  test("the files directly in src/ are one folder, `src`", () => {
    // The base fixture's core index.ts imports spi/; a spi/ file importing a root helper closes the cycle.
    const lines = check({
      "packages/core/src/helpers.ts": "export const helper = 1;\n",
      "packages/core/src/spi/uses-helper.ts": 'import { helper } from "../helpers.js";\nexport const used = helper;\n',
      "packages/core/src/spi/index.ts":
        'export { used } from "./uses-helper.js";\nexport type Spi = { lane?: unknown };\n',
    }).lines;
    expect(lines).toEqual([
      "packages/core/src/index.ts:2 no-folder-cycle folder cycle: src -> src/spi -> src " +
        "(src/index.ts:2 imports src/spi/index.ts; src/spi/uses-helper.ts:1 imports src/helpers.ts)",
    ]);
  });

  test("tests, test/ and bench/ are not part of the folder graph", () => {
    expect(
      check({
        ...APPEND_LANE_CYCLE,
        "packages/core/src/lane/queue.ts": undefined,
        "packages/core/src/lane/lane.test.ts":
          'import { Attempt } from "../append/attempt.js";\nexport const used = Attempt;\n',
      }).lines,
    ).toEqual([]);
  });
});

describe("allowed folder cycles", () => {
  test("a listed cycle passes, written in any rotation", () => {
    expect(check(APPEND_LANE_CYCLE, { "@nereus/core": ["src/lane -> src/append -> src/lane"] }).lines).toEqual([]);
  });

  test("a new cycle fails even when the package has allowed ones, and a listed cycle only covers its own package", () => {
    const files: FixtureFiles = {
      ...APPEND_LANE_CYCLE,
      "packages/core/src/read/head.ts": 'import { run } from "../append/run.js";\nexport const head = run;\n',
      "packages/core/src/append/attempt.ts":
        'import type { Head } from "../read/head.js";\nexport class Attempt { head?: typeof Head; }\n',
      "packages/kafka/src/log/log.ts": 'import { Topic } from "../topics/topic.js";\nexport const log = Topic;\n',
      "packages/kafka/src/topics/topic.ts":
        'import type { log } from "../log/log.js";\nexport class Topic { log?: typeof log; }\n',
    };
    const allowed = {
      "@nereus/core": ["src/append -> src/lane -> src/append"],
      "@nereus/cursor": ["src/log -> src/topics -> src/log"],
    };
    expect(check(files, allowed).lines).toEqual([
      expect.stringMatching(
        /^packages\/core\/src\/append\/attempt\.ts:1 no-folder-cycle folder cycle: src\/append -> src\/read -> src\/append /,
      ),
      expect.stringMatching(
        /^packages\/kafka\/src\/log\/log\.ts:1 no-folder-cycle folder cycle: src\/log -> src\/topics -> src\/log /,
      ),
    ]);
  });

  test("a listed cycle that no longer exists is returned, so the list can shrink", () => {
    const result = check({}, { "@nereus/core": ["src/append -> src/lane -> src/append"] });
    expect(result.lines).toEqual([]);
    expect(result.unusedFolderCycleAllowances).toEqual(["@nereus/core: src/append -> src/lane -> src/append"]);
  });

  test("a listed cycle that is not a closed path is a configuration error", () => {
    expect(() => check({}, { "@nereus/core": ["src/append -> src/lane"] })).toThrow(/not a closed folder path/);
  });
});
