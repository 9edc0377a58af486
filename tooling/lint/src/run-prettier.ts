// Checks that the workspace's TypeScript and JavaScript sources are formatted by Prettier with the root
// .prettierrc.json (width 120); .prettierignore names what keeps its hand layout (Markdown, JSON, YAML, build
// output). Each unformatted file is one violation; `pnpm format` at the root rewrites them. Runs in the workspace
// mode of nereus-lint, once over the whole tree.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import type { Violation } from "./report.js";

export async function runPrettier(workspaceDir: string): Promise<Violation[]> {
  const bin = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");
  const args = [bin, "--list-different", "."];
  // --list-different prints one unformatted file per line and exits 1 when there are any.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: workspaceDir,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; code?: number; message: string }) => {
    if (error.code === 1 && typeof error.stdout === "string" && (error.stderr ?? "").trim() === "")
      return { stdout: error.stdout };
    throw new Error(`prettier failed: ${error.stderr ?? error.message}`);
  });
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((file) => ({
      file: path.join(workspaceDir, file),
      line: 1,
      rule: "prettier/format",
      message: "not formatted (run `pnpm format` at the repository root)",
      severity: "error" as const,
    }));
}
