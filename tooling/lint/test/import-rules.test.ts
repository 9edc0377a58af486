// The workspace import rules (docs/architecture.md §2) against fixture workspaces: the base fixture uses every
// allowed import and must be clean; each test breaks one rule and expects it reported at the right place.
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { checkImports } from "../src/check-imports.js";
import type { Violation } from "../src/report.js";
import {
  BASE_WORKSPACE,
  createFixtureWorkspace,
  lineOf,
  manifest,
  removeFixtureWorkspace,
  type FixtureFiles,
} from "./fixture-workspace.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeFixtureWorkspace(root);
});

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly message: string;
}

function check(overrides: FixtureFiles, packageDir?: string): Finding[] {
  const root = createFixtureWorkspace(overrides);
  roots.push(root);
  const result = checkImports({
    cwd: root,
    ...(packageDir === undefined ? {} : { packageDir: path.join(root, packageDir) }),
  });
  return result.violations.map((violation: Violation) => ({
    file: path.relative(root, violation.file).split(path.sep).join("/"),
    line: violation.line,
    rule: violation.rule,
    message: violation.message,
  }));
}

function brief(findings: readonly Finding[]): string[] {
  return findings.map((finding) => `${finding.file}:${finding.line} ${finding.rule}`);
}

describe("allowed imports", () => {
  test("the base workspace, which uses every allowed kind of import, has no violations", () => {
    expect(check({})).toEqual([]);
  });
});

describe("direction between packages", () => {
  test("core may not import a provider, in any import form", () => {
    const findings = check({
      "packages/core/src/leak.ts": [
        'import { store } from "@nereus/metadata";',
        'import type { ObjectWal } from "@nereus/object-wal";',
        'export { Cursor } from "@nereus/cursor";',
        'export const lazy = () => import("@nereus/bookkeeper");',
        "export const used: [typeof store, ObjectWal?] = [store];",
      ].join("\n"),
    });
    expect(brief(findings)).toEqual([
      "packages/core/src/leak.ts:1 import-direction",
      "packages/core/src/leak.ts:2 import-direction",
      "packages/core/src/leak.ts:3 import-direction",
      "packages/core/src/leak.ts:4 import-direction",
    ]);
    expect(findings[0]!.message).toBe(
      "@nereus/core may not import @nereus/metadata: core imports no other workspace package",
    );
  });

  test("core may not import protocol client libraries", () => {
    const findings = check({
      "packages/core/src/leak.ts": 'import { Kafka } from "kafkajs";\nexport const k = Kafka;\n',
    });
    expect(brief(findings)).toEqual(["packages/core/src/leak.ts:1 no-protocol-library"]);
  });

  test("a provider may import neither another provider nor an adapter", () => {
    const findings = check({
      "packages/object-wal/src/materialize.ts":
        'import { ledger } from "@nereus/bookkeeper";\nexport const read = ledger;\n',
      "packages/bookkeeper/src/kafka.ts": 'import { handler } from "@nereus/kafka";\nexport const h = handler;\n',
    });
    expect(brief(findings)).toEqual([
      "packages/bookkeeper/src/kafka.ts:1 import-direction",
      "packages/object-wal/src/materialize.ts:1 import-direction",
    ]);
    expect(findings[1]!.message).toContain("providers import @nereus/core only");
  });

  test("an adapter may not import a concrete provider", () => {
    const findings = check({
      "packages/kafka/src/storage.ts":
        'import { ObjectWal } from "@nereus/object-wal";\nexport const wal = ObjectWal;\n',
    });
    expect(brief(findings)).toEqual(["packages/kafka/src/storage.ts:1 import-direction"]);
    expect(findings[0]!.message).toContain("the broker injects concrete providers");
  });

  test("cursor imports core only", () => {
    const findings = check({
      "packages/cursor/src/bad.ts": 'import { store } from "@nereus/metadata";\nexport const s = store;\n',
    });
    expect(brief(findings)).toEqual(["packages/cursor/src/bad.ts:1 import-direction"]);
  });

  test("a package.json dependency against the direction is reported at its line", () => {
    const text = manifest("@nereus/metadata", {
      dependencies: ["@nereus/core", "@nereus/bookkeeper"],
      devDependencies: ["@nereus/test-services", "@nereus/tooling-config"],
    });
    const findings = check({ "packages/metadata/package.json": text });
    expect(findings).toEqual([
      {
        file: "packages/metadata/package.json",
        line: lineOf(text, '"@nereus/bookkeeper"'),
        rule: "forbidden-dependency",
        message:
          "dependencies lists @nereus/bookkeeper: @nereus/metadata may not import @nereus/bookkeeper: " +
          "providers import @nereus/core only: never each other, never cursor or adapters",
      },
    ]);
  });
});

describe("protocol codecs", () => {
  test("src/protocol may import only files inside it, @nereus/core and the protobuf wire primitives", () => {
    const findings = check({
      "packages/kafka/src/protocol/socket.ts": [
        'import { Socket } from "node:net";',
        'import { Buffer } from "buffer";',
        'import { handler } from "../index.js";',
        'import { Cursor } from "@nereus/cursor";',
        'import { fake } from "@nereus/core/testing";',
        'import { z } from "zod";',
        'import { readString } from "./primitives.js";',
        'import { ByteReader } from "@nereus/core";',
        'import { BinaryReader } from "@bufbuild/protobuf/wire";',
        'import { create } from "@bufbuild/protobuf";',
        "export const all = [Socket, Buffer, handler, Cursor, fake, z, readString, ByteReader, BinaryReader, create];",
      ].join("\n"),
    });
    expect(brief(findings)).toEqual([
      // `../index.js` also closes a folder cycle: src/index.ts imports src/protocol.
      "packages/kafka/src/index.ts:2 no-folder-cycle",
      "packages/kafka/src/protocol/socket.ts:1 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:2 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:3 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:4 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:5 no-testing-import-in-production",
      "packages/kafka/src/protocol/socket.ts:5 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:6 protocol-purity",
      "packages/kafka/src/protocol/socket.ts:10 protocol-purity",
    ]);
    expect(findings[1]!.message).toContain("'node:net' is a Node.js builtin");
  });
});

describe("apps, deep imports, escapes, tooling", () => {
  test("nothing imports an app, not even a test", () => {
    const findings = check({
      "packages/kafka/test/broker.test.ts": 'import { all } from "@nereus/broker";\nexport const a = all;\n',
      "tooling/services/src/broker.ts": 'export const start = () => import("@nereus/broker");\n',
    });
    expect(brief(findings)).toEqual([
      "packages/kafka/test/broker.test.ts:1 no-app-import",
      "tooling/services/src/broker.ts:1 no-app-import",
    ]);
  });

  test("deep imports into src/, dist/ or any subpath missing from exports are reported", () => {
    const findings = check({
      "packages/metadata/src/deep.ts": [
        'import { ByteReader } from "@nereus/core/src/bytes/byte-reader.js";',
        'import { Lane } from "@nereus/core/dist/index.js";',
        'import { fake } from "@nereus/core/internal";',
        'import core from "@nereus/core/package.json";',
        "export const all = [ByteReader, Lane, fake, core];",
      ].join("\n"),
    });
    expect(brief(findings)).toEqual([
      "packages/metadata/src/deep.ts:1 no-deep-import",
      "packages/metadata/src/deep.ts:2 no-deep-import",
      "packages/metadata/src/deep.ts:3 no-deep-import",
    ]);
    expect(findings[0]!.message).toBe(
      "'@nereus/core/src/bytes/byte-reader.js' is not exported by @nereus/core (exports: ., ./testing, ./package.json)",
    );
  });

  test("relative imports may not leave the package", () => {
    const findings = check({
      "packages/metadata/src/escape.ts":
        'import { ByteReader } from "../../core/src/index.js";\nexport const b = ByteReader;\n',
    });
    expect(brief(findings)).toEqual(["packages/metadata/src/escape.ts:1 no-relative-escape"]);
  });

  test("production code may not import dev tooling or ./testing subpaths", () => {
    const findings = check({
      "packages/metadata/src/bad.ts":
        'import { startServices } from "@nereus/test-services";\nimport { fake } from "@nereus/core/testing";\nexport const all = [startServices, fake];\n',
    });
    expect(brief(findings)).toEqual([
      "packages/metadata/src/bad.ts:1 no-dev-tooling-import",
      "packages/metadata/src/bad.ts:2 no-testing-import-in-production",
    ]);
  });

  test("imports of workspace packages must be declared in package.json", () => {
    const findings = check({
      "packages/cursor/package.json": manifest("@nereus/cursor", { devDependencies: ["@nereus/core"] }),
    });
    expect(brief(findings)).toEqual(["packages/cursor/src/index.ts:1 undeclared-dependency"]);
    expect(findings[0]!.message).toContain("declared only in devDependencies");
  });

  test("a package missing from the rule table is reported", () => {
    const findings = check({
      "packages/schema-registry/package.json": manifest("@nereus/schema-registry"),
      "packages/schema-registry/src/index.ts": "export const registry = 1;\n",
    });
    expect(brief(findings)).toEqual(["packages/schema-registry/package.json:2 unlisted-package"]);
  });
});

describe("cycles", () => {
  test("a runtime cycle between two files is reported with its path", () => {
    const findings = check({
      "packages/core/src/lane.ts": 'import { session } from "./session.js";\nexport const lane = () => session;\n',
      "packages/core/src/session.ts":
        'import { helper } from "./util/helper.js";\nimport { lane } from "./lane.js";\nexport const session = () => [lane, helper];\n',
      "packages/core/src/util/helper.ts": "export const helper = 1;\n",
    });
    expect(findings).toEqual([
      {
        file: "packages/core/src/lane.ts",
        line: 1,
        rule: "no-file-cycle",
        message: "import cycle: src/lane.ts -> src/session.ts -> src/lane.ts",
      },
    ]);
  });

  test("a cycle through a self-import by package name is a cycle too", () => {
    const findings = check({
      "packages/core/src/bytes/byte-reader.ts":
        'import { Lane } from "@nereus/core";\nexport class ByteReader { lane = Lane; }\n',
    });
    expect(brief(findings)).toEqual([
      "packages/core/src/bytes/byte-reader.ts:1 no-file-cycle",
      // Between folders too: the root files (index.ts) and src/bytes.
      "packages/core/src/index.ts:1 no-folder-cycle",
    ]);
    expect(findings[0]!.message).toBe(
      "import cycle: src/bytes/byte-reader.ts -> src/index.ts -> src/bytes/byte-reader.ts",
    );
  });

  test("a cycle between two packages is reported with its path", () => {
    const findings = check({
      "tooling/services/package.json": manifest("@nereus/test-services", {
        private: true,
        dependencies: ["@nereus/core"],
      }),
    });
    expect(findings).toEqual([
      {
        file: "packages/core/package.json",
        line: lineOf(BASE_WORKSPACE["packages/core/package.json"]!, '"@nereus/test-services"', '"devDependencies"'),
        rule: "no-package-cycle",
        message: "package dependency cycle: @nereus/core -> @nereus/test-services -> @nereus/core",
      },
    ]);
  });
});

describe("scope", () => {
  test("checking one package reports only that package's findings", () => {
    const overrides = {
      "packages/core/src/leak.ts": 'import { store } from "@nereus/metadata";\nexport const s = store;\n',
      "packages/kafka/src/storage.ts":
        'import { ObjectWal } from "@nereus/object-wal";\nexport const wal = ObjectWal;\n',
    };
    expect(brief(check(overrides, "packages/kafka"))).toEqual(["packages/kafka/src/storage.ts:1 import-direction"]);
  });
});
