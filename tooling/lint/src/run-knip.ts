// Runs knip (unused files, exports and dependencies) over the whole workspace with the root knip.jsonc and turns
// each finding into a violation. Knip needs the whole workspace to tell what is used, so it runs in the workspace
// mode of nereus-lint (the root `pnpm lint`), not per package. Configuration hints are not findings.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import type { Violation } from "./report.js";

interface KnipItem {
  readonly name: string;
  readonly line?: number;
}

export async function runKnip(workspaceDir: string): Promise<Violation[]> {
  // knip's exports map has no ./package.json: find the package root from its main entry.
  const main = createRequire(import.meta.url).resolve("knip");
  const bin = path.join(main.slice(0, main.lastIndexOf(`${path.sep}knip${path.sep}`) + 6), "bin", "knip.js");
  const args = [bin, "--no-progress", "--no-config-hints", "--reporter", "json"];
  // knip exits 1 when it has findings; its JSON report is on stdout either way.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: workspaceDir,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; message: string }) => {
    if (typeof error.stdout === "string" && error.stdout.trim().startsWith("{")) return { stdout: error.stdout };
    throw new Error(`knip failed: ${error.message}`);
  });
  const report = JSON.parse(stdout) as { issues: Array<Record<string, unknown> & { file: string }> };
  const violations: Violation[] = [];
  for (const issue of report.issues) {
    for (const [kind, items] of Object.entries(issue)) {
      if (!Array.isArray(items)) continue;
      for (const item of items as KnipItem[]) {
        violations.push({
          file: path.join(workspaceDir, issue.file),
          line: item.line ?? 1,
          rule: `knip/${kind}`,
          message: `unused ${kind === "files" ? "file" : `${kind}: ${item.name}`} (remove it, or add a commented exception to knip.jsonc)`,
          severity: "error",
        });
      }
    }
  }
  return violations;
}
