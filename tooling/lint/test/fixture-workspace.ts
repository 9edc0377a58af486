// Builds small pnpm workspaces in a temp directory for the import-rule and CLI tests. The base workspace has
// every package of docs/architecture.md §2 and uses each import the rules allow, so it must lint clean; a test adds or
// replaces files to break one rule.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type FixtureFiles = Record<string, string | undefined>;

export interface ManifestOptions {
  readonly dependencies?: readonly string[];
  readonly devDependencies?: readonly string[];
  readonly private?: boolean;
  readonly testing?: boolean;
  /** More exported subpaths, each mapped to `./src/<name>.ts` (`"./vitest"`). */
  readonly subpaths?: readonly string[];
}

/**
 * A package.json text. A published (non-private) package carries the publishing fields docs/releasing.md asks for
 * and gives its dependencies as `workspace:^`; other workspace dependencies are written as `workspace:*`.
 */
export function manifest(name: string, options: ManifestOptions = {}): string {
  const exportsMap: Record<string, unknown> = {
    ".": { "@nereus/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
  };
  if (options.testing) {
    exportsMap["./testing"] = {
      "@nereus/source": "./src/testing/index.ts",
      types: "./dist/testing/index.d.ts",
      default: "./dist/testing/index.js",
    };
  }
  for (const subpath of options.subpaths ?? []) exportsMap[subpath] = `./src/${subpath.slice(2)}.ts`;
  exportsMap["./package.json"] = "./package.json";
  const asMap = (names: readonly string[] | undefined, range: string) =>
    names === undefined ? undefined : Object.fromEntries(names.map((dependency) => [dependency, range]));
  const published = options.private !== true;
  return `${JSON.stringify(
    {
      name,
      version: "0.1.0",
      ...(published ? publishingFields(name, exportsMap) : { private: true }),
      type: "module",
      exports: exportsMap,
      dependencies: asMap(options.dependencies, published ? "workspace:^" : "workspace:*"),
      devDependencies: asMap(options.devDependencies, "workspace:*"),
    },
    null,
    2,
  )}\n`;
}

/** The fields a published package of the fixture carries (it lives in packages/<name without scope>). */
function publishingFields(name: string, exportsMap: Record<string, unknown>): Record<string, unknown> {
  const repository = "https://example.org/nereus";
  const withoutSource = Object.fromEntries(
    Object.entries(exportsMap).map(([subpath, target]) => [
      subpath,
      typeof target === "object" && target !== null
        ? Object.fromEntries(Object.entries(target).filter(([condition]) => condition !== "@nereus/source"))
        : target,
    ]),
  );
  return {
    license: "Apache-2.0",
    repository: { type: "git", url: `git+${repository}.git`, directory: `packages/${name.replace(/^@nereus\//, "")}` },
    homepage: repository,
    bugs: { url: `${repository}/issues` },
    files: ["dist", "README.md", "LICENSE", "CHANGELOG.md"],
    publishConfig: { access: "public", exports: withoutSource },
  };
}

/** The LICENSE text of the fixture, at its root and beside each published package. */
export const FIXTURE_LICENSE = "Apache License, Version 2.0 (fixture)\n";

const DEV = ["@nereus/test-services", "@nereus/tooling-config"];
const LIBRARIES = [
  "@nereus/core",
  "@nereus/metadata",
  "@nereus/object-wal",
  "@nereus/bookkeeper",
  "@nereus/cursor",
  "@nereus/kafka",
  "@nereus/pulsar",
];

export const BASE_WORKSPACE: FixtureFiles = {
  "pnpm-workspace.yaml": "packages:\n  - packages/*\n  - apps/*\n  - tooling/*\n",
  LICENSE: FIXTURE_LICENSE,
  ...Object.fromEntries(
    LIBRARIES.map((name) => [`packages/${name.replace(/^@nereus\//, "")}/LICENSE`, FIXTURE_LICENSE]),
  ),

  "packages/core/package.json": manifest("@nereus/core", { testing: true, devDependencies: DEV }),
  "packages/core/src/index.ts":
    'export { ByteReader } from "./bytes/byte-reader.js";\nexport * from "./spi/index.js";\n',
  "packages/core/src/bytes/byte-reader.ts": "export class ByteReader {}\n",
  // A type-only back edge: not a runtime cycle.
  "packages/core/src/spi/index.ts":
    'import type { Lane } from "./lane.js";\nexport type Spi = { lane?: Lane };\nexport { Lane } from "./lane.js";\n',
  "packages/core/src/spi/lane.ts": 'import type { Spi } from "./index.js";\nexport class Lane { spi?: Spi; }\n',
  "packages/core/src/testing/index.ts":
    'import { ByteReader } from "@nereus/core";\nexport const fake = new ByteReader();\n',
  "packages/core/src/index.test.ts":
    'import { fake } from "@nereus/core/testing";\nimport { startServices } from "@nereus/test-services";\nexport const used = [fake, startServices];\n',
  "packages/core/vitest.config.ts":
    'import { defineNereusVitestConfig } from "@nereus/tooling-config/vitest";\nexport default defineNereusVitestConfig();\n',

  "packages/metadata/package.json": manifest("@nereus/metadata", {
    dependencies: ["@nereus/core"],
    devDependencies: DEV,
  }),
  "packages/metadata/src/index.ts":
    'import { ByteReader } from "@nereus/core";\nimport type { Spi } from "@nereus/core";\nexport const store: Spi = { lane: undefined };\nexport const reader = new ByteReader();\n',
  "packages/metadata/test/etcd.integration.test.ts":
    'import { fake } from "@nereus/core/testing";\nimport { startServices } from "@nereus/test-services";\nimport { store } from "../src/index.js";\nexport const used = [fake, startServices, store];\n',

  "packages/object-wal/package.json": manifest("@nereus/object-wal", { dependencies: ["@nereus/core"], testing: true }),
  "packages/object-wal/src/index.ts": 'export { ObjectWal } from "./object-wal.js";\n',
  "packages/object-wal/src/object-wal.ts":
    'import { ByteReader } from "@nereus/core";\nexport class ObjectWal { reader = new ByteReader(); }\n',
  "packages/object-wal/src/testing/index.ts": 'export { fake } from "@nereus/core/testing";\n',

  "packages/bookkeeper/package.json": manifest("@nereus/bookkeeper", { dependencies: ["@nereus/core"] }),
  "packages/bookkeeper/src/index.ts": 'export const ledger = async () => (await import("@nereus/core")).ByteReader;\n',

  "packages/cursor/package.json": manifest("@nereus/cursor", { dependencies: ["@nereus/core"] }),
  "packages/cursor/src/index.ts":
    'import { ByteReader } from "@nereus/core";\nexport class Cursor { reader = new ByteReader(); }\n',

  "packages/kafka/package.json": manifest("@nereus/kafka", {
    dependencies: ["@nereus/core", "@nereus/cursor"],
    devDependencies: DEV,
  }),
  "packages/kafka/src/index.ts":
    'import { Cursor } from "@nereus/cursor";\nimport { decodeProduce } from "./protocol/index.js";\nexport const handler = { Cursor, decodeProduce };\n',
  "packages/kafka/src/protocol/index.ts": 'export { decodeProduce } from "./produce/v9.js";\n',
  "packages/kafka/src/protocol/produce/v9.ts":
    'import { ByteReader } from "@nereus/core";\nimport { readString } from "../primitives.js";\nexport const decodeProduce = () => readString(new ByteReader());\n',
  "packages/kafka/src/protocol/primitives.ts":
    'import type { ByteReader } from "@nereus/core";\nexport const readString = (_reader: ByteReader) => "";\n',
  // Tests beside codecs may use the test runner; only shipped codec files are held to the codec rule.
  "packages/kafka/src/protocol/produce/v9.test.ts":
    'import { test } from "vitest";\nimport { fake } from "@nereus/core/testing";\nimport { decodeProduce } from "./v9.js";\ntest("decodes", () => { decodeProduce(); void fake; });\n',
  "packages/kafka/test/kafkajs.integration.test.ts": 'import { Kafka } from "kafkajs";\nexport const client = Kafka;\n',

  "packages/pulsar/package.json": manifest("@nereus/pulsar", { dependencies: ["@nereus/core", "@nereus/cursor"] }),
  "packages/pulsar/src/index.ts": 'export * from "./protocol/commands.js";\nexport { Cursor } from "@nereus/cursor";\n',
  "packages/pulsar/src/protocol/commands.ts":
    'import { ByteReader } from "@nereus/core";\nexport const readCommand = () => new ByteReader();\n',

  "apps/broker/package.json": manifest("@nereus/broker", {
    private: true,
    dependencies: LIBRARIES,
    devDependencies: DEV,
  }),
  "apps/broker/src/main.ts": `${LIBRARIES.map((name, index) => `import * as library${index} from "${name}";`).join("\n")}\nexport const all = [${LIBRARIES.map((_, index) => `library${index}`).join(", ")}];\nexport const lazy = () => import("@nereus/kafka");\n`,

  "tooling/services/package.json": manifest("@nereus/test-services", { private: true }),
  "tooling/services/src/index.ts": "export const startServices = () => undefined;\n",
  "tooling/config/package.json": manifest("@nereus/tooling-config", {
    private: true,
    dependencies: ["@nereus/test-services"],
    subpaths: ["./vitest"],
  }),
  "tooling/config/src/index.ts":
    'import { startServices } from "@nereus/test-services";\nexport const config = startServices;\n',
  "tooling/config/src/vitest.ts": "export const defineNereusVitestConfig = () => ({});\n",
};

/** Writes `files` (base workspace merged with overrides; `undefined` deletes a base file) into a new temp dir. */
export function createFixtureWorkspace(overrides: FixtureFiles = {}, base: FixtureFiles = BASE_WORKSPACE): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-lint-"));
  for (const [file, text] of Object.entries({ ...base, ...overrides })) {
    if (text === undefined) continue;
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return root;
}

/** 1-based line of the first occurrence of `needle` after `after` in `text`. */
export function lineOf(text: string, needle: string, after = ""): number {
  const start = text.indexOf(after);
  const index = text.indexOf(needle, Math.max(start, 0));
  if (index < 0) throw new Error(`${needle} not found`);
  return text.slice(0, index).split("\n").length;
}

export function removeFixtureWorkspace(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}
