// Checks the repository's Dockerfile without building it: the Dockerfile validator of the VS Code Docker tooling
// (dockerfile-utils: instruction syntax, flags, ports, stage names) plus what it cannot know — every file a COPY or
// ADD takes from the build context exists in the repository and is not left out by .dockerignore, every
// `--from=` names an earlier stage, and the last stage runs as a user other than root. Reads files only.
import fs from "node:fs";
import path from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import type { Violation } from "./report.js";

const DOCKERFILE = "Dockerfile";

/** Violations of the Dockerfile at `root`; none when there is no Dockerfile. */
export function checkDockerfile(root: string): Violation[] {
  const file = path.join(root, DOCKERFILE);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  const violations: Violation[] = validate(text).map((diagnostic) => ({
    file,
    line: diagnostic.range.start.line + 1,
    rule: "dockerfile/validate",
    message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
    // LSP severities: 1 error, 2 warning.
    severity: diagnostic.severity === 1 ? "error" : "warning",
  }));
  const report = (line: number, rule: string, message: string) =>
    violations.push({ file, line: line + 1, rule, message, severity: "error" });
  const ignored = readDockerignore(root);
  const dockerfile = DockerfileParser.parse(text);
  for (const copy of dockerfile.getCOPYs()) {
    const line = copy.getRange().start.line;
    const fromStage = copy.getFromFlag()?.getValue();
    if (fromStage !== undefined && fromStage !== null) {
      const earlier = dockerfile
        .getFROMs()
        .filter((from) => from.getRange().start.line < line)
        .map((from) => from.getBuildStage());
      if (!earlier.includes(fromStage)) report(line, "dockerfile/stage", `COPY --from=${fromStage}: no earlier stage`);
      continue;
    }
    const sources = copy
      .getArguments()
      .slice(0, -1)
      .map((argument) => argument.getValue());
    for (const source of sources) {
      const relative = path.posix.normalize(source).replace(/^\.\/?/, "");
      if (relative === "" || relative === ".") continue;
      if (!fs.existsSync(path.join(root, relative))) {
        report(line, "dockerfile/copy-source", `COPY ${source}: not in the repository`);
      } else if (ignored.some((pattern) => matchesIgnore(pattern, relative))) {
        report(line, "dockerfile/copy-source", `COPY ${source}: left out of the build context by .dockerignore`);
      }
    }
  }
  const users = dockerfile.getInstructions().filter((instruction) => instruction.getKeyword() === "USER");
  const lastFrom = dockerfile.getFROMs().at(-1)?.getRange().start.line ?? 0;
  const finalUser = users.filter((user) => user.getRange().start.line > lastFrom).at(-1);
  const name = finalUser?.getArgumentsContent()?.trim();
  if (name === undefined || name === "root" || name === "0" || name.startsWith("0:")) {
    report(lastFrom, "dockerfile/user", "the last stage must switch to a user other than root (USER)");
  }
  return violations;
}

/** The patterns of .dockerignore (comments and blank lines dropped; `!` exceptions are not supported). */
function readDockerignore(root: string): string[] {
  const file = path.join(root, ".dockerignore");
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("!"));
}

/** Whether a .dockerignore pattern (`*`, `**`, exact paths) leaves out `relative` or a folder above it. */
function matchesIgnore(pattern: string, relative: string): boolean {
  const expression = pattern
    .replace(/^\/+|\/+$/g, "")
    .split("/")
    .map((part) =>
      part === "**"
        ? "(?:.*)"
        : part
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/]*")
            .replace(/\?/g, "[^/]"),
    )
    .join("/")
    .replace(/\(\?:\.\*\)\//g, "(?:.*/)?");
  return new RegExp(`^${expression}(?:/.*)?$`).test(relative);
}
