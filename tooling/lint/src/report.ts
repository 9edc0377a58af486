// Formats findings as one line each, `file:line rule message`, with paths relative to the directory the user ran
// the command in, sorted by file and line. Knows nothing about where findings come from.
import path from "node:path";

export type Severity = "error" | "warning";

export interface Violation {
  /** Absolute path of the offending file. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** Stable rule id (`import-direction`, `@typescript-eslint/no-unused-vars`, `publint/FILE_DOES_NOT_EXIST`). */
  readonly rule: string;
  readonly message: string;
  readonly severity: Severity;
}

export function sortViolations(violations: readonly Violation[]): Violation[] {
  return [...violations].sort(
    (left, right) =>
      left.file.localeCompare(right.file) || left.line - right.line || left.rule.localeCompare(right.rule),
  );
}

export function formatViolation(violation: Violation, cwd: string): string {
  const relative = path.relative(cwd, violation.file).split(path.sep).join("/") || path.basename(violation.file);
  const suffix = violation.severity === "warning" ? " (warning)" : "";
  return `${relative}:${violation.line} ${violation.rule} ${violation.message}${suffix}`;
}

export function formatViolations(violations: readonly Violation[], cwd: string): string {
  return sortViolations(violations)
    .map((violation) => formatViolation(violation, cwd))
    .join("\n");
}

export function countErrors(violations: readonly Violation[]): number {
  return violations.filter((violation) => violation.severity === "error").length;
}
