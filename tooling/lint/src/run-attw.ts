// Runs "Are the types wrong?" (attw) on the tarball pnpm packs for a publishable, built package — the manifest as it
// is published (publishConfig applied, workspace ranges resolved) — with the ESM-only profile (node16 from ESM and
// bundler resolution; node10 and require() are not supported by an ESM-only package) and turns each problem into a
// violation on package.json. Skipped, like publint, for private packages and missing dist/.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
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
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-attw-"));
  let stdout: string;
  try {
    const tarball = await packWithPnpm(packageDir, packDir);
    const args = [bin, tarball, "--profile", "esm-only", "--format", "json"];
    // attw exits 1 when it found problems; its JSON report is on stdout either way.
    ({ stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: packageDir,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; message: string }) => {
      if (typeof error.stdout === "string" && error.stdout.trim().startsWith("{")) return { stdout: error.stdout };
      throw new Error(`attw failed: ${error.message}`);
    }));
  } finally {
    fs.rmSync(packDir, { recursive: true, force: true });
  }
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

/** Packs `packageDir` with pnpm into `destination` and returns the tarball's path. */
async function packWithPnpm(packageDir: string, destination: string): Promise<string> {
  await promisify(execFile)(pnpmExecutable(), ["pack", "--pack-destination", destination], {
    cwd: packageDir,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`pnpm pack failed in ${packageDir}: ${error.stderr?.trim() || error.message}`);
  });
  const tarball = fs.readdirSync(destination).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${packageDir}`);
  return path.join(destination, tarball);
}

/** The workspace's own pnpm (node_modules/.bin above this file), else `pnpm` on PATH. */
function pnpmExecutable(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (;;) {
    const candidate = path.join(dir, "node_modules", ".bin", "pnpm");
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return "pnpm";
    dir = parent;
  }
}
