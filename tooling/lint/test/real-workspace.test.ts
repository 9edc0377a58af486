// The import rules over the real Nereus workspace this package lives in: it must be clean, and every folder cycle
// still allowed in rules.ts must still exist (an entry whose cycle was removed is deleted with it).
import path from "node:path";
import { expect, test } from "vitest";
import { checkImports } from "../src/check-imports.js";
import { formatViolations } from "../src/report.js";

const workspaceRoot = path.resolve(import.meta.dirname, "../../..");

test("the Nereus workspace follows the import rules of DESIGN.md section 2", () => {
  const result = checkImports({ cwd: workspaceRoot });
  expect(formatViolations(result.violations, workspaceRoot)).toBe("");
  expect(result.packagesChecked).toBeGreaterThanOrEqual(5);
  expect(result.filesChecked).toBeGreaterThan(0);
});

test("every folder cycle allowed in rules.ts still exists", () => {
  expect(checkImports({ cwd: workspaceRoot }).unusedFolderCycleAllowances).toEqual([]);
});
