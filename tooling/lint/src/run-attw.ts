// Runs "Are the types wrong?" (attw) on the packed tarball of a publishable, built package with the ESM-only profile
// (node16 from ESM and bundler resolution; node10 and require() are not supported by an ESM-only package) and turns
// each problem into a violation on package.json. Skipped, like publint, for private packages and missing dist/.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import type { Violation } from "./report.js";
import type { PackageManifest } from "./workspace.js";

export type AttwOutcome =
  | { readonly status: "skipped"; readonly reason: string }
  | { readonly status: "checked"; readonly violations: Violation[] };

/** Resolutions an ESM-only package does not serve (the `esm-only` profile of attw). */
const IGNORED_RESOLUTIONS: ReadonlySet<string> = new Set(["node10", "node16-cjs"]);

interface AttwProblem {
  readonly kind: string;
  readonly entrypoint?: string;
  readonly resolutionKind?: string;
}

export async function runAttw(packageDir: string): Promise<AttwOutcome> {
  const manifestFile = path.join(packageDir, "package.json");
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as PackageManifest;
  if (manifest.private === true) return { status: "skipped", reason: "private package" };
  if (!fs.existsSync(path.join(packageDir, "dist"))) {
    return { status: "skipped", reason: "dist/ is missing (lint does not build; run the build first)" };
  }
  const cliManifest = createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json");
  const bin = path.join(path.dirname(cliManifest), "dist", "index.js");
  const args = [bin, "--pack", ".", "--profile", "esm-only", "--format", "json"];
  // attw exits 1 when it found problems; its JSON report is on stdout either way.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: packageDir,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; message: string }) => {
    if (typeof error.stdout === "string" && error.stdout.trim().startsWith("{")) return { stdout: error.stdout };
    throw new Error(`attw failed: ${error.message}`);
  });
  const report = JSON.parse(stdout) as { problems?: Record<string, AttwProblem[]> };
  const violations = Object.values(report.problems ?? {})
    .flat()
    .filter((problem) => problem.resolutionKind === undefined || !IGNORED_RESOLUTIONS.has(problem.resolutionKind))
    .map((problem): Violation => ({
      file: manifestFile,
      line: 1,
      rule: `attw/${problem.kind}`,
      message: `${problem.kind} at ${problem.entrypoint ?? "(package)"}${problem.resolutionKind ? ` (${problem.resolutionKind})` : ""}: see https://github.com/arethetypeswrong/arethetypeswrong.github.io/blob/main/docs/problems/${problem.kind}.md`,
      severity: "error",
    }));
  return { status: "checked", violations };
}
