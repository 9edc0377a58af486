// The `nereus-lint` command. In a package directory: ESLint over its sources, the workspace import rules for that
// package, and publint when the package is publishable and built. At the workspace root (or with --workspace):
// the import rules over every package. Prints `file:line rule message` lines and a one-line summary; returns the
// exit code instead of exiting so tests can call it.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkDockerfile } from "./check-dockerfile.js";
import { checkImports } from "./check-imports.js";
import { checkPublishManifests } from "./check-publish-manifests.js";
import { countErrors, formatViolations, type Violation } from "./report.js";
import { runEslint } from "./run-eslint.js";
import { runKnip } from "./run-knip.js";
import { runAttw } from "./run-attw.js";
import { runPrettier } from "./run-prettier.js";
import { runPublint } from "./run-publint.js";
import { WORKSPACE_FILE, findWorkspaceRoot, loadWorkspace } from "./workspace.js";

const USAGE = `usage: nereus-lint [--fix] [--workspace] [--no-eslint] [--no-imports] [--no-publint] [--no-attw]
                   [--no-knip] [--no-format] [--no-publish] [--no-dockerfile]

Run in a package directory (as turbo does): ESLint over src/ test/ bench/ bin/ scripts/ and top-level files,
the workspace import rules (docs/architecture.md §2) for the package, publint and attw (ESM-only
profile, on the tarball pnpm packs) if it is publishable and dist/ exists. Run at the workspace root, or pass
--workspace, to check the import rules of every package, run knip (knip.jsonc) over the workspace, check that the
sources are formatted by Prettier (.prettierrc.json; --no-format skips it), check the publishing fields of every
published package (docs/releasing.md; --no-publish skips it) and check the Dockerfile (--no-dockerfile skips it).`;

export interface CliOutput {
  readonly out: (line: string) => void;
  readonly error: (line: string) => void;
}

const consoleOutput: CliOutput = { out: (line) => console.log(line), error: (line) => console.error(line) };

export async function main(argv: readonly string[], cwd: string, output: CliOutput = consoleOutput): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        fix: { type: "boolean", default: false },
        workspace: { type: "boolean", default: false },
        "no-eslint": { type: "boolean", default: false },
        "no-imports": { type: "boolean", default: false },
        "no-publint": { type: "boolean", default: false },
        "no-attw": { type: "boolean", default: false },
        "no-knip": { type: "boolean", default: false },
        "no-format": { type: "boolean", default: false },
        "no-publish": { type: "boolean", default: false },
        "no-dockerfile": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    output.error(`nereus-lint: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    output.out(USAGE);
    return 0;
  }

  if (values.workspace || fs.existsSync(path.join(cwd, WORKSPACE_FILE))) {
    const result = checkImports({ cwd });
    const violations = [...result.violations];
    const notes = [`imports ${result.packagesChecked} packages / ${result.filesChecked} files`];
    if (!values["no-knip"]) {
      violations.push(...(await runKnip(cwd)));
      notes.push("knip checked");
    }
    if (!values["no-format"]) {
      violations.push(...(await runPrettier(cwd)));
      notes.push("formatting checked");
    }
    if (!values["no-publish"]) {
      violations.push(...checkPublishManifests(loadWorkspace(findWorkspaceRoot(cwd))));
      notes.push("publishing fields checked");
    }
    if (!values["no-dockerfile"]) {
      violations.push(...checkDockerfile(findWorkspaceRoot(cwd)));
      notes.push("Dockerfile checked");
    }
    return finish(output, cwd, "workspace", violations, notes);
  }

  const packageDir = findPackageDir(cwd);
  const name = readName(packageDir);
  const violations: Violation[] = [];
  const notes: string[] = [];
  const eslintRun = values["no-eslint"] ? undefined : runEslint({ packageDir, fix: values.fix });
  if (!values["no-imports"]) {
    const result = checkImports({ cwd, packageDir });
    violations.push(...result.violations);
    notes.push(`imports ${result.filesChecked} files`);
  }
  if (eslintRun) {
    const result = await eslintRun;
    violations.push(...result.violations);
    notes.unshift(`eslint ${result.filesLinted} files`);
  }
  if (!values["no-publint"]) {
    const outcome = await runPublint(packageDir);
    if (outcome.status === "skipped") {
      notes.push(`publint skipped: ${outcome.reason}`);
    } else {
      violations.push(...outcome.violations);
      notes.push("publint checked");
    }
  }
  if (!values["no-attw"]) {
    const outcome = await runAttw(packageDir);
    if (outcome.status === "skipped") {
      notes.push(`attw skipped: ${outcome.reason}`);
    } else {
      violations.push(...outcome.violations);
      notes.push("attw checked");
    }
  }
  return finish(output, cwd, name, violations, notes);
}

function finish(output: CliOutput, cwd: string, subject: string, violations: Violation[], notes: string[]): number {
  if (violations.length > 0) output.out(formatViolations(violations, cwd));
  const errors = countErrors(violations);
  const warnings = violations.length - errors;
  const verdict =
    violations.length === 0
      ? "ok"
      : `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  output.out(`nereus-lint ${subject}: ${verdict} (${notes.join("; ")})`);
  return errors > 0 ? 1 : 0;
}

function findPackageDir(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json found above ${start}`);
    dir = parent;
  }
}

function readName(packageDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { name?: string };
  return manifest.name ?? path.basename(packageDir);
}
