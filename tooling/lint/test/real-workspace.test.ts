// The import rules over the real Nereus workspace this package lives in: it must be clean.
import path from "node:path";
import { expect, test } from "vitest";
import { checkImports } from "../src/check-imports.js";
import { formatViolations } from "../src/report.js";

const workspaceRoot = path.resolve(import.meta.dirname, "../../..");

test("the Nereus workspace follows the import rules of docs/architecture.md §2", () => {
  const result = checkImports({ cwd: workspaceRoot });
  expect(formatViolations(result.violations, workspaceRoot)).toBe("");
  expect(result.packagesChecked).toBeGreaterThanOrEqual(5);
  expect(result.filesChecked).toBeGreaterThan(0);
});
