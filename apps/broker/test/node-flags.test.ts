// The broker's node flags (`nereusNodeFlags` in package.json) are what every way of starting it passes to node: the
// `nereus` command's shebang and the package's `start` script; the root `npm start` (scripts/start.mjs) and the
// benchmark harness (tooling/kafka-baseline) read the list itself. A flag added in one place and not the others fails here.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8")) as {
  nereusNodeFlags: string[];
  scripts: Record<string, string>;
};

describe("node flags", () => {
  it("the bin's shebang and the start script pass exactly nereusNodeFlags", () => {
    const flags = manifest.nereusNodeFlags;
    expect(flags.length).toBeGreaterThan(0);
    const shebang = readFileSync(path.join(appDir, "bin", "nereus.mjs"), "utf8").split("\n")[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${flags.join(" ")}`);
    expect(manifest.scripts.start).toBe(`node ${flags.join(" ")} dist/main.js`);
  });

  it("node accepts every flag", () => {
    const result = spawnSync(process.execPath, [...manifest.nereusNodeFlags, "-e", "process.exit(0)"], {
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
