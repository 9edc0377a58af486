// The import rules over the real Nereus workspace this package lives in: it must be clean, and every folder cycle
// still allowed in rules.ts must still exist (an entry whose cycle was removed is deleted with it). The publishing
// fields and the Dockerfile must pass their checks too.
import path from "node:path";
import { expect, test } from "vitest";
import { checkDockerfile } from "../src/check-dockerfile.js";
import { checkImports } from "../src/check-imports.js";
import { checkPublishManifests } from "../src/check-publish-manifests.js";
import { formatViolations } from "../src/report.js";
import { loadWorkspace } from "../src/workspace.js";

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

test("the published packages carry their publishing fields and the Dockerfile passes its check", () => {
  const violations = [...checkPublishManifests(loadWorkspace(workspaceRoot)), ...checkDockerfile(workspaceRoot)];
  expect(formatViolations(violations, workspaceRoot)).toBe("");
});
