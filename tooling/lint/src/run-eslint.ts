// Runs ESLint in-process over one package with the preset of eslint-config.ts (no config file lookup, so a
// package needs no eslint.config.js of its own) and turns its messages into violations.
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { createEslintConfig } from "./eslint-config.js";
import type { Violation } from "./report.js";
import { SCANNED_DIRS } from "./rules.js";

export interface RunEslintOptions {
  readonly packageDir: string;
  /** Write autofixes to disk before reporting what is left. */
  readonly fix?: boolean;
}

export interface RunEslintResult {
  readonly violations: Violation[];
  readonly filesLinted: number;
}

/** The lint targets of a package: its scanned folders that exist, plus top-level script files. */
function eslintTargets(packageDir: string): string[] {
  const folders = SCANNED_DIRS.filter((dir) => fs.existsSync(path.join(packageDir, dir)));
  return [...folders, "*.{ts,mts,cts,js,mjs,cjs}"];
}

export async function runEslint(options: RunEslintOptions): Promise<RunEslintResult> {
  const eslint = new ESLint({
    cwd: options.packageDir,
    overrideConfigFile: true,
    overrideConfig: createEslintConfig(),
    errorOnUnmatchedPattern: false,
    fix: options.fix ?? false,
  });
  const results = await eslint.lintFiles(eslintTargets(options.packageDir));
  if (options.fix) await ESLint.outputFixes(results);
  const violations: Violation[] = [];
  for (const result of results) {
    for (const message of result.messages) {
      violations.push({
        file: result.filePath,
        line: message.line ?? 1,
        rule: message.ruleId ?? (message.fatal ? "parse-error" : "eslint"),
        message: message.message,
        severity: message.severity === 2 ? "error" : "warning",
      });
    }
  }
  return { violations, filesLinted: results.length };
}
